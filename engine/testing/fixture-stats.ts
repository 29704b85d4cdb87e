// Building blocks of the run fixture (fixtures.ts): a seeded PRNG and exact statistics of a
// stretch of synthetic samples, the way the runner would summarize real ones.
import {
  ERROR_KINDS,
  type ErrorCounts,
  type ErrorKind,
  type LatencyStats,
  type StatsBlock,
} from '../api/types.ts'

/** The same seeded PRNG the comparison's bootstrap uses. */
export { seededRandom as prng } from '../metrics/random.ts'

export function gauss(rand: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand())
}

/** Exact nearest-rank percentiles of ascending-sorted values (monotone by construction). */
export function latencyStats(sorted: Float64Array): LatencyStats {
  const n = sorted.length
  if (n === 0)
    return { count: 0, min: 0, mean: 0, stddev: 0, p50: 0, p90: 0, p95: 0, p99: 0, p999: 0, max: 0 }
  let sum = 0
  let sq = 0
  for (const v of sorted) {
    sum += v
    sq += v * v
  }
  const mean = sum / n
  const at = (p: number): number => sorted[Math.min(n - 1, Math.max(0, Math.ceil(p * n) - 1))] ?? 0
  return {
    count: n,
    min: sorted[0] ?? 0,
    mean,
    stddev: Math.sqrt(Math.max(0, sq / n - mean * mean)),
    p50: at(0.5),
    p90: at(0.9),
    p95: at(0.95),
    p99: at(0.99),
    p999: at(0.999),
    max: sorted[n - 1] ?? 0,
  }
}

export const KIND = Object.fromEntries(ERROR_KINDS.map((k, i) => [k, i])) as Record<ErrorKind, number>

/** Accumulates one stretch of samples (a second, or a whole round) into a StatsBlock. */
export class Block {
  latencies: number[] = []
  requests = 0
  ok = 0
  bytes = 0
  errors: ErrorCounts = {}
  statusClasses = { '1xx': 0, '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0 }

  add(latency: number, status: number, bytes: number, error: number): void {
    this.requests++
    this.bytes += bytes
    if (latency >= 0) this.latencies.push(latency)
    if (status >= 200 && status < 300) this.ok++
    if (status >= 100 && status < 600) this.statusClasses[`${Math.floor(status / 100)}xx` as '2xx']++
    const kind = ERROR_KINDS[error]
    if (kind && kind !== 'none') this.errors[kind] = (this.errors[kind] ?? 0) + 1
  }

  stats(seconds: number): StatsBlock {
    const latency = latencyStats(Float64Array.from(this.latencies).sort())
    return {
      requests: this.requests,
      ok: this.ok,
      errors: this.errors,
      statusClasses: this.statusClasses,
      bytes: this.bytes,
      throughput: latency.count / seconds,
      seconds,
      latency,
      corrected: null,
      serverApp: null,
      serverDb: null,
    }
  }
}

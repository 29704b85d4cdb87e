// Accumulates completed requests into a StatsBlock: counts by status class and error kind, bytes,
// and HDR histograms of latency (and, when present, corrected latency and Server-Timing durations).
import {
  ERROR_KINDS,
  type ErrorCounts,
  type LatencyStats,
  type SeriesPoint,
  type StatsBlock,
} from '../api/types.ts'
import { answeredInSecond } from './figures.ts'
import { extremesOf, latencyStats, newHistogram, record, type Extremes, type Histogram } from './hdr.ts'

export const ERR_NONE = 0
export const ERR_STATUS = ERROR_KINDS.indexOf('status')
export const ERR_INFLIGHT = ERROR_KINDS.indexOf('inflight')

export const HISTOGRAMS = ['latency', 'corrected', 'app', 'db'] as const
export type HistogramName = (typeof HISTOGRAMS)[number]

export class StatsAccumulator {
  requests = 0
  ok = 0
  bytes = 0
  readonly errors = new Float64Array(ERROR_KINDS.length)
  readonly status = new Float64Array(5)
  /** `status` errors by their status code (few codes: a map, touched only on such an error). */
  readonly unexpected = new Map<number, number>()
  readonly latency: Histogram = newHistogram()
  corrected: Histogram | null = null
  app: Histogram | null = null
  db: Histogram | null = null
  /**
   * Exact extremes of histograms added from encoded ones (metrics/encoded.ts): decoding keeps
   * only buckets. Empty for an accumulator that recorded its own requests.
   */
  exact: Partial<Record<HistogramName, Extremes>> = {}

  /** A histogram's exact extremes: carried ones when it was merged, else its own. */
  extremes(name: HistogramName): Extremes | null {
    const h = this[name]
    if (!h || h.totalCount === 0) return null
    return this.exact[name] ?? extremesOf(h)
  }

  /** latencyUs < 0: no response (timeout, refused, reset, in flight at the window's end). */
  add(
    latencyUs: number,
    correctedUs: number,
    status: number,
    bytes: number,
    error: number,
    appUs: number,
    dbUs: number,
  ): void {
    if (error !== ERR_INFLIGHT) this.requests++
    this.errors[error] = (this.errors[error] ?? 0) + 1
    if (latencyUs < 0) return
    const cls = (status / 100) | 0
    if (cls >= 1 && cls <= 5) this.status[cls - 1] = (this.status[cls - 1] ?? 0) + 1
    if (error === ERR_NONE) this.ok++
    else if (error === ERR_STATUS) this.unexpected.set(status, (this.unexpected.get(status) ?? 0) + 1)
    this.bytes += bytes
    record(this.latency, latencyUs)
    if (correctedUs >= 0) record((this.corrected ??= newHistogram()), correctedUs)
    if (appUs >= 0) record((this.app ??= newHistogram()), appUs)
    if (dbUs >= 0) record((this.db ??= newHistogram()), dbUs)
  }

  errorCounts(): ErrorCounts {
    const out: ErrorCounts = {}
    for (let i = 1; i < ERROR_KINDS.length; i++) {
      const n = this.errors[i] ?? 0
      if (n > 0) out[ERROR_KINDS[i] as Exclude<(typeof ERROR_KINDS)[number], 'none'>] = n
    }
    return out
  }

  /** The `status` errors by code, as StatsBlock.unexpected holds them (codes in ascending order). */
  unexpectedCounts(): Record<string, number> {
    const out: Record<string, number> = {}
    for (const code of [...this.unexpected.keys()].sort((a, b) => a - b))
      out[code] = this.unexpected.get(code)!
    return out
  }

  /** Responses by status class. */
  statusClasses(): StatsBlock['statusClasses'] {
    return {
      '1xx': this.status[0] ?? 0,
      '2xx': this.status[1] ?? 0,
      '3xx': this.status[2] ?? 0,
      '4xx': this.status[3] ?? 0,
      '5xx': this.status[4] ?? 0,
    }
  }

  /** Errors of every kind but requests still in flight when a time window closed. */
  errorTotal(): number {
    let n = 0
    for (let i = 1; i < ERROR_KINDS.length; i++) if (i !== ERR_INFLIGHT) n += this.errors[i] ?? 0
    return n
  }

  toBlock(seconds: number): StatsBlock {
    const completed = this.latency.totalCount
    return {
      requests: this.requests,
      ok: this.ok,
      errors: this.errorCounts(),
      ...(this.unexpected.size > 0 ? { unexpected: this.unexpectedCounts() } : {}),
      statusClasses: this.statusClasses(),
      bytes: this.bytes,
      throughput: seconds > 0 ? completed / seconds : 0,
      seconds,
      latency: latencyStats(this.latency, this.exact.latency),
      corrected: this.corrected ? latencyStats(this.corrected, this.exact.corrected) : null,
      serverApp: this.app ? latencyStats(this.app, this.exact.app) : null,
      serverDb: this.db ? latencyStats(this.db, this.exact.db) : null,
    }
  }

  reset(): void {
    this.requests = 0
    this.ok = 0
    this.bytes = 0
    this.errors.fill(0)
    this.status.fill(0)
    this.unexpected.clear()
    this.latency.reset()
    this.corrected?.reset()
    this.app?.reset()
    this.db?.reset()
    this.exact = {}
  }

  /** Fold another accumulator in (phases into a segment total). */
  addAll(other: StatsAccumulator): void {
    if (Object.keys(this.exact).length > 0 || Object.keys(other.exact).length > 0) {
      for (const name of HISTOGRAMS) {
        const both = mergeExtremes(this.extremes(name), other.extremes(name))
        if (both) this.exact[name] = both
      }
    }
    this.requests += other.requests
    this.ok += other.ok
    this.bytes += other.bytes
    for (let i = 0; i < this.errors.length; i++)
      this.errors[i] = (this.errors[i] ?? 0) + (other.errors[i] ?? 0)
    for (let i = 0; i < 5; i++) this.status[i] = (this.status[i] ?? 0) + (other.status[i] ?? 0)
    this.addUnexpected(other.unexpected)
    this.latency.add(other.latency)
    if (other.corrected) (this.corrected ??= newHistogram()).add(other.corrected)
    if (other.app) (this.app ??= newHistogram()).add(other.app)
    if (other.db) (this.db ??= newHistogram()).add(other.db)
  }

  /** Add `status` error counts by code. */
  addUnexpected(counts: ReadonlyMap<number, number> | Readonly<Record<string, number>>): void {
    const entries: Iterable<[number | string, number]> =
      counts instanceof Map ? counts.entries() : Object.entries(counts as Readonly<Record<string, number>>)
    for (const [code, n] of entries) {
      const c = Number(code)
      this.unexpected.set(c, (this.unexpected.get(c) ?? 0) + n)
    }
  }

  destroy(): void {
    this.latency.destroy()
    this.corrected?.destroy()
    this.app?.destroy()
    this.db?.destroy()
  }
}

/** The extremes of two histograms added together. */
export function mergeExtremes(a: Extremes | null, b: Extremes | null): Extremes | null {
  if (!a) return b
  if (!b) return a
  return { min: Math.min(a.min, b.min), max: Math.max(a.max, b.max) }
}

/** Where a second's point belongs: what the accumulator does not hold. */
export type SecondPlace = Pick<
  SeriesPoint,
  'target' | 'round' | 't' | 'phase' | 'connections' | 'generatorCpu'
>

/**
 * One second's series point, as a process's writer counts it and as the coordinator merges the
 * agents' seconds: throughput is the responses, and a second without one has no latency (the same
 * rule as the stored series, engine/store/history-rows.ts). Once a second per segment, not per request.
 */
export function secondPoint(
  acc: StatsAccumulator,
  lat: LatencyStats,
  place: SecondPlace,
): { point: SeriesPoint; status: StatsBlock['statusClasses'] } {
  const status = acc.statusClasses()
  const responses = answeredInSecond(status)
  const at = (v: number): number | null => (responses > 0 ? v : null)
  const point: SeriesPoint = {
    target: place.target,
    round: place.round,
    t: place.t,
    phase: place.phase,
    connections: place.connections,
    requests: acc.requests,
    responses,
    errors: acc.errorTotal(),
    errorsByKind: acc.errorCounts(),
    bytes: acc.bytes,
    mean: at(lat.mean),
    p50: at(lat.p50),
    p90: at(lat.p90),
    p95: at(lat.p95),
    p99: at(lat.p99),
    p999: at(lat.p999),
    max: at(lat.max),
    generatorCpu: place.generatorCpu,
  }
  return { point, status }
}

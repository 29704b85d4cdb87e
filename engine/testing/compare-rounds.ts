// Round statistics built from the p50 of each round, for comparison tests whose truth is set
// here: every other figure follows from it (p99 = 2.5 × p50, throughput = 1 s / p50).
import type { CompareMetric, CompareResult, StatsBlock } from '../api/types.ts'
import { parseRunConfig } from '../config/load.ts'
import type { Round, RunRounds } from '../metrics/compare.ts'

export function block(
  p50: number,
  o: { throughput?: number; failed?: number; requests?: number } = {},
): StatsBlock {
  const requests = o.requests ?? 1000
  const failed = o.failed ?? 0
  const latency = {
    count: requests - failed,
    min: p50 / 2,
    mean: p50 * 1.1,
    stddev: p50 / 10,
    p50,
    p90: p50 * 1.5,
    p95: p50 * 1.8,
    p99: p50 * 2.5,
    p999: p50 * 4,
    max: p50 * 6,
  }
  return {
    requests,
    ok: requests - failed,
    errors: failed ? { timeout: failed } : {},
    statusClasses: { '1xx': 0, '2xx': requests - failed, '3xx': 0, '4xx': 0, '5xx': 0 },
    bytes: 0,
    throughput: o.throughput ?? 1e6 / p50,
    seconds: 10,
    latency,
    corrected: null,
    serverApp: null,
    serverDb: null,
  }
}

export const rounds = (p50s: readonly number[], o: Parameters<typeof block>[1] = {}): Round[] =>
  p50s.map((p, i) => ({ ...block(p, o), round: i + 1 }))

export type TargetSpec = {
  name: string
  p50s: number[]
  body?: string
  series?: { name: string; value: number }
  /** How it is spoken to: h2 gets an https URL, the others an http one. */
  protocol?: 'http1' | 'h2' | 'h2c'
  streams?: number
}

export function run(
  runId: number,
  targets: TargetSpec[],
  o: {
    schedule?: 'interleaved' | 'sequential'
    load?: Record<string, unknown>
    env?: Partial<NonNullable<RunRounds['environment']>>
    saturated?: boolean
    sweep?: RunRounds['sweep']
  } = {},
): RunRounds {
  const config = parseRunConfig({
    version: 1,
    name: `run ${runId}`,
    targets: targets.map((t, i) => ({
      name: t.name,
      url: `${t.protocol === 'h2' ? 'https' : 'http'}://127.0.0.1:${8000 + i}/`,
      ...(t.protocol ? { protocol: t.protocol } : {}),
      ...(t.streams ? { streams: t.streams } : {}),
      ...(t.body ? { method: 'POST', body: t.body } : {}),
      ...(t.series ? { series: t.series } : {}),
    })),
    load: { connections: 8, duration: 10, ...o.load },
    rounds: Math.max(...targets.map((t) => t.p50s.length)),
    schedule: o.schedule ?? 'interleaved',
  })
  return {
    runId,
    status: 'done',
    config,
    environment: {
      host: 'bench-1',
      cpu: 'Xeon',
      cores: 2,
      os: 'linux 6.1',
      node: 'v24.0.0',
      app: '0.1.0',
      details: {},
      ...o.env,
    },
    generator: {
      saturated: o.saturated ?? false,
      saturatedSeconds: o.saturated ? 8 : 0,
      seconds: 10,
      peakCpu: o.saturated ? 99 : 40,
      message: null,
    },
    sweep: o.sweep ?? null,
    targets: targets.map((t) => ({ target: t.name, rounds: rounds(t.p50s) })),
  }
}

/** Pair `pair`'s figure for one metric; throws when the comparison has none. */
export const metric = (r: CompareResult, pair: number, name: CompareMetric['metric']): CompareMetric => {
  const m = r.pairs[pair]?.metrics.find((x) => x.metric === name)
  if (!m) throw new Error(`no ${name} in pair ${pair}`)
  return m
}

/** Per-round p50s (µs) of two entries about 4× apart, with a little noise each. */
export const A = [1010, 1030, 995, 1020, 1005]
export const B = [3950, 4010, 3900, 4050, 3980]

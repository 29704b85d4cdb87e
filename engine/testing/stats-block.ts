// A round's statistics with the headline values a test sets (p50, p99 in µs, throughput), the rest
// plausible and unused, and a round's noise as a busy host leaves it: for the tests of the stopping
// rule, the noise rule, the rounds judge and the report, and the stopping rule's simulation.
import type { RoundNoise, StatsBlock } from '../api/types.ts'
import { judgeHost, type MeasuredNoise } from '../metrics/noise.ts'

export function headlineBlock(p50: number, p99: number, throughput: number, count = 1000): StatsBlock {
  const latency = { count, min: 1, mean: p50, stddev: 1, p50, p90: p99, p95: p99, p99, p999: p99, max: p99 }
  return {
    requests: count,
    ok: count,
    errors: {},
    statusClasses: { '1xx': 0, '2xx': count, '3xx': 0, '4xx': 0, '5xx': 0 },
    bytes: 0,
    throughput,
    seconds: 1,
    latency,
    corrected: null,
    serverApp: null,
    serverDb: null,
  }
}

/** What a quiet 2-core host measures beside a round. */
export const QUIET: MeasuredNoise = {
  loadAverage: 0.5,
  cores: 2,
  stealPercent: 0,
  otherCpuPercent: 5,
  generatorCpuPercent: 30,
  sendLagMs: null,
  targetCpuPercent: null,
  targetCpuLimitPercent: null,
}

/** A round on a 2-core host where other processes used 1.3 cores at load 5.2: disturbed. */
export function busyNoise(): RoundNoise {
  return judgeHost({ ...QUIET, loadAverage: 5.2, otherCpuPercent: 130, generatorCpuPercent: 40 })
}

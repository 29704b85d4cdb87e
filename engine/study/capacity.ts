// Capacity at a latency target (a sweep's `slo: { p99: 50 }`): per line of a study, the value
// with the highest throughput whose percentile stayed under the target: the number a throughput
// vs latency curve is read for (TechEmpower-style), beside the knee (results.ts). The percentile is
// the one every screen shows for the point (all its rounds' histograms merged); the throughput is
// its rounds' mean, with a 95 % t-interval over the rounds; how many rounds met the target on their
// own is said too, so a value that met it only merged reads as what it is. Pure: points in.
import type { Capacity, StudySlo } from '../api/types.ts'
import { tInterval } from '../metrics/compare-stats.ts'
import { formatMetricValue, msText } from '../metrics/units.ts'

export const CAPACITY_RULE =
  'Capacity at the latency target: among the values swept, the one with the highest throughput (the mean of its rounds) whose percentile, over all its rounds\u2019 requests, stayed at or under the target; its interval is the 95 % t-interval of its rounds\u2019 throughputs, and the rounds that met the target on their own are counted. The next value up that broke the target is named.'

/** One value of a line: its throughput, its percentile (merged), and each round's. */
export interface CapacityPoint {
  value: number
  label: string
  runId: number
  throughput: number
  latencyUs: number
  rounds: readonly { throughput: number; latencyUs: number }[]
}

/** Throughput as every screen prints it: one decimal. */
const reqs = (x: number): string => x.toFixed(1)

/** The capacity of one line (`name`: the target, and its grid value) along the axis `axis`. */
export function capacityOf(
  name: string,
  axis: string,
  points: readonly CapacityPoint[],
  slo: StudySlo,
): Capacity {
  const limit = slo.ms * 1000
  const under = (us: number) => us > 0 && us <= limit
  const sorted = [...points].sort((a, b) => a.value - b.value)
  const met = sorted.filter((p) => under(p.latencyUs))
  const what = `${slo.metric} under ${slo.ms} ms`
  if (met.length === 0) {
    const lowest = [...sorted].sort((a, b) => a.latencyUs - b.latencyUs)[0]
    return {
      value: null,
      label: null,
      runId: null,
      throughput: null,
      interval: null,
      rounds: 0,
      roundsMet: 0,
      latencyUs: null,
      next: null,
      sentence: lowest
        ? `${name}: no ${axis} kept ${what} (the lowest: ${msText(lowest.latencyUs)} ms at ${axis}=${lowest.label}).`
        : `${name}: nothing measured.`,
    }
  }
  // The highest throughput under the target; a tie goes to the smaller value (less load for it).
  const best = met.reduce((a, b) => (b.throughput > a.throughput ? b : a))
  const ci = tInterval(best.rounds.map((r) => r.throughput))
  const roundsMet = best.rounds.filter((r) => under(r.latencyUs)).length
  const broke = sorted.find((p) => p.value > best.value && !under(p.latencyUs))
  const interval: [number, number] | null = ci ? [ci.lo, ci.hi] : null
  const range = interval ? ` (95 % CI ${reqs(interval[0])}–${reqs(interval[1])})` : ''
  const after = broke ? `; at ${axis}=${broke.label} ${slo.metric} was ${msText(broke.latencyUs)} ms` : ''
  return {
    value: best.value,
    label: best.label,
    runId: best.runId,
    throughput: best.throughput,
    interval,
    rounds: best.rounds.length,
    roundsMet,
    latencyUs: best.latencyUs,
    next: broke ? { label: broke.label, latencyUs: broke.latencyUs } : null,
    sentence: `${name}: ${formatMetricValue('throughput', best.throughput)}${range} at ${axis}=${best.label} with ${slo.metric} ${msText(best.latencyUs)} ms, under its ${slo.ms} ms target (${roundsMet} of ${best.rounds.length} round${best.rounds.length === 1 ? '' : 's'} under it on their own)${after}.`,
  }
}

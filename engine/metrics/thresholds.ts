// Thresholds are evaluated once, at the end, per target with its rounds merged (HDR histograms
// merge losslessly, so a merged p99 is the p99 of all the target's requests).
import type { Threshold } from '../config/schema.ts'
import type { TargetRoundSummary, ThresholdResult } from '../api/types.ts'
import { roundsFigures } from './figures.ts'
import { latencyStats, mergeEncoded } from './hdr.ts'

function metricValue(metric: Threshold['metric'], rounds: TargetRoundSummary[]): number | null {
  if (rounds.length === 0) return null
  // Over the rounds as every screen counts them (figures.ts): throughput the mean of the rounds'
  // responses per second, the error rate over all their requests.
  if (metric === 'throughput') return roundsFigures(rounds).throughput
  if (metric === 'errorRate') return roundsFigures(rounds).errorRate ?? 0
  const merged = mergeEncoded(rounds.map((r) => r.histogram))
  const stats = latencyStats(merged)
  merged.destroy()
  if (stats.count === 0) return null
  const key = metric === 'p99.9' ? 'p999' : metric
  return stats[key]
}

export function evaluateThresholds(
  thresholds: readonly Threshold[],
  results: readonly TargetRoundSummary[],
): ThresholdResult[] {
  const out: ThresholdResult[] = []
  const targets = [...new Set(results.map((r) => r.target))]
  for (const th of thresholds) {
    for (const target of th.target === '*' ? targets : [th.target]) {
      const actual = metricValue(
        th.metric,
        results.filter((r) => r.target === target),
      )
      const passed =
        actual !== null &&
        (th.max === undefined || actual <= th.max) &&
        (th.min === undefined || actual >= th.min)
      out.push({
        metric: th.metric,
        target,
        ...(th.max !== undefined ? { max: th.max } : {}),
        ...(th.min !== undefined ? { min: th.min } : {}),
        actual,
        passed,
      })
    }
  }
  return out
}

// A target over its rounds, defined once: what every screen shows as "the target's figure" when a
// run has several rounds (the CLI's and the app's "all" rows, `--json`'s overRounds, page 1 of the
// report and its "all N" rows). Counts are summed, throughput is the mean of the rounds'
// throughputs (engine/metrics/figures.ts roundsFigures), latency is every answered request of
// every round: the rounds' HDR histograms merged, with the exact extremes the rounds kept.
// A comparison's per-side figure is another statistic (the geometric mean of the rounds' values,
// engine/metrics/compare-metric.ts) and is named so wherever it is shown (compare-words.ts
// CENTRE_NAME). One round is its own figure, unchanged.
import type { LatencyStats, StatsBlock, TargetOverRounds, TargetRoundSummary } from '../api/types.ts'
import { roundsFigures } from './figures.ts'
import { latencyStats, mergeEncoded } from './hdr.ts'

type Round = Pick<
  TargetRoundSummary,
  keyof StatsBlock | 'target' | 'round' | 'histogram' | 'correctedHistogram' | 'noise'
>

/** The merged histograms' statistics, with the rounds' own extremes (a decoded max is its bucket's top). */
function merged(encoded: readonly string[], stats: readonly LatencyStats[]): LatencyStats {
  const answered = stats.filter((l) => l.count > 0)
  const h = mergeEncoded(encoded)
  try {
    const exact = answered.length
      ? { min: Math.min(...answered.map((l) => l.min)), max: Math.max(...answered.map((l) => l.max)) }
      : undefined
    return latencyStats(h, exact)
  } finally {
    h.destroy()
  }
}

function sumClasses(rounds: readonly Round[]): StatsBlock['statusClasses'] {
  const out = { '1xx': 0, '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0 }
  for (const r of rounds)
    for (const k of Object.keys(out) as (keyof typeof out)[]) out[k] += r.statusClasses[k]
  return out
}

/** One target's rounds as one block. */
export function targetOverRounds(target: string, rounds: readonly Round[]): TargetOverRounds {
  if (rounds.length === 1) {
    const r = rounds[0]!
    return {
      target,
      rounds: 1,
      requests: r.requests,
      ok: r.ok,
      errors: { ...r.errors },
      statusClasses: { ...r.statusClasses },
      bytes: r.bytes,
      throughput: r.throughput,
      seconds: r.seconds,
      latency: r.latency,
      corrected: r.corrected,
      serverApp: r.serverApp,
      serverDb: r.serverDb,
    }
  }
  const f = roundsFigures(rounds)
  const corrected = rounds.every((r) => r.correctedHistogram && r.corrected)
  return {
    target,
    rounds: rounds.length,
    requests: f.requests,
    ok: f.ok,
    errors: { ...f.errors, ...(f.inflight ? { inflight: f.inflight } : {}) },
    statusClasses: sumClasses(rounds),
    bytes: rounds.reduce((s, r) => s + r.bytes, 0),
    throughput: f.throughput,
    seconds: f.seconds,
    latency: merged(
      rounds.map((r) => r.histogram).filter(Boolean),
      rounds.map((r) => r.latency),
    ),
    corrected: corrected
      ? merged(
          rounds.map((r) => r.correctedHistogram!),
          rounds.map((r) => r.corrected!),
        )
      : null,
    // Server-Timing keeps no histogram per round: no merged figure to give.
    serverApp: null,
    serverDb: null,
  }
}

/**
 * Every target of a run over its rounds, in the order the results first name them. A disturbed
 * round that was repeated (rounds.skipDisturbed) is shown with its run, but is not in the figure.
 */
export function overRounds(results: readonly Round[]): TargetOverRounds[] {
  const byTarget = new Map<string, Round[]>()
  for (const r of results) {
    const kept = byTarget.get(r.target) ?? []
    byTarget.set(r.target, r.noise?.repeated ? kept : [...kept, r])
  }
  return [...byTarget].flatMap(([target, rounds]) =>
    rounds.length === 0
      ? []
      : targetOverRounds(
          target,
          [...rounds].sort((a, b) => a.round - b.round),
        ),
  )
}

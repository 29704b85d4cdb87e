// Where load.warmup: auto found each segment's warm-up ending, as chart markers: on the run's
// timeline one per segment, at its measured window's first second; with rounds overlaid (seconds
// since each round's start) one per target and cut, the rounds that share it named together.
import type { TargetRoundSummary } from '#engine/api/types.ts'
import type { Marker } from './chart-types.ts'

type Cut = Pick<TargetRoundSummary, 'target' | 'round' | 'steady'>

const word = (settled: boolean) => (settled ? 'steady from here' : 'never settled')

/** On the run's timeline: "java r2: steady from here" at the segment's first measured second. */
export function cutMarkers(results: readonly Cut[]): Marker[] {
  const auto = results.filter((r) => r.steady)
  const rounds = new Set(auto.map((r) => r.round)).size > 1
  return auto.map((r) => ({
    t: r.steady!.from,
    label: `${r.target}${rounds ? ` r${r.round}` : ''}: ${word(r.steady!.settled)}`,
  }))
}

/** With rounds overlaid: at each cut (seconds into the round), the target and its rounds there. */
export function roundCutMarkers(results: readonly Cut[]): Marker[] {
  const at = new Map<string, { t: number; target: string; rounds: number[]; settled: boolean }>()
  for (const r of results) {
    if (!r.steady) continue
    const key = `${r.target}\u0000${r.steady.warmupSeconds}`
    const m = at.get(key) ?? { t: r.steady.warmupSeconds, target: r.target, rounds: [], settled: true }
    m.rounds.push(r.round)
    m.settled &&= r.steady.settled
    at.set(key, m)
  }
  return [...at.values()].map((m) => ({
    t: m.t,
    label: `${m.target} r${m.rounds.join(',')}: ${word(m.settled)}`,
  }))
}

// load.warmup: auto in words, once for every screen: the CLI's run table, the run page, the
// comparison's notes and the report. A segment that never settled says its figures include a trend.
import type { SteadyState, TargetRoundSummary } from '../api/types.ts'

const signed = (x: number): string => `${x >= 0 ? '+' : '−'}${Math.round(Math.abs(x) * 100)} %`

/** One segment's warm-up as found: "warm-up found: 3 s", and when it did not settle, why. */
export function steadyText(s: SteadyState): string {
  const found = `warm-up found: ${s.warmupSeconds} s (load.warmup: auto)`
  if (s.settled) return found
  if (s.why === 'short')
    return `${found}; too short to tell a level (under 10 s): its figures may include a trend`
  return `${found}; never settled: its figures include a trend (throughput ${signed(s.change.throughput)}, p50 ${signed(s.change.p50)} over the measured window${s.warmupSeconds >= s.limit ? '; the cut reached its limit, half the segment' : ''})`
}

/** A target's rounds that never settled, as a caveat: null when every round settled (or none was auto). */
export function unsettledNote(
  label: string,
  rounds: readonly Pick<TargetRoundSummary, 'round' | 'steady'>[],
): string | null {
  const auto = rounds.filter((r) => r.steady)
  const unsettled = auto.filter((r) => !r.steady!.settled)
  if (unsettled.length === 0) return null
  const which =
    auto.length === 1
      ? 'its round'
      : `${unsettled.length} of ${auto.length} rounds (${unsettled.map((r) => r.round).join(', ')})`
  return `${label}: ${which} never settled (load.warmup: auto): ${unsettled.length === 1 ? 'its' : 'their'} figures include a trend.`
}

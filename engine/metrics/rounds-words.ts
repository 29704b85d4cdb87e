// How many rounds a run made and why it stopped, and how its rounds were set, in the words every
// screen uses: the CLI's run and `runs show`, the live view, the run page, `compare`, the Compare
// page and the PDF. Pure, no Node modules (the renderer imports it).
import type { RoundsOutcome, RoundsWidth, StopReason } from '../api/types.ts'
import type { RoundsPlan } from '../config/rounds.ts'
import { DEFAULT_MIN_EFFECT } from './compare-metric.ts'
import { fmtGoal, fmtWidth } from './stopping.ts'

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`

/** How a config's rounds are set: "3 rounds", "until every headline interval is within ±2 % (3–40 rounds, 30 min at most)". */
export function roundsSettingWords(plan: RoundsPlan): string {
  if (!plan.adaptive) return plural(plan.max, 'round')
  const skip = plan.skipDisturbed ? ', disturbed rounds repeated' : ''
  return `rounds until every headline interval is within ±${fmtGoal(plan.precision ?? 0)} % (${plan.min}–${plan.max} rounds, ${fmtGoal(plan.budgetMinutes ?? 0)} min at most${skip})`
}

function widest(w: RoundsWidth | null): string {
  if (!w || w.halfWidth === null) return ''
  return `the widest, ${w.other}/${w.baseline} ${w.metric}, ±${fmtWidth(w.halfWidth)} %`
}

type StopFacts = Pick<
  RoundsOutcome,
  'round' | 'kept' | 'max' | 'precision' | 'budgetMinutes' | 'worst' | 'repeated' | 'adaptive'
> & { reason: StopReason | null }

/** "9 rounds: stopped when every headline interval was within ±2 % (the widest, …)". */
export function stopWords(o: StopFacts): string {
  const n = plural(o.round, 'round')
  const reps = o.repeated > 0 ? ` (${o.repeated} repeated after a disturbance)` : ''
  const ofMax = o.adaptive ? ` of at most ${o.max}` : ` of ${o.max}`
  const goal = o.precision === null ? '' : `±${fmtGoal(o.precision)} %`
  const w = widest(o.worst)
  switch (o.reason) {
    case null:
      return `${n} so far${ofMax}${reps}`
    case 'fixed':
      return `${n}, as configured${reps}`
    case 'precise':
      return `${n}${reps}: stopped when every headline interval was within ${goal}${w ? ` (${w})` : ''}`
    case 'decided':
      return `${n}${reps}: stopped when every headline interval was within ${goal} or decided against ±${DEFAULT_MIN_EFFECT} %${w ? ` (${w})` : ''}`
    case 'max':
      return `${n}, the most allowed${reps}, without every interval within ${goal}${w ? ` (${w})` : ''}`
    case 'budget':
      return `${n}${ofMax}${reps}: the next round would have ended past the ${fmtGoal(o.budgetMinutes ?? 0)} min budget${w ? ` (${w}, goal ${goal})` : ''}`
    case 'stopped':
      return `${n}${ofMax}${reps}: the run ended before its rounds were done`
  }
}

/** The order in words: "randomized order (seed 1234)", "interleaved order", "sequential order". */
export function orderWords(o: Pick<RoundsOutcome, 'schedule' | 'seed'>): string {
  return o.schedule === 'randomized'
    ? `randomized order${o.seed === null ? '' : ` (seed ${o.seed})`}`
    : `${o.schedule} order`
}

/** One run's rounds as a comparison names them: "Run 12: 9 rounds: stopped when …; randomized order (seed 1234)." */
export function runRoundsWords(runId: number, o: RoundsOutcome): string {
  return `Run ${runId}: ${o.stop}; ${orderWords(o)}.`
}

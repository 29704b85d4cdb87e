// The stopping rule of rounds until precise (issue 27, item 2) on rounds the test sets: never
// before `min`; precise once every headline interval is within the goal; decided once each is
// beyond or inside ± minEffect; at `max`; before a round that would end past the budget; a fixed
// number of rounds ends at its number; the words say which. Its error rates over many runs drawn
// from real noise are stopping.long.test.ts's.
import { describe, expect, it } from 'vitest'
import type { StatsBlock } from '../api/types.ts'
import { headlineBlock } from '../testing/stats-block.ts'
import { pairInput } from '../testing/config.ts'
import { parseRunConfig } from '../config/load.ts'
import { roundsPlan } from '../config/rounds.ts'
import type { Round } from './compare-metric.ts'
import { stopWords } from './rounds-words.ts'
import { decideRounds, fmtGoal, halfWidthPercent, progressWords, SEQUENTIAL_LEVEL } from './stopping.ts'
import { tQuantile } from './compare-stats.ts'

const block = (p50: number, p99: number, throughput: number): StatsBlock =>
  headlineBlock(p50, p99, throughput, 100)

const planOf = (rounds: unknown) => roundsPlan(parseRunConfig(pairInput('stop', { rounds })))

/** `n` rounds: a steady, b at `ratio` with ± `wobble` alternating (all three headline metrics). */
function rounds(n: number, ratio: number, wobble: number): { target: string; rounds: Round[] }[] {
  const a: Round[] = []
  const b: Round[] = []
  for (let r = 1; r <= n; r++) {
    const w = 1 + (r % 2 ? wobble : -wobble)
    a.push({ ...block(4000, 8000, 1000), round: r })
    b.push({ ...block(4000 * ratio * w, 8000 * ratio * w, 1000 / (ratio * w)), round: r })
  }
  return [
    { target: 'a', rounds: a },
    { target: 'b', rounds: b },
  ]
}

const decide = (plan: ReturnType<typeof planOf>, n: number, ratio: number, wobble: number, elapsed = 0) =>
  decideRounds({
    plan,
    targets: rounds(n, ratio, wobble),
    minEffect: 5,
    round: n,
    elapsedSeconds: elapsed,
    nextRoundSeconds: 10,
  })

describe('the stopping rule', () => {
  it('never stops before min, then stops once every headline interval is within the goal', () => {
    const plan = planOf({ min: 4, max: 40, precision: 2 })
    // A/A within ±0.1 %: precise at once, but not before 4 rounds.
    expect(decide(plan, 3, 1, 0.001)).toMatchObject({ stop: false, reason: null })
    const d = decide(plan, 4, 1, 0.001)
    expect(d).toMatchObject({ stop: true, reason: 'precise', kept: 4 })
    expect(d.widths.map((w) => [w.metric, w.settled])).toEqual([
      ['p50', 'precise'],
      ['p99', 'precise'],
      ['throughput', 'precise'],
    ])
    // The half-width is the 99 % paired t-interval's, on the ratio: ±(exp(t × sd / √n) − 1).
    const sd = Math.sqrt(4 / 3) * Math.log(1.001) // four log-ratios alternating ±ln(1.001), nearly
    const expected = (Math.exp((tQuantile(1 - (1 - SEQUENTIAL_LEVEL) / 2, 3) * sd) / 2) - 1) * 100
    expect(d.widths[0]!.halfWidth!).toBeCloseTo(expected, 2)
  })

  it('stops when every interval is decided against ± minEffect, though wider than the goal', () => {
    const plan = planOf({ min: 3, max: 40, precision: 1 })
    // 1.5× ± 3 %: the 99 % interval is far beyond +5 % at 3 rounds, and ±5 % or so wide.
    const d = decide(plan, 3, 1.5, 0.03)
    expect(d).toMatchObject({ stop: true, reason: 'decided' })
    expect(d.widths.every((w) => w.settled === 'decided')).toBe(true)
    // The same spread around 1.03×: crossing +5 % and wider than ±1 %: not settled.
    expect(decide(plan, 3, 1.03, 0.03)).toMatchObject({ stop: false })
  })

  it('stops at max, and before a round that would end past the budget', () => {
    const plan = planOf({ min: 3, max: 6, precision: 0.01, budgetMinutes: 1 })
    expect(decide(plan, 5, 1.03, 0.03)).toMatchObject({ stop: false })
    expect(decide(plan, 6, 1.03, 0.03)).toMatchObject({ stop: true, reason: 'max' })
    // 50 s gone, the next round takes 10 s: it would end at 60 s, inside 1 min; at 51 s it would not.
    expect(decide(plan, 4, 1.03, 0.03, 50)).toMatchObject({ stop: false })
    expect(decide(plan, 4, 1.03, 0.03, 51)).toMatchObject({ stop: true, reason: 'budget' })
  })

  it('a fixed number of rounds ends at its number, whatever the intervals say', () => {
    const plan = planOf(5)
    expect(decide(plan, 4, 1, 0.001)).toMatchObject({ stop: false })
    expect(decide(plan, 5, 1.03, 0.3)).toMatchObject({ stop: true, reason: 'fixed' })
  })
})

describe('its words', () => {
  it('where it stands, live: the widest interval not yet settled against the goal', () => {
    const plan = planOf({ min: 3, max: 40, precision: 2 })
    const d = decide(plan, 7, 1.02, 0.03)
    expect(d.worst?.settled).toBeNull()
    expect(progressWords(plan, 7, d.worst, false)).toMatch(
      /^round 7 of at most 40: (p50|p99|throughput) ±\d+\.\d %, goal ±2 %$/,
    )
    expect(progressWords(plan, 7, d.worst, true)).toMatch(/^round 7 of at most 40: b\/a /)
    expect(progressWords(planOf(3), 2, null, false)).toBe('round 2 of 3')
  })

  it('how many ran and why they stopped', () => {
    const base = {
      round: 9,
      kept: 9,
      max: 40,
      precision: 2,
      budgetMinutes: 30,
      repeated: 0,
      adaptive: true,
      worst: {
        baseline: 'a',
        other: 'b',
        metric: 'p99' as const,
        halfWidth: 1.94,
        settled: 'precise' as const,
      },
    }
    expect(stopWords({ ...base, reason: 'precise' })).toBe(
      '9 rounds: stopped when every headline interval was within ±2 % (the widest, b/a p99, ±1.9 %)',
    )
    expect(stopWords({ ...base, reason: 'max', round: 40 })).toBe(
      '40 rounds, the most allowed, without every interval within ±2 % (the widest, b/a p99, ±1.9 %)',
    )
    expect(stopWords({ ...base, reason: 'budget', repeated: 2 })).toBe(
      '9 rounds of at most 40 (2 repeated after a disturbance): the next round would have ended past the 30 min budget (the widest, b/a p99, ±1.9 %, goal ±2 %)',
    )
    expect(stopWords({ ...base, reason: 'fixed', adaptive: false, precision: null, max: 9 })).toBe(
      '9 rounds, as configured',
    )
    expect(stopWords({ ...base, reason: 'stopped' })).toBe(
      '9 rounds of at most 40: the run ended before its rounds were done',
    )
    expect(stopWords({ ...base, reason: null })).toBe('9 rounds so far of at most 40')
  })

  it('formats widths and goals once', () => {
    // [0.9804×, 1.02×]: ln 1.02 − ln 0.9804 = 0.0396, half 0.0198: ±2.00 %.
    expect(halfWidthPercent([-0.0196, 0.02])).toBeCloseTo(2.0, 2)
    expect(fmtGoal(2)).toBe('2')
    expect(fmtGoal(2.5)).toBe('2.5')
    expect(fmtGoal(0.001)).toBe('0.001')
    expect(fmtGoal(10080)).toBe('10080')
  })
})

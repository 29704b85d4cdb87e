// The stopping rule of rounds until precise (engine/metrics/stopping.ts) simulated over many runs
// drawn from real per-round noise (engine/metrics/fixtures/aa-rounds*.json, recorded by
// bench/aa-rounds.ts): each simulated round is one recorded A/A round drawn at random (its p50, p99
// and throughput ratios together, so their correlation is kept), centred so the truth is exactly
// 1× (the same target under two names), times a known effect. After each round the rule decides;
// at its stop, the comparison the run reports (compareRuns, as `cannonade compare` shows it) is
// checked against the truth.
import { readFileSync } from 'node:fs'
import type { CompareVerdict, StatsBlock } from '../api/types.ts'
import { parseRunConfig } from '../config/load.ts'
import { roundsPlan } from '../config/rounds.ts'
import { compareRuns, type Round, type RunRounds } from '../metrics/compare.ts'
import { DEFAULT_MIN_EFFECT } from '../metrics/compare-metric.ts'
import { seededRandom } from '../metrics/random.ts'
import { decideRounds, HEADLINE_METRICS } from '../metrics/stopping.ts'
import { headlineBlock } from './stats-block.ts'
import { pairInput } from './config.ts'

type Metric = (typeof HEADLINE_METRICS)[number]
export type Values = Record<Metric, number>

export interface NoiseFixture {
  what: string
  recorded: string
  how: string
  cores: number
  loadAverageAtStart: number
  roundSeconds: number
  rounds: { round: number; a: Values; b: Values; disturbed: boolean }[]
}

export function readFixture(name: string): NoiseFixture {
  return JSON.parse(
    readFileSync(new URL(`../metrics/fixtures/${name}`, import.meta.url), 'utf8'),
  ) as NoiseFixture
}

/**
 * Each recorded round's log-ratios (second name / first), as recorded and with the names swapped:
 * the two names are one target run in a random order, so a round and its mirror are equally likely
 * and the truth is exactly 1× (no centring on a sample's mean, whose outliers need not balance).
 */
export function residuals(f: NoiseFixture): Values[] {
  const logs = f.rounds.map((r) => ({
    p50: Math.log(r.b.p50 / r.a.p50),
    p99: Math.log(r.b.p99 / r.a.p99),
    throughput: Math.log(r.b.throughput / r.a.throughput),
  }))
  return [...logs, ...logs.map((x) => ({ p50: -x.p50, p99: -x.p99, throughput: -x.throughput }))]
}

const block = (v: Values): StatsBlock => headlineBlock(v.p50, v.p99, v.throughput)

const BASE: Values = { p50: 4000, p99: 12_000, throughput: 1000 }

export interface SimOutcome {
  rounds: number
  reason: string
  verdicts: Record<Metric, CompareVerdict>
  /** Whether each metric's reported interval holds the true ratio. */
  covers: Record<Metric, boolean>
}

/**
 * One simulated run: rounds drawn with `rand` until the rule stops. `effect`: the true ratio of the
 * second target's latency to the first's (its throughput the inverse), 1 for A/A.
 */
export function simulateRun(
  noise: readonly Values[],
  rand: () => number,
  effect: number,
  rounds: Record<string, number | boolean> = {},
  roundSeconds = 30,
): SimOutcome {
  const config = parseRunConfig(pairInput('sim', { rounds }))
  const plan = roundsPlan(config)
  const truth: Values = { p50: effect, p99: effect, throughput: 1 / effect }
  const a: Round[] = []
  const b: Round[] = []
  let reason = ''
  for (let round = 1; ; round++) {
    const r = noise[Math.floor(rand() * noise.length)]!
    a.push({ ...block(BASE), round })
    b.push({
      ...block({
        p50: BASE.p50 * truth.p50 * Math.exp(r.p50),
        p99: BASE.p99 * truth.p99 * Math.exp(r.p99),
        throughput: BASE.throughput * truth.throughput * Math.exp(r.throughput),
      }),
      round,
    })
    const d = decideRounds({
      plan,
      targets: [
        { target: 'a', rounds: a },
        { target: 'b', rounds: b },
      ],
      minEffect: DEFAULT_MIN_EFFECT,
      round,
      elapsedSeconds: round * roundSeconds,
      nextRoundSeconds: roundSeconds,
    })
    if (d.stop) {
      reason = d.reason ?? ''
      break
    }
  }
  const run: RunRounds = {
    runId: 1,
    status: 'done',
    config,
    environment: null,
    generator: null,
    sweep: null,
    targets: [
      { target: 'a', rounds: a },
      { target: 'b', rounds: b },
    ],
  }
  const pair = compareRuns([run]).pairs[0]!
  const of = (m: Metric) => pair.metrics.find((x) => x.metric === m)!
  const verdicts = Object.fromEntries(
    HEADLINE_METRICS.map((m) => [m, of(m).verdict]),
  ) as SimOutcome['verdicts']
  const covers = Object.fromEntries(
    HEADLINE_METRICS.map((m) => {
      const ci = of(m).ci
      return [m, ci !== null && 1 + ci[0] <= truth[m] && truth[m] <= 1 + ci[1]]
    }),
  ) as SimOutcome['covers']
  return { rounds: a.length, reason, verdicts, covers }
}

export interface SimSummary {
  runs: number
  /** Share of runs with a faster/slower verdict on any headline metric. */
  anyDifference: number
  /** Per metric: share called higher/lower, share with the expected verdict, share covered. */
  called: Record<Metric, number>
  found: Record<Metric, number>
  coverage: Record<Metric, number>
  meanRounds: number
  reasons: Record<string, number>
}

/** `runs` simulated runs at one true effect (seeded: the same figures every time). */
export function simulate(
  noise: readonly Values[],
  runs: number,
  effect: number,
  seed: number,
  rounds: Record<string, number | boolean> = {},
  roundSeconds = 30,
): SimSummary {
  const rand = seededRandom(seed)
  const count = (): Record<Metric, number> => ({ p50: 0, p99: 0, throughput: 0 })
  const called = count()
  const found = count()
  const coverage = count()
  const reasons: Record<string, number> = {}
  let any = 0
  let total = 0
  const expected: Record<Metric, CompareVerdict> = {
    p50: effect > 1 ? 'higher' : 'lower',
    p99: effect > 1 ? 'higher' : 'lower',
    throughput: effect > 1 ? 'lower' : 'higher',
  }
  for (let i = 0; i < runs; i++) {
    const o = simulateRun(noise, rand, effect, rounds, roundSeconds)
    total += o.rounds
    reasons[o.reason] = (reasons[o.reason] ?? 0) + 1
    let differs = false
    for (const m of HEADLINE_METRICS) {
      const v = o.verdicts[m]
      if (v === 'higher' || v === 'lower') {
        called[m]++
        differs = true
      }
      if (v === expected[m]) found[m]++
      if (o.covers[m]) coverage[m]++
    }
    if (differs) any++
  }
  const share = (c: Record<Metric, number>) =>
    Object.fromEntries(HEADLINE_METRICS.map((m) => [m, c[m] / runs])) as Record<Metric, number>
  return {
    runs,
    anyDifference: any / runs,
    called: share(called),
    found: share(found),
    coverage: share(coverage),
    meanRounds: total / runs,
    reasons,
  }
}

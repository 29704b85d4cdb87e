// The (target, round) segments of a run in the order they run. A pure function of the config: the
// runner runs them in this order, and the store writes a round's run_targets rows, with each
// segment's place in the run, as the round starts.
import type { Plan } from './compile.ts'
import { seededRandom } from './random.ts'
import { isAdaptive, maxRounds, roundsPlan } from './rounds.ts'
import type { RunConfig } from './schema.ts'

export interface Segment {
  index: number
  targetIndex: number
  target: string
  round: number
}

type Scheduled = Pick<RunConfig, 'targets' | 'rounds' | 'schedule' | 'scheduleSeed'>

/** A 32-bit mix of the run's seed and a round number (murmur3's finalizer): one stream per round. */
function roundSeed(seed: number, round: number): number {
  let h = (seed ^ Math.imul(round, 0x9e3779b1)) >>> 0
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0
  return (h ^ (h >>> 16)) >>> 0
}

/**
 * The targets' order within one round, as indexes. Randomized: a Fisher–Yates shuffle drawn from
 * the run's seed and the round's number, so round r has the same order however many rounds run
 * before or after it (rounds until precise decide as they go), and the seed reproduces the run.
 */
export function roundOrder(config: Scheduled, round: number): number[] {
  const order = config.targets.map((_, i) => i)
  if (config.schedule !== 'randomized') return order
  const next = seededRandom(roundSeed(config.scheduleSeed ?? 0, round))
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1))
    ;[order[i], order[j]] = [order[j]!, order[i]!]
  }
  return order
}

/** The segments of one round, numbered from `first` (the segments the run made before it). */
export function roundSegments(config: Scheduled, round: number, first: number): Segment[] {
  return roundOrder(config, round).map((targetIndex, i) => ({
    index: first + i,
    targetIndex,
    target: config.targets[targetIndex]!.name,
    round,
  }))
}

/**
 * The order targets and rounds run in, up to the config's most rounds. Sequential: every round of
 * A, then every round of B. Interleaved: A, B, A, B… so slow drift of the machine (thermal, noisy
 * neighbours) falls on both. Randomized: round by round like interleaved, each round in its own
 * seeded random order, so neither target always runs first (after the cooldown) or last.
 */
export function orderSegments(config: Scheduled): Segment[] {
  const rounds = maxRounds(config)
  if (config.schedule === 'sequential') {
    const out: Segment[] = []
    for (let t = 0; t < config.targets.length; t++)
      for (let r = 1; r <= rounds; r++)
        out.push({ index: out.length, targetIndex: t, target: config.targets[t]!.name, round: r })
    return out
  }
  const out: Segment[] = []
  for (let r = 1; r <= rounds; r++) out.push(...roundSegments(config, r, out.length))
  return out
}

/** The segments a run starts with: all of a fixed number of rounds, the first of rounds until precise. */
export function firstSegments(config: Scheduled): Segment[] {
  return isAdaptive(config) ? roundSegments(config, 1, 0) : orderSegments(config)
}

/**
 * A randomized schedule's seed, drawn when a run starts without one (the config then stores it,
 * so the order can be read back and reproduced).
 */
export function seedSchedule<C extends Scheduled>(config: C, seed = Math.floor(Math.random() * 2 ** 32)): C {
  if (config.schedule !== 'randomized' || config.scheduleSeed !== undefined) return config
  return { ...config, scheduleSeed: seed }
}

/**
 * The whole run's length in seconds, cooldowns included; null when it is request-bound. Rounds
 * until precise: the longest it may take, at its most rounds or its budget, whichever is less.
 */
export function runSeconds(
  config: Pick<RunConfig, 'targets' | 'rounds' | 'cooldownSeconds'>,
  plan: Pick<Plan, 'seconds'>,
): number | null {
  if (plan.seconds === null) return null
  const n = config.targets.length * maxRounds(config)
  const all = n * plan.seconds + (n - 1) * config.cooldownSeconds
  const budget = roundsPlan(config).budgetMinutes
  return budget === null ? all : Math.min(all, budget * 60)
}

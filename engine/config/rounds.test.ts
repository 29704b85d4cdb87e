// Rounds and their order as a config states them (issue 27, items 1 and 2): a number still means
// exactly that many rounds; rounds until precise take { min, max, precision, budgetMinutes,
// skipDisturbed } and are refused where they cannot work, naming the field; new input with several
// targets and rounds defaults to a randomized schedule, a stored config without one stays
// sequential; each round's order is a seeded shuffle, the same for a seed whatever comes after it.
import { describe, expect, it } from 'vitest'
import { ConfigError } from './errors.ts'
import { parseRunConfig, parseStoredConfig } from './load.ts'
import { maxRounds, roundsPlan } from './rounds.ts'
import { firstSegments, orderSegments, roundOrder, runSeconds, seedSchedule } from './segments.ts'

const targets = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ name: `t${i}`, url: `http://127.0.0.1:${8080 + i}/` }))

const config = (extra: Record<string, unknown> = {}, n = 2) => ({
  version: 1,
  name: 'rounds',
  targets: targets(n),
  load: { connections: 2, duration: 10 },
  ...extra,
})

function issues(raw: unknown): { field: string; message: string }[] {
  try {
    parseRunConfig(raw)
  } catch (err) {
    if (err instanceof ConfigError) return [...err.issues]
    throw err
  }
  throw new Error('the config was valid')
}

describe('rounds as a config states them', () => {
  it('a number still means exactly that many rounds', () => {
    const c = parseRunConfig(config({ rounds: 7 }))
    expect(roundsPlan(c)).toEqual({
      adaptive: false,
      min: 7,
      max: 7,
      precision: null,
      budgetMinutes: null,
      skipDisturbed: false,
    })
    expect(orderSegments(c)).toHaveLength(14)
    expect(firstSegments(c)).toHaveLength(14)
    expect(new Set(orderSegments(c).map((s) => s.round))).toEqual(new Set([1, 2, 3, 4, 5, 6, 7]))
  })

  it('rounds until precise: the defaults, and only the first round planned up front', () => {
    const c = parseRunConfig(config({ rounds: {} }))
    expect(c.rounds).toEqual({ min: 3, max: 40, precision: 2, budgetMinutes: 30, skipDisturbed: false })
    expect(roundsPlan(c)).toMatchObject({ adaptive: true, min: 3, max: 40, precision: 2, budgetMinutes: 30 })
    expect(maxRounds(c)).toBe(40)
    expect(firstSegments(c).map((s) => [s.round, s.index])).toEqual([
      [1, 0],
      [1, 1],
    ])
    // The longest it may take: 40 rounds × 2 targets × 10 s + 79 cooldowns of 5 s, or the budget.
    expect(runSeconds(c, { seconds: 10 })).toBe(800 + 79 * 5)
    expect(runSeconds(parseRunConfig(config({ rounds: { budgetMinutes: 5 } })), { seconds: 10 })).toBe(300)
    const short = parseRunConfig(config({ rounds: { max: 4 }, cooldownSeconds: 0 }))
    expect(runSeconds(short, { seconds: 10 })).toBe(80)
  })

  it('refuses what rounds until precise cannot do, naming the field', () => {
    expect(issues(config({ rounds: { min: 5, max: 4 } }))).toContainEqual({
      field: 'rounds.max',
      message: 'must not be below min',
    })
    expect(issues(config({ rounds: {} }, 1))).toContainEqual({
      field: 'rounds',
      message:
        'rounds until precise compare targets: give two or more targets (the same URL twice to calibrate), or a number of rounds',
    })
    expect(issues(config({ rounds: {}, schedule: 'sequential' }))).toContainEqual({
      field: 'schedule',
      message:
        "rounds until precise decide after each round: schedule must be 'randomized' or 'interleaved', not 'sequential'",
    })
    expect(issues(config({ rounds: {}, agents: { count: 2 } }))).toContainEqual({
      field: 'rounds',
      message:
        'rounds until precise need one load generator: load agents run a plan fixed before they start, so give rounds a number with agents',
    })
    expect(issues(config({ rounds: { budgetMinutes: 0 } }))).toContainEqual({
      field: 'rounds.budgetMinutes',
      message: 'must be above 0',
    })
    expect(issues(config({ rounds: 2.5 }))).toContainEqual({
      field: 'rounds',
      message: 'must be a whole number',
    })
  })
})

describe('the schedule: new input against stored runs', () => {
  it('new input with several targets and rounds is randomized unless it says otherwise', () => {
    expect(parseRunConfig(config({ rounds: 3 })).schedule).toBe('randomized')
    expect(parseRunConfig(config({ rounds: { max: 5 } })).schedule).toBe('randomized')
    expect(parseRunConfig(config({ rounds: 3, schedule: 'interleaved' })).schedule).toBe('interleaved')
    expect(parseRunConfig(config({ rounds: 3, schedule: 'sequential' })).schedule).toBe('sequential')
    // Nothing to mix: one round, or one target.
    expect(parseRunConfig(config({ rounds: 1 })).schedule).toBe('sequential')
    expect(parseRunConfig(config({ rounds: 3 }, 1)).schedule).toBe('sequential')
  })

  it('a stored config without a schedule ran sequentially, and reads so', () => {
    const stored = parseStoredConfig(config({ rounds: 3 }))
    expect(stored.schedule).toBe('sequential')
    expect(orderSegments(stored).map((s) => `${s.target}#${s.round}`)).toEqual([
      't0#1',
      't0#2',
      't0#3',
      't1#1',
      't1#2',
      't1#3',
    ])
  })

  it('interleaved keeps config order in every round', () => {
    const c = parseRunConfig(config({ rounds: 3, schedule: 'interleaved' }, 3))
    for (let r = 1; r <= 3; r++) expect(roundOrder(c, r)).toEqual([0, 1, 2])
  })
})

describe('a randomized schedule', () => {
  const c = parseRunConfig(config({ rounds: 40, scheduleSeed: 12345 }, 3))

  it('gives each round a permutation of the targets, the same for the same seed and round', () => {
    for (let r = 1; r <= 40; r++) {
      const order = roundOrder(c, r)
      expect([...order].sort()).toEqual([0, 1, 2])
      expect(roundOrder({ ...c }, r)).toEqual(order)
    }
    // A round's order does not depend on how many rounds the run makes (rounds until precise).
    const adaptive = parseRunConfig(config({ rounds: { max: 40 }, scheduleSeed: 12345 }, 3))
    for (let r = 1; r <= 40; r++) expect(roundOrder(adaptive, r)).toEqual(roundOrder(c, r))
    expect(orderSegments(c).map((s) => s.targetIndex)).toEqual(
      Array.from({ length: 40 }, (_, i) => roundOrder(c, i + 1)).flat(),
    )
    // Another seed, another sequence of orders.
    const other = { ...c, scheduleSeed: 54321 }
    const orders = (x: typeof c) =>
      Array.from({ length: 40 }, (_, i) => roundOrder(x, i + 1).join()).join('|')
    expect(orders(other)).not.toBe(orders(c))
  })

  it('puts every target in every place about equally often (3,000 rounds)', () => {
    const n = 3000
    const counts = [0, 1, 2].map(() => [0, 0, 0])
    for (let r = 1; r <= n; r++) roundOrder(c, r).forEach((t, place) => counts[t]![place]!++)
    // Each count is binomial(3000, 1/3): mean 1000, sd 25.8; ±5 sd is 871–1129.
    for (const k of counts.flat()) {
      expect(k).toBeGreaterThan(871)
      expect(k).toBeLessThan(1129)
    }
  })

  it('is seeded when a run starts without a seed, and keeps a given one', () => {
    const unseeded = parseRunConfig(config({ rounds: 3 }))
    expect(unseeded.scheduleSeed).toBeUndefined()
    const seeded = seedSchedule(unseeded, 99)
    expect(seeded.scheduleSeed).toBe(99)
    expect(seedSchedule(seeded, 5).scheduleSeed).toBe(99)
    const fixed = parseRunConfig(config({ rounds: 3, schedule: 'interleaved' }))
    expect(seedSchedule(fixed, 5).scheduleSeed).toBeUndefined()
    expect(issues(config({ rounds: 3, scheduleSeed: -1 }))).toContainEqual({
      field: 'scheduleSeed',
      message: 'must not be negative',
    })
  })
})

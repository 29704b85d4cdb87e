// How many rounds a run makes: a number (exactly that many), or rounds until the answer is clear
// (`{ min, max, precision, budgetMinutes, skipDisturbed }`): after each round the run computes every
// compared pair's headline intervals and stops once they are precise enough, at `max` rounds or
// when the next round would not fit the budget (engine/metrics/stopping.ts says how, and why the
// rule keeps its error rate when it stops early). The schedule a run's targets take within a round
// is segments.ts's.
import { z } from 'zod'

/** What `rounds: {}` means: at least 3 (an interval needs them), at most 40, ±2 %, half an hour. */
export const ROUNDS_DEFAULTS = { min: 3, max: 40, precision: 2, budgetMinutes: 30 } as const

export const MAX_ROUNDS = 1000

export const AdaptiveRoundsSchema = z
  .object({
    min: z
      .number()
      .int('must be a whole number')
      .min(3, 'must be at least 3: an interval needs 3 rounds')
      .max(MAX_ROUNDS)
      .default(ROUNDS_DEFAULTS.min),
    max: z.number().int('must be a whole number').min(3).max(MAX_ROUNDS).default(ROUNDS_DEFAULTS.max),
    /** ± % : the largest half-width a headline ratio's 95 % interval may have for the run to stop. */
    precision: z
      .number()
      .gt(0, 'must be a percentage above 0')
      .max(100, 'must be at most 100 (%)')
      .default(ROUNDS_DEFAULTS.precision),
    /** No round starts that would end past this many minutes after the run's start. */
    budgetMinutes: z
      .number()
      .gt(0, 'must be above 0')
      .max(7 * 24 * 60, 'must be at most 10080 (a week)')
      .default(ROUNDS_DEFAULTS.budgetMinutes),
    /** A disturbed round (engine/metrics/noise.ts) is kept and shown, and repeated: it leaves the figures. */
    skipDisturbed: z.boolean().default(false),
  })
  .strict()
  .refine((r) => r.max >= r.min, { message: 'must not be below min', path: ['max'] })

export const RoundsSchema = z
  .union(
    [
      // A refinement, not .int(): zod reports .int() as a type mismatch, which the union would
      // turn into its own message instead of this one.
      z
        .number()
        .min(1, 'must be at least 1')
        .max(MAX_ROUNDS)
        .refine(Number.isInteger, 'must be a whole number'),
      AdaptiveRoundsSchema,
    ],
    { error: 'must be a number of rounds, or { min, max, precision, budgetMinutes } to stop when precise' },
  )
  .default(1)

export type AdaptiveRounds = z.output<typeof AdaptiveRoundsSchema>
export type RoundsSetting = z.output<typeof RoundsSchema>

/** A config's rounds, read one way whichever form it has. */
export interface RoundsPlan {
  /** Rounds until precise (an object); false: exactly `max` rounds. */
  adaptive: boolean
  min: number
  max: number
  /** ± %, null for a fixed number. */
  precision: number | null
  budgetMinutes: number | null
  skipDisturbed: boolean
}

export function roundsPlan(config: { rounds: RoundsSetting }): RoundsPlan {
  const r = config.rounds
  if (typeof r === 'number')
    return { adaptive: false, min: r, max: r, precision: null, budgetMinutes: null, skipDisturbed: false }
  return { adaptive: true, ...r }
}

/** The most rounds a config can make: its number, or its `max`. */
export function maxRounds(config: { rounds: RoundsSetting }): number {
  return typeof config.rounds === 'number' ? config.rounds : config.rounds.max
}

export function isAdaptive(config: { rounds: RoundsSetting }): boolean {
  return typeof config.rounds !== 'number'
}

// The load's shape over time: one schema per profile kind (constant, ramp, burst, phases, stages).
// A new kind starts here (CONTRIBUTING.md, "Adding a load-profile kind").
import { z } from 'zod'
import { connectionCount, idleSeconds, positiveSeconds, requestCount } from './schema-fields.ts'

const ConstantProfile = z.object({ kind: z.literal('constant') }).strict()

const RampProfile = z
  .object({
    kind: z.literal('ramp'),
    from: z.number().int().min(0).optional(),
    to: z.number().int().positive().optional(),
    /** Linear ramp length; a stepped ramp (stepSize/stepSeconds) takes as long as its steps need. */
    rampSeconds: positiveSeconds.optional(),
    holdSeconds: idleSeconds.default(0),
    /** Stepped ramp: add stepSize connections every stepSeconds, idle pauseSeconds between steps. */
    stepSize: z.number().int().positive().optional(),
    stepSeconds: positiveSeconds.optional(),
    pauseSeconds: idleSeconds.default(0),
  })
  .strict()

const BurstProfile = z
  .object({
    kind: z.literal('burst'),
    burstSeconds: positiveSeconds,
    idleSeconds: idleSeconds,
    connections: connectionCount.optional(),
  })
  .strict()

const Phase = z
  .object({
    name: z.string().min(1).max(40),
    share: z.number().gt(0, 'must be between 0 and 1 (exclusive of 0)').max(1, 'must be between 0 and 1'),
    duration: positiveSeconds.optional(),
    requests: requestCount.optional(),
    /** Recorded and shown, but left out of the summary, the thresholds and comparisons. */
    warmup: z.boolean().default(false),
  })
  .strict()
  .superRefine((p, ctx) => {
    if ((p.duration === undefined) === (p.requests === undefined)) {
      ctx.addIssue({ code: 'custom', message: 'give either duration or requests', path: ['duration'] })
    }
  })

const PhasesProfile = z.object({ kind: z.literal('phases'), phases: z.array(Phase).min(1).max(50) }).strict()

const Stage = z.object({ duration: positiveSeconds, connections: z.number().int().min(0) }).strict()
const StagesProfile = z.object({ kind: z.literal('stages'), stages: z.array(Stage).min(1).max(500) }).strict()

const PROFILES = [ConstantProfile, RampProfile, BurstProfile, PhasesProfile, StagesProfile] as const
export const ProfileSchema = z.discriminatedUnion('kind', PROFILES, {
  error: `must be one of ${PROFILES.map((p) => p.shape.kind.value).join(', ')}`,
})

export type Profile = z.output<typeof ProfileSchema>

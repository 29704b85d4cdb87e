// A RunConfig's shape, and the checks between its parts that need nothing but the config itself.
// The types every module uses are read off it here; schema.ts adds what new input must also pass
// (the wire's rules, the agents' split), so the modules those checks live in can use these types
// without importing the schema that calls them.
import { z } from 'zod'
import type { MonitorSpec } from './schema-monitor.ts'
import { LIMITS } from './limits.ts'
import { headerName } from './schema-fields.ts'
import { TargetSchema } from './schema-target.ts'
import { LoadSchema } from './schema-load.ts'
import type { Profile } from './schema-profile.ts'
import { AgentsSchema, SweepSchema, ThresholdSchema } from './schema-sweep.ts'
import { RoundsSchema } from './rounds.ts'

/** The orders a run's targets and rounds may run in (engine/config/segments.ts). */
export const SCHEDULES = ['sequential', 'interleaved', 'randomized'] as const

/** The header each request carries its correlation id in, unless a config names another. */
export const DEFAULT_CORRELATION_HEADER = 'x-correlation-id'

/**
 * A config as runs already stored may hold it: what earlier releases accepted. History reads
 * stored configs with it (engine/store/history-rows.ts), so a rule added to what may be sent never makes
 * a kept run unreadable. New input is checked with RunConfigV1Schema below.
 */
export const StoredRunConfigSchema = z
  .object({
    version: z.literal(1),
    name: z.string().min(1, 'must not be empty').max(LIMITS.nameLength),
    targets: z.array(TargetSchema).min(1, 'needs at least one target').max(32),
    load: LoadSchema,
    // Stored runs keep the order they ran in: a config stored without a schedule ran sequentially.
    // New input defaults to randomized when it has targets and rounds to mix (schema.ts).
    schedule: z.enum(SCHEDULES).default('sequential'),
    /**
     * Seeds a randomized schedule's order (segments.ts): set when the run starts if absent, and
     * stored with it, so the order it ran in can be read again and reproduced.
     */
    scheduleSeed: z
      .number()
      .int('must be a whole number')
      .min(0, 'must not be negative')
      .max(2 ** 32 - 1)
      .optional(),
    rounds: RoundsSchema,
    cooldownSeconds: z.number().min(0).max(3600).default(5),
    correlationHeader: headerName.default(DEFAULT_CORRELATION_HEADER),
    thresholds: z.array(ThresholdSchema).default([]),
    tags: z.array(z.string().min(1, 'must not be empty').max(LIMITS.tagLength)).default([]),
    agents: AgentsSchema.optional(),
    /**
     * A study: one run per value of a config path (load.connections, targets.0.stack.env.POOL_SIZE,
     * targets.0.stack.name…), or per pair of values of two paths (`by`); engine/config/sweep.ts.
     */
    sweep: SweepSchema.optional(),
  })
  .strict()
  .superRefine((cfg, ctx) => {
    const seen = new Set<string>()
    cfg.targets.forEach((t, i) => {
      if (seen.has(t.name))
        ctx.addIssue({ code: 'custom', path: ['targets', i, 'name'], message: `"${t.name}" is used twice` })
      seen.add(t.name)
    })
    cfg.targets.forEach((t, i) => {
      if (t.steps && cfg.load.pipelining > 1) {
        ctx.addIssue({
          code: 'custom',
          path: ['targets', i, 'steps'],
          message: 'a scenario needs load.pipelining 1',
        })
      }
      if (cfg.load.rate !== null && (t.think !== undefined || t.steps?.some((s) => s.think !== undefined)))
        ctx.addIssue({
          code: 'custom',
          path: ['targets', i, t.think !== undefined ? 'think' : 'steps'],
          message:
            'think time needs a closed loop (load.rate: null): with a rate, the schedule decides when each request leaves',
        })
      if (t.protocol !== 'http1' && cfg.load.pipelining > 1)
        ctx.addIssue({
          code: 'custom',
          path: ['load', 'pipelining'],
          message: `pipelining is HTTP/1.1's: target ${i} speaks ${t.protocol}, whose concurrency is its streams`,
        })
      if (t.think !== undefined && cfg.load.pipelining > 1)
        ctx.addIssue({
          code: 'custom',
          path: ['targets', i, 'think'],
          message: 'think time needs load.pipelining 1 (one request at a time per connection)',
        })
      const firstLoop = t.steps?.findIndex((s) => !s.once) ?? 0
      if (t.steps && firstLoop < 0)
        ctx.addIssue({
          code: 'custom',
          path: ['targets', i, 'steps'],
          message: 'every step is once: at least one step must repeat',
        })
      t.steps?.forEach((s, j) => {
        if (s.once && j > firstLoop)
          ctx.addIssue({
            code: 'custom',
            path: ['targets', i, 'steps', j, 'once'],
            message: 'once-steps come first, before the steps that repeat',
          })
      })
      const names = new Set<string>()
      t.steps?.forEach((s, j) => {
        if (names.has(s.name))
          ctx.addIssue({
            code: 'custom',
            path: ['targets', i, 'steps', j, 'name'],
            message: `"${s.name}" is used twice`,
          })
        names.add(s.name)
      })
    })
    cfg.thresholds.forEach((t, i) => {
      if (t.target !== '*' && !seen.has(t.target)) {
        ctx.addIssue({
          code: 'custom',
          path: ['thresholds', i, 'target'],
          message: `no target named "${t.target}"`,
        })
      }
    })
  })

/** A config as the engine runs it (RunConfigV1Schema in schema.ts checks more, and gives this same shape). */
export type RunConfig = z.output<typeof StoredRunConfigSchema>
export type StoredRunConfig = RunConfig
export type RunConfigInput = z.input<typeof StoredRunConfigSchema>
export type Target = RunConfig['targets'][number]
/** The load shapes; the wizard keeps a label and an editor per kind (renderer/src/views/wizard/). */
export type ProfileKind = Profile['kind']
export type Threshold = RunConfig['thresholds'][number]
export type Step = NonNullable<Target['steps']>[number]
export type Sweep = NonNullable<RunConfig['sweep']>

/** A target's monitors as a list, whether it names one or several. */
export function monitorsOf(target: Pick<Target, 'monitor'>): MonitorSpec[] {
  const m = target.monitor
  return m === undefined ? [] : Array.isArray(m) ? m : [m]
}
export type AgentsConfig = NonNullable<RunConfig['agents']>

// RunConfig v1: what the wizard builds and the CLI reads (examples in README.md and
// resources/templates/). The schema is the single source of validation: the CLI, the HTTP
// transport, the IPC handlers and the renderer's inline form errors all parse with it, so one
// message names one field.
// The parts live in sibling modules (schema-fields.ts, schema-target.ts, schema-profile.ts,
// schema-load.ts, schema-sweep.ts, schema-monitor.ts), assembled with the checks between them in
// schema-stored.ts; this file adds what new input must pass and re-exports them all, so importers
// need only this one.
import { inputIssues } from './wire.ts'
import { splitProblem } from './split.ts'
import { z } from 'zod'
import { StoredRunConfigSchema } from './schema-stored.ts'
import { LIMITS } from './limits.ts'
import { isAdaptive } from './rounds.ts'

export {
  TargetUrlSchema,
  MAX_BODY_BYTES,
  GeneratedBodySchema,
  ThinkSchema,
  StepSchema,
  TargetSchema,
  PROTOCOLS,
  MAX_STREAMS,
  type Protocol,
  type Think,
} from './schema-target.ts'
export { ProfileSchema, type Profile } from './schema-profile.ts'
export { type Load } from './schema-load.ts'
export {
  AGENT_LAUNCHERS,
  LATENCY_THRESHOLD_METRICS,
  THRESHOLD_METRICS,
  STACK_ENV_PATH,
  SweepValueSchema,
  SweepSchema,
  SLO_METRICS,
  sloOf,
  isLatencyMetric,
  type SweepValue,
  type SloMetric,
  type ThresholdMetric,
  type AgentLauncher,
} from './schema-sweep.ts'

export {
  AdaptiveRoundsSchema,
  ROUNDS_DEFAULTS,
  RoundsSchema,
  isAdaptive,
  maxRounds,
  roundsPlan,
  type AdaptiveRounds,
  type RoundsPlan,
  type RoundsSetting,
} from './rounds.ts'

export {
  DEFAULT_CORRELATION_HEADER,
  SCHEDULES,
  StoredRunConfigSchema,
  monitorsOf,
  type RunConfig,
  type StoredRunConfig,
  type RunConfigInput,
  type Target,
  type ProfileKind,
  type Threshold,
  type Step,
  type Sweep,
  type AgentsConfig,
} from './schema-stored.ts'

/**
 * New input without a `schedule`: randomized when it has two or more targets and more than one
 * round (rounds until precise included), so neither target always runs first; otherwise (nothing
 * to mix) sequential, as before. Stored runs keep the order they ran in (schema-stored.ts).
 */
export function withScheduleDefault(raw: unknown): unknown {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return raw
  const doc = raw as Record<string, unknown>
  if (doc.schedule !== undefined) return raw
  const targets = Array.isArray(doc.targets) ? doc.targets.length : 0
  const rounds = doc.rounds
  const several = typeof rounds === 'number' ? rounds > 1 : typeof rounds === 'object' && rounds !== null
  return targets > 1 && several ? { ...doc, schedule: 'randomized' } : raw
}

/** Rounds until precise: what they need from the rest of the config, as issues. */
function adaptiveIssues(
  cfg: z.output<typeof StoredRunConfigSchema>,
): { path: (string | number)[]; message: string }[] {
  if (!isAdaptive(cfg)) return []
  const out: { path: (string | number)[]; message: string }[] = []
  if (cfg.targets.length < 2)
    out.push({
      path: ['rounds'],
      message:
        'rounds until precise compare targets: give two or more targets (the same URL twice to calibrate), or a number of rounds',
    })
  if (cfg.schedule === 'sequential')
    out.push({
      path: ['schedule'],
      message:
        "rounds until precise decide after each round: schedule must be 'randomized' or 'interleaved', not 'sequential'",
    })
  if (cfg.agents)
    out.push({
      path: ['rounds'],
      message:
        'rounds until precise need one load generator: load agents run a plan fixed before they start, so give rounds a number with agents',
    })
  return out
}

/**
 * RunConfig v1 as the CLI, the API and the wizard accept it: the stored shape plus what may go on
 * the wire (header names and values, paths, bodies, variables: wire.ts) and a load that splits
 * over its agents (split.ts), with new input's default schedule (withScheduleDefault).
 */
export const RunConfigV1Schema = z.preprocess(
  withScheduleDefault,
  StoredRunConfigSchema.superRefine((cfg, ctx) => {
    for (const issue of inputIssues(cfg)) ctx.addIssue({ code: 'custom', ...issue })
    for (const issue of adaptiveIssues(cfg)) ctx.addIssue({ code: 'custom', ...issue })
    if (cfg.tags.length > LIMITS.tags)
      ctx.addIssue({
        code: 'custom',
        path: ['tags'],
        message: `at most ${LIMITS.tags} tags (got ${cfg.tags.length})`,
      })
    if (cfg.agents) {
      const problem = splitProblem(cfg.load, cfg.agents.count)
      if (problem) ctx.addIssue({ code: 'custom', path: ['agents', 'count'], message: problem })
      // Each agent's runner sees its own share's seconds only: one cut for the merged run would need
      // the merged seconds, which no runner has while the segment's requests are still relabelled.
      if (cfg.load.warmup === 'auto')
        ctx.addIssue({
          code: 'custom',
          path: ['load', 'warmup'],
          message:
            'auto is not available with load agents (each sees only its share): give load.warmupSeconds',
        })
    }
  }),
)

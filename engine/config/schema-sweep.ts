// The run-level settings beside targets and load: load agents (scale-out), thresholds, and a
// study's sweep (one or two settings and their values).
import { z } from 'zod'

/**
 * Where a run's load agents run (engine/agents/): launchers by name. `external`: agents a person
 * starts wherever they like; the run prints what each runs and waits for them at the barrier.
 */
export const AGENT_LAUNCHERS = ['local', 'docker', 'swarm', 'kubernetes', 'external'] as const

/**
 * Scale-out: the load comes from `count` agents, one merged run (engine/agents/README.md). The
 * agent count is a number like any other, so a sweep may vary it (`sweep.path: agents.count`).
 */
export const AgentsSchema = z
  .object({
    count: z.number().int('must be a whole number').min(1, 'must be at least 1').max(1000),
    on: z.enum(AGENT_LAUNCHERS, { error: `must be one of ${AGENT_LAUNCHERS.join(', ')}` }).default('local'),
    /**
     * After the load, bring every agent's raw per-request ledger into this run ('upload') or leave
     * it with the agent ('keep'). Default: upload, as a container's or a pod's ledger goes with it
     * and local agents' requests belong in the run's file; keep for external agents, whose ledgers
     * stay on their machines (`cannonade import ledger` brings one in).
     */
    raw: z.enum(['keep', 'upload']).optional(),
    /**
     * How long every agent has to reach the first barrier before the run fails, naming who is
     * missing. Default 60 s; 600 s for external agents, which people start.
     */
    barrierTimeoutSeconds: z.number().positive().max(3600).optional(),
    /** No heartbeat for this long and an agent is lost: the run becomes partial. */
    lostAfterSeconds: z.number().min(2).max(600).default(10),
  })
  .strict()
  .transform(({ raw, barrierTimeoutSeconds, ...a }) => ({
    ...a,
    raw: raw ?? (a.on === 'external' ? 'keep' : 'upload'),
    barrierTimeoutSeconds: barrierTimeoutSeconds ?? (a.on === 'external' ? 600 : 60),
  }))

/** Threshold metrics that are latencies: microseconds in a config, shown in milliseconds. */
export const LATENCY_THRESHOLD_METRICS = ['mean', 'p50', 'p90', 'p95', 'p99', 'p99.9', 'max'] as const
export const THRESHOLD_METRICS = [...LATENCY_THRESHOLD_METRICS, 'throughput', 'errorRate'] as const

export const ThresholdSchema = z
  .object({
    metric: z.enum(THRESHOLD_METRICS),
    target: z.string().default('*'),
    /** Latencies in microseconds, throughput in requests/s, errorRate as a fraction 0..1. */
    max: z.number().optional(),
    min: z.number().optional(),
  })
  .strict()
  .refine((t) => t.max !== undefined || t.min !== undefined, { message: 'give max or min', path: ['max'] })

export type ThresholdMetric = (typeof THRESHOLD_METRICS)[number]
export type AgentLauncher = (typeof AGENT_LAUNCHERS)[number]

export function isLatencyMetric(metric: string): boolean {
  return (LATENCY_THRESHOLD_METRICS as readonly string[]).includes(metric)
}

/** A sweep path into a target's stack environment: the stack is restarted with each value. */
export const STACK_ENV_PATH = /^targets\.(\d+)\.stack\.env\.([A-Za-z_][A-Za-z0-9_]*)$/

/**
 * One value of a sweep: a number, a word (a stack name, a body kind, an env setting), a boolean,
 * or, for the path `targets`, a list of target names (the target set of one run).
 */
export const SweepValueSchema = z.union(
  [
    z.number(),
    z.string().min(1, 'must not be empty').max(200),
    z.boolean(),
    z.array(z.string().min(1)).min(1, 'a target set needs at least one target').max(32),
  ],
  { error: 'must be a number, a word, true/false, or a list of target names' },
)
export type SweepValue = z.output<typeof SweepValueSchema>

const sweepAxisShape = {
  /**
   * A dotted path into the config (`load.connections`, `targets.0.body.kind`), `*` for every
   * target (`targets.*.query.iterations`: a query parameter of each target's URL), or `targets`
   * (values are sets of target names).
   */
  path: z
    .string()
    .regex(/^[A-Za-z0-9_.*]+$/, 'must be a dotted path such as load.connections')
    .refine(
      (p) => !p.split('.').some((k) => k === '__proto__' || k === 'constructor' || k === 'prototype'),
      'must name a field of the config',
    ),
  values: z.array(SweepValueSchema).min(1).max(100),
}

/** The values of one axis: of one kind, none repeated. */
function axisIssues(values: readonly SweepValue[], at: (string | number)[], ctx: z.RefinementCtx): void {
  const kind = (v: SweepValue) => (Array.isArray(v) ? 'list' : typeof v)
  const first = values[0]
  values.forEach((v, i) => {
    if (first !== undefined && kind(v) !== kind(first))
      ctx.addIssue({
        code: 'custom',
        path: [...at, 'values', i],
        message: `is a ${kind(v)} where the first value is a ${kind(first)}: give values of one kind`,
      })
    const same = values.findIndex((w) => JSON.stringify(w) === JSON.stringify(v))
    if (same !== i)
      ctx.addIssue({ code: 'custom', path: [...at, 'values', i], message: `repeats value ${same + 1}` })
  })
}

/** The percentiles a latency target (`sweep.slo`) may name, and their LatencyStats keys. */
export const SLO_METRICS = { p50: 'p50', p90: 'p90', p95: 'p95', p99: 'p99', 'p99.9': 'p999' } as const
export type SloMetric = keyof typeof SLO_METRICS

const sloMs = z
  .number()
  .positive('must be greater than 0 (ms)')
  .max(3_600_000, 'must be at most an hour (3600000 ms)')
  .optional()

/** A latency target, in ms, on one percentile: `{ p99: 50 }`. */
export const SloSchema = z
  .object({ p50: sloMs, p90: sloMs, p95: sloMs, p99: sloMs, 'p99.9': sloMs })
  .strict()
  .superRefine((slo, ctx) => {
    const named = Object.entries(slo).filter(([, v]) => v !== undefined)
    if (named.length !== 1)
      ctx.addIssue({
        code: 'custom',
        path: [],
        message: `name one percentile and its target in ms, e.g. { p99: 50 } (got ${named.length})`,
      })
  })

/** The one percentile and target (ms) a parsed slo names. */
export function sloOf(slo: z.output<typeof SloSchema>): { metric: SloMetric; ms: number } {
  const [metric, ms] = Object.entries(slo).find(([, v]) => v !== undefined) as [SloMetric, number]
  return { metric, ms }
}

const SweepAxisSchema = z
  .object(sweepAxisShape)
  .strict()
  .superRefine((axis, ctx) => axisIssues(axis.values, [], ctx))

export const SweepSchema = z
  .object({
    ...sweepAxisShape,
    /** A second setting: the study runs every pair of values (a grid), one line per value of `by`. */
    by: SweepAxisSchema.optional(),
    /**
     * Seconds of warm-up load before each run whose stack was (re)started for its value (default 10),
     * recorded as the run's warm-up phase. 0 measures a cold stack.
     */
    warmupSeconds: z.number().min(0).max(3600).optional(),
    /**
     * A latency target, `{ p99: 50 }` (ms): the study reports per target the highest throughput
     * whose percentile stays under it (engine/study/capacity.ts), beside the knee.
     */
    slo: SloSchema.optional(),
  })
  .strict()
  .superRefine((sweep, ctx) => {
    axisIssues(sweep.values, [], ctx)
    if (sweep.slo && !sweep.values.every((v) => typeof v === 'number'))
      ctx.addIssue({
        code: 'custom',
        path: ['slo'],
        message:
          'needs a sweep over numbers (connections, a rate…): the highest throughput under the target is read along them',
      })
    if (sweep.by && sweep.by.path === sweep.path)
      ctx.addIssue({ code: 'custom', path: ['by', 'path'], message: 'must differ from sweep.path' })
    const runs = sweep.values.length * (sweep.by?.values.length ?? 1)
    if (runs > 100)
      ctx.addIssue({
        code: 'custom',
        path: ['by', 'values'],
        message: `makes ${runs} runs (${sweep.values.length} × ${sweep.by?.values.length}); at most 100`,
      })
  })

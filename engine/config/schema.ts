// RunConfig v1: what the wizard builds and the CLI reads (examples in README.md and
// resources/templates/). The schema is the single source of validation: the CLI, the HTTP
// transport, the IPC handlers and the renderer's inline form errors all parse with it, so one
// message names one field.
import { z } from 'zod'
import { MAX_REPLICAS } from '../api/schemas.ts'
import { MonitorSpecSchema, type MonitorSpec } from '../monitor/schema.ts'
import { LIMITS, planIssues } from './limits.ts'
import { inputIssues } from './wire.ts'
import { splitProblem } from '../agents/split.ts'

const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const
// RFC 9110 token: what may stand in a header name.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/

const headerName = z.string().regex(HEADER_NAME, 'must be a valid HTTP header name')
const positiveSeconds = z
  .number()
  .positive('must be greater than 0')
  .min(LIMITS.minStepSeconds, `must be at least ${LIMITS.minStepSeconds} (a millisecond)`)
  .max(LIMITS.scheduleSeconds, `must be at most ${LIMITS.scheduleSeconds} (a week)`)
/** A pause, hold or idle time: may be 0. */
const idleSeconds = z
  .number()
  .min(0, 'must be 0 or more')
  .max(LIMITS.scheduleSeconds, `must be at most ${LIMITS.scheduleSeconds} (a week)`)
const requestCount = z
  .number()
  .int('must be a whole number')
  .positive('must be greater than 0')
  .max(LIMITS.maxRequests, `must be at most ${LIMITS.maxRequests.toLocaleString('en')}`)
const connectionCount = z
  .number()
  .int('must be a whole number')
  .positive('must be greater than 0')
  .max(100_000)

export const TargetUrlSchema = z.string().superRefine((value, ctx) => {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    ctx.addIssue({ code: 'custom', message: `is not a valid URL: "${value}"` })
    return
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    ctx.addIssue({ code: 'custom', message: `must start with http:// or https://, got "${url.protocol}"` })
  }
  if (!url.hostname) ctx.addIssue({ code: 'custom', message: 'has no host' })
})

/** The largest request body a config may generate or hold (and the sample servers accept): 10 MiB. */
export const MAX_BODY_BYTES = LIMITS.bodyBytes

/**
 * A request body made before the run (engine/config/body.ts), never per request: `size` bytes of
 * text, or a JSON document of exactly `size` bytes. Sweepable like any number
 * (`sweep: { path: targets.0.body.size, values: [1024, 65536] }`), as studies of service payloads vary
 * the request's size, not only the response's.
 */
export const GeneratedBodySchema = z
  .object({
    size: z
      .number({ error: 'must be a number of bytes' })
      // A refinement, not .int(): zod reports .int() as a type mismatch, which the body's union
      // would turn into a message about the whole body instead of its size.
      .refine(Number.isInteger, 'must be a whole number of bytes')
      .min(0, 'must not be negative')
      .max(MAX_BODY_BYTES, `must be at most ${MAX_BODY_BYTES} bytes (10 MiB)`),
    // A refinement, not z.enum, for the same reason as size: the message names this field.
    kind: z
      .string({ error: "must be 'json' or 'text'" })
      .refine((v) => v === 'json' || v === 'text', "must be 'json' or 'text'")
      .default('text'),
  })
  .strict()
  .refine((b) => b.kind !== 'json' || b.size >= 2, {
    message: 'a JSON body needs at least 2 bytes ({})',
    path: ['size'],
  })

/**
 * Think time: a pause between a response and the connection's next request, as a user reads a page
 * before clicking on. Milliseconds, fixed, or drawn uniformly from [min, max] with a generator seeded
 * by `load.seed` (the same seed gives the same pauses). It is never part of a latency: a request's
 * latency starts when it is sent, after the pause.
 */
export const ThinkSchema = z.union(
  [
    z.number().min(0, 'must not be negative').max(600_000, 'must be at most 600000 ms (10 minutes)'),
    z
      .object({
        min: z.number().min(0, 'must not be negative').max(600_000),
        max: z.number().min(0, 'must not be negative').max(600_000, 'must be at most 600000 ms'),
      })
      .strict()
      .refine((t) => t.max >= t.min, { message: 'must not be below min', path: ['max'] }),
  ],
  { error: 'must be milliseconds (a number) or { min, max } in milliseconds' },
)
export type Think = z.output<typeof ThinkSchema>

/** A value captured from one step's response, for `${name}` in the following steps. */
const CaptureSchema = z.union([
  z.object({ json: z.string().min(1) }).strict(),
  z.object({ header: z.string().min(1) }).strict(),
])

/**
 * One request of a scenario (register → login → browse). Path, header values and body may hold
 * `${var}`: a value an earlier step captured, or a built-in (BUILTIN_VARIABLES in wire.ts); any
 * other name is refused.
 */
export const StepSchema = z
  .object({
    name: z.string().min(1).max(40),
    method: z.enum(HTTP_METHODS).default('GET'),
    path: z.string().startsWith('/', 'must start with /'),
    headers: z.record(headerName, z.string()).default({}),
    body: z.union([z.string(), z.null()]).default(null),
    capture: z
      .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be a variable name'), CaptureSchema)
      .default({}),
    /** A response with another status ends the pass (counted as a 'capture' error) and starts over. */
    expectStatus: z.number().int().min(100).max(599).optional(),
    /**
     * Run once per connection, before the loop of the other steps (register and log in once, then
     * browse): its captures stay for every pass of the loop. Once-steps come first.
     */
    once: z.boolean().default(false),
    /** Think time after this step's response, instead of the target's. */
    think: ThinkSchema.optional(),
  })
  .strict()

/** A bundled stack this target runs on; `env` is what a sweep may change (POOL_SIZE…). */
const TargetStackSchema = z
  .object({
    name: z.string().min(1),
    native: z.boolean().default(false),
    env: z.record(z.string(), z.union([z.string(), z.number()])).default({}),
    /** App instances behind a load balancer (Docker); 1 = the app alone. */
    replicas: z.number().int('must be a whole number').min(1).max(MAX_REPLICAS).default(1),
  })
  .strict()
  .refine((s) => !(s.native && s.replicas > 1), {
    message: 'replicas need Docker: a native stack runs one server process',
    path: ['replicas'],
  })

export const TargetSchema = z
  .object({
    name: z
      .string()
      .min(1, 'must not be empty')
      .max(64)
      .regex(/^[A-Za-z0-9][A-Za-z0-9 ._:@+-]*$/, 'may hold letters, digits, space and . _ : @ + -'),
    url: TargetUrlSchema,
    method: z.enum(HTTP_METHODS).default('GET'),
    headers: z.record(headerName, z.string()).default({}),
    /** A literal body, or one generated before the run: `{ size: 65536, kind: json }`. */
    body: z
      .union([z.string(), GeneratedBodySchema, z.null()], {
        error: "must be a string, null, or { size: bytes, kind: 'json' | 'text' }",
      })
      .default(null),
    /** Accept a self-signed or otherwise unverifiable TLS certificate (https targets). */
    insecure: z.boolean().default(false),
    /** One resource monitor, or several (say docker for CPU and postgres for connections). */
    monitor: z
      .union([MonitorSpecSchema, z.array(MonitorSpecSchema).min(1).max(4)], {
        error:
          "must be a monitor ({ kind: 'docker' | 'process' | 'cloudfoundry' | 'postgres', … }) or a list of up to 4",
      })
      .optional(),
    /** A scenario: these requests in order, per connection, instead of `method url`. */
    steps: z.array(StepSchema).min(1).max(50).optional(),
    /** Think time after every response of this target (a step's own `think` wins). */
    think: ThinkSchema.optional(),
    stack: TargetStackSchema.optional(),
    /**
     * This target is one value of a series (a task size, a payload size): comparisons draw such
     * targets as a curve against `value` instead of ranking them against each other.
     */
    series: z
      .object({ name: z.string().min(1).max(64), value: z.number() })
      .strict()
      .optional(),
  })
  .strict()

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

const LoadSchema = z
  .object({
    connections: connectionCount,
    duration: positiveSeconds.optional(),
    requests: requestCount.optional(),
    profile: ProfileSchema.default({ kind: 'constant' }),
    keepAlive: z.boolean().default(true),
    pipelining: z.number().int().min(1).max(256).default(1),
    timeoutMs: z.number().int().positive().max(600_000).default(10_000),
    /** Requests per second per target: turns the run open-loop (latency from the intended send time). */
    rate: z
      .number()
      .positive('must be greater than 0')
      .min(
        LIMITS.minRate,
        `must be at least ${LIMITS.minRate} requests/s (one every ${1 / LIMITS.minRate} s)`,
      )
      .max(LIMITS.maxRate, `must be at most ${LIMITS.maxRate.toLocaleString('en')} requests/s`)
      .nullable()
      .default(null),
    /**
     * Rate mode: when a request is due and every connection is busy (a stalled server), open more
     * connections, up to this many in all, so the arrival rate holds (k6's maxVUs).
     */
    maxConnections: connectionCount.optional(),
    /**
     * Seconds of load at `connections` before the profile starts, as a warm-up phase of each
     * segment: recorded and shown, but left out of the summary, the thresholds and comparisons.
     */
    warmupSeconds: z.number().min(0, 'must not be negative').max(3600).default(0),
    /** Seeds random think times: the same seed gives every connection the same pauses. */
    seed: z
      .number()
      .int('must be a whole number')
      .min(0)
      .max(2 ** 31 - 1)
      .default(1),
  })
  .strict()
  .superRefine((load, ctx) => {
    const ownWindow = load.profile.kind === 'phases' || load.profile.kind === 'stages'
    const hasDuration = load.duration !== undefined
    const hasRequests = load.requests !== undefined
    if (ownWindow) {
      if (hasDuration || hasRequests) {
        ctx.addIssue({
          code: 'custom',
          path: [hasDuration ? 'duration' : 'requests'],
          message: `is not used with a ${load.profile.kind} profile: each ${load.profile.kind === 'phases' ? 'phase' : 'stage'} has its own length`,
        })
      }
    } else if (hasDuration && hasRequests) {
      ctx.addIssue({
        code: 'custom',
        path: ['duration'],
        message: 'give either duration or requests, not both',
      })
    } else if (!hasDuration && !hasRequests) {
      ctx.addIssue({
        code: 'custom',
        path: ['duration'],
        message: 'give either duration (seconds) or requests (a count)',
      })
    }
    const p = load.profile
    if (p.kind === 'ramp') {
      if ((p.to ?? load.connections) > load.connections) {
        ctx.addIssue({ code: 'custom', path: ['profile', 'to'], message: 'must not exceed load.connections' })
      }
      if ((p.from ?? 1) > (p.to ?? load.connections)) {
        ctx.addIssue({ code: 'custom', path: ['profile', 'from'], message: 'must not exceed profile.to' })
      }
      if (p.rampSeconds === undefined && p.stepSize === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['profile', 'rampSeconds'],
          message: 'give rampSeconds (linear ramp) or stepSize and stepSeconds (stepped ramp)',
        })
      }
      if ((p.stepSize === undefined) !== (p.stepSeconds === undefined)) {
        ctx.addIssue({
          code: 'custom',
          path: ['profile', 'stepSize'],
          message: 'stepSize and stepSeconds go together',
        })
      }
    }
    if (p.kind === 'burst' && (p.connections ?? 0) > load.connections) {
      ctx.addIssue({
        code: 'custom',
        path: ['profile', 'connections'],
        message: 'must not exceed load.connections',
      })
    }
    if (p.kind === 'stages') {
      p.stages.forEach((s, i) => {
        if (s.connections > load.connections) {
          ctx.addIssue({
            code: 'custom',
            path: ['profile', 'stages', i, 'connections'],
            message: 'must not exceed load.connections',
          })
        }
      })
    }
    if (!load.keepAlive && load.pipelining > 1) {
      ctx.addIssue({
        code: 'custom',
        path: ['pipelining'],
        message: 'pipelining needs keepAlive: true (one request per socket otherwise)',
      })
    }
    if (load.rate !== null && load.pipelining > 1) {
      ctx.addIssue({ code: 'custom', path: ['rate'], message: 'rate mode needs pipelining 1' })
    }
    if (load.maxConnections !== undefined) {
      if (load.rate === null) {
        ctx.addIssue({
          code: 'custom',
          path: ['maxConnections'],
          message: 'is used only with a rate (open loop); without one the connection count is the load',
        })
      } else if (load.maxConnections < load.connections) {
        ctx.addIssue({
          code: 'custom',
          path: ['maxConnections'],
          message: `must be at least load.connections (${load.connections})`,
        })
      }
    }
    if (p.kind === 'phases') {
      if (load.warmupSeconds > 0)
        ctx.addIssue({
          code: 'custom',
          path: ['warmupSeconds'],
          message: 'a phases profile marks its warm-up phase instead: warmup: true on that phase',
        })
      if (p.phases.every((ph) => ph.warmup))
        ctx.addIssue({
          code: 'custom',
          path: ['profile', 'phases'],
          message: 'every phase is a warm-up: at least one must be measured',
        })
    }
    // Last, on a load otherwise valid: how much work its profile compiles to.
    for (const issue of planIssues(load)) ctx.addIssue({ code: 'custom', ...issue })
  })

/** Where a run's load agents run (engine/agents/): launchers by name. */
export const AGENT_LAUNCHERS = ['local', 'docker', 'swarm', 'kubernetes'] as const

/**
 * Scale-out: the load comes from `count` agents, one merged run (engine/agents/README.md). The
 * agent count is a number like any other, so a sweep may vary it (`sweep.path: agents.count`).
 */
const AgentsSchema = z
  .object({
    count: z.number().int('must be a whole number').min(1, 'must be at least 1').max(1000),
    on: z.enum(AGENT_LAUNCHERS, { error: `must be one of ${AGENT_LAUNCHERS.join(', ')}` }).default('local'),
    /** After the load, bring every agent's raw per-request ledger into this run ('upload') or leave it with the agent. */
    raw: z.enum(['keep', 'upload']).default('keep'),
    /** How long every agent has to reach the first barrier before the run fails, naming who is missing. */
    barrierTimeoutSeconds: z.number().positive().max(3600).default(60),
    /** No heartbeat for this long and an agent is lost: the run becomes partial. */
    lostAfterSeconds: z.number().min(2).max(600).default(10),
  })
  .strict()

/** Threshold metrics that are latencies: microseconds in a config, shown in milliseconds. */
export const LATENCY_THRESHOLD_METRICS = ['mean', 'p50', 'p90', 'p95', 'p99', 'p99.9', 'max'] as const
export const THRESHOLD_METRICS = [...LATENCY_THRESHOLD_METRICS, 'throughput', 'errorRate'] as const

const ThresholdSchema = z
  .object({
    metric: z.enum(THRESHOLD_METRICS),
    target: z.string().default('*'),
    /** Latencies in microseconds, throughput in requests/s, errorRate as a fraction 0..1. */
    max: z.number().optional(),
    min: z.number().optional(),
  })
  .strict()
  .refine((t) => t.max !== undefined || t.min !== undefined, { message: 'give max or min', path: ['max'] })

/** The header each request carries its correlation id in, unless a config names another. */
export const DEFAULT_CORRELATION_HEADER = 'x-correlation-id'

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
  })
  .strict()
  .superRefine((sweep, ctx) => {
    axisIssues(sweep.values, [], ctx)
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

/**
 * A config as runs already stored may hold it: what earlier releases accepted. History reads
 * stored configs with it (engine/store/rows.ts), so a rule added to what may be sent never makes
 * a kept run unreadable. New input is checked with RunConfigV1Schema below.
 */
export const StoredRunConfigSchema = z
  .object({
    version: z.literal(1),
    name: z.string().min(1, 'must not be empty').max(200),
    targets: z.array(TargetSchema).min(1, 'needs at least one target').max(32),
    load: LoadSchema,
    schedule: z.enum(['sequential', 'interleaved']).default('sequential'),
    rounds: z.number().int().min(1).max(1000).default(1),
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
    if (cfg.agents) {
      const problem = splitProblem(cfg.load, cfg.agents.count)
      if (problem) ctx.addIssue({ code: 'custom', path: ['agents', 'count'], message: problem })
    }
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

/**
 * RunConfig v1 as the CLI, the API and the wizard accept it: the stored shape plus what may go on
 * the wire (header names and values, paths, bodies, variables: wire.ts).
 */
export const RunConfigV1Schema = StoredRunConfigSchema.superRefine((cfg, ctx) => {
  for (const issue of inputIssues(cfg)) ctx.addIssue({ code: 'custom', ...issue })
})

export type RunConfig = z.output<typeof RunConfigV1Schema>
export type StoredRunConfig = z.output<typeof StoredRunConfigSchema>
export type RunConfigInput = z.input<typeof RunConfigV1Schema>
export type Target = RunConfig['targets'][number]
export type Load = RunConfig['load']
export type Profile = Load['profile']
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
export type ThresholdMetric = (typeof THRESHOLD_METRICS)[number]
export type AgentsConfig = NonNullable<RunConfig['agents']>
export type AgentLauncher = (typeof AGENT_LAUNCHERS)[number]

export function isLatencyMetric(metric: string): boolean {
  return (LATENCY_THRESHOLD_METRICS as readonly string[]).includes(metric)
}

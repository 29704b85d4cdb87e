// Shapes of the JSON columns the runner writes (001_initial.sql), checked where they are read.
// Reading is lenient about what a newer runner may add (unknown keys are dropped, unknown error
// kinds ignored) and strict about what the UI relies on: a broken row names its run and column.
import { z } from 'zod'
import { ApiError } from '../api/errors.ts'
import { ERROR_KINDS, type ErrorCounts, type ErrorKind } from '../api/types.ts'

const KNOWN_ERRORS = new Set<string>(ERROR_KINDS.filter((k) => k !== 'none'))
/** Kinds an older Cannonade wrote under another name: `non2xx` is `status` (issue 28). */
const RENAMED: Readonly<Record<string, ErrorKind>> = { non2xx: 'status' }

export const ErrorCountsSchema = z.record(z.string(), z.number()).transform((raw): ErrorCounts => {
  const out: ErrorCounts = {}
  for (const [name, n] of Object.entries(raw)) {
    const kind = RENAMED[name] ?? name
    if (KNOWN_ERRORS.has(kind) && n !== 0) {
      const k = kind as Exclude<ErrorKind, 'none'>
      out[k] = (out[k] ?? 0) + n
    }
  }
  return out
})

/** Counts by status code or by step name (older runs have none). */
const countsBy = z.record(z.string(), z.number()).optional()

export const LatencyStatsSchema = z.object({
  count: z.number(),
  min: z.number(),
  mean: z.number(),
  stddev: z.number(),
  p50: z.number(),
  p90: z.number(),
  p95: z.number(),
  p99: z.number(),
  p999: z.number(),
  max: z.number(),
})

const optionalLatency = LatencyStatsSchema.nullish().transform((v) => v ?? null)

const StatusClassesSchema = z
  .object({ '1xx': z.number(), '2xx': z.number(), '3xx': z.number(), '4xx': z.number(), '5xx': z.number() })
  .partial()
  .transform((s) => ({
    '1xx': s['1xx'] ?? 0,
    '2xx': s['2xx'] ?? 0,
    '3xx': s['3xx'] ?? 0,
    '4xx': s['4xx'] ?? 0,
    '5xx': s['5xx'] ?? 0,
  }))

const statsShape = {
  requests: z.number(),
  ok: z.number(),
  errors: ErrorCountsSchema.default({}),
  unexpected: countsBy,
  statusClasses: StatusClassesSchema.prefault({}),
  bytes: z.number().default(0),
  throughput: z.number(),
  seconds: z.number(),
  latency: LatencyStatsSchema,
  corrected: optionalLatency,
  serverApp: optionalLatency,
  serverDb: optionalLatency,
}

export const StatsBlockSchema = z.object(statsShape)
export const PhaseSummarySchema = z.object({
  ...statsShape,
  phase: z.string(),
  warmup: z.boolean().optional(),
})
/** run_targets.summary: StatsBlock + {phases} (+ {steps} for a scenario target). */
export const ScheduleStatsSchema = z.object({
  scheduled: z.number(),
  sent: z.number(),
  unsent: z.number(),
  late: z.number(),
  lateness: LatencyStatsSchema,
  peakConnections: z.number(),
})

export const SteadyStateSchema = z.object({
  warmupSeconds: z.number().int().min(0),
  from: z.number(),
  limit: z.number().int().min(0),
  settled: z.boolean(),
  why: z.enum(['trend', 'short']).nullable(),
  change: z.object({ throughput: z.number(), p50: z.number() }),
})

export const TargetSummarySchema = z.object({
  ...statsShape,
  phases: z.array(PhaseSummarySchema).default([]),
  steps: z.array(z.object({ ...statsShape, step: z.string(), skipped: countsBy })).optional(),
  // Runs written before connect times and the schedule were recorded have neither.
  connect: optionalLatency,
  schedule: ScheduleStatsSchema.nullish().transform((v) => v ?? null),
  // Counted since issue 20: older runs read 0.
  serverTimingInvalid: z.number().int().min(0).default(0),
  // load.warmup: auto (issue 27): where the measured window starts, and whether it settled.
  steady: SteadyStateSchema.optional(),
  // HTTP/2 (issue 31): the lowest concurrent-stream limit the server set on this segment's connections.
  streamLimit: z.number().int().min(0).optional(),
})

export const ThresholdResultSchema = z.object({
  metric: z.string(),
  target: z.string(),
  max: z.number().optional(),
  min: z.number().optional(),
  actual: z.number().nullable(),
  passed: z.boolean(),
})
export const ThresholdResultsSchema = z.array(ThresholdResultSchema)

export const GeneratorHealthSchema = z.object({
  saturatedSeconds: z.number(),
  seconds: z.number(),
  saturated: z.boolean(),
  peakCpu: z.number(),
  // Recorded since the load thread's waits for a CPU are measured; older rows lack it.
  waitedSeconds: z.number().optional(),
  // Recorded since runs may share the generator explicitly (009_run_owner.sql); older rows lack it.
  shared: z.boolean().default(false),
  sharedWith: z.array(z.number().int()).default([]),
  message: z.string().nullable(),
})

export const TagsSchema = z.array(z.string())
export const StatusCountsSchema = z.record(z.string(), z.number())

/**
 * Parse a JSON column. `where` names the row for the message, e.g. `run 42` or
 * `run 42 (target java-jetty, round 2)`; the column is named as `table.column`.
 */
export function parseColumn<S extends z.ZodType>(
  where: string,
  column: string,
  text: string,
  schema: S,
): z.output<S> {
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch (err) {
    throw new ApiError('internal', `${where}: column ${column} is not valid JSON (${(err as Error).message})`)
  }
  const result = schema.safeParse(raw)
  if (!result.success) {
    const issue = result.error.issues[0]
    const path = issue?.path.map(String).join('.') || '(value)'
    throw new ApiError(
      'internal',
      `${where}: column ${column} has an unexpected shape at ${path}: ${issue?.message ?? 'invalid'}`,
    )
  }
  return result.data
}

/** The same, but a broken value becomes `fallback` (for lists, which must never fail on one row). */
export function parseColumnOr<S extends z.ZodType, F>(
  text: string | null,
  schema: S,
  fallback: F,
): z.output<S> | F {
  if (text === null) return fallback
  try {
    return parseColumn('', '', text, schema)
  } catch {
    return fallback
  }
}

const AgentReportSchema = z.object({
  index: z.number(),
  host: z.string(),
  pid: z.number().nullable(),
  state: z.enum(['done', 'stopped', 'failed', 'lost', 'missing']),
  error: z.string().nullable(),
  offsetMs: z.number().nullable(),
  offsetErrorMs: z.number().nullable(),
  startSkewMs: z.array(z.number().nullable()),
  lostAtSecond: z.number().nullable(),
  requests: z.number(),
  errors: z.number(),
  throughput: z.number(),
  results: z.array(
    z.object({
      target: z.string(),
      round: z.number(),
      requests: z.number(),
      errors: z.number(),
      throughput: z.number(),
      p50: z.number(),
      p99: z.number(),
    }),
  ),
  generator: GeneratorHealthSchema,
  ledger: z.object({ path: z.string(), rows: z.number(), uploaded: z.boolean() }),
})

/** runs.distribution: the load agents of a run made by several (engine/agents/). */
export const DistributionSchema = z.object({
  agents: z.number(),
  on: z.string(),
  store: z.enum(['embedded', 'postgres']),
  skewMs: z.number(),
  maxOffsetMs: z.number(),
  heartbeatMs: z.number(),
  lostAfterMs: z.number(),
  warnings: z.array(z.string()),
  perAgent: z.array(AgentReportSchema),
})

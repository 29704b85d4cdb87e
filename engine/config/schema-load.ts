// What a RunConfig says about the load: connections, length, rate, and the profile's shape over
// time (constant, ramp, burst, phases, stages), with the checks that tie them together.
import { z } from 'zod'
import { LIMITS } from './limits.ts'
import { planIssues, type LoadIssue } from './plan-bounds.ts'
import { ProfileSchema } from './schema-profile.ts'
import { connectionCount, positiveSeconds, requestCount } from './schema-fields.ts'

const LoadFields = z
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
    /**
     * `auto`: each segment finds its own warm-up in its per-second throughput and p50 when it ends
     * (engine/metrics/steady.ts), at most half of it, and is measured from there; a segment that
     * never settles is marked. Instead of warmupSeconds, with a constant profile.
     */
    warmup: z.literal('auto').optional(),
    /** Seeds random think times: the same seed gives every connection the same pauses. */
    seed: z
      .number()
      .int('must be a whole number')
      .min(0)
      .max(2 ** 31 - 1)
      .default(1),
  })
  .strict()

type LoadFields = z.output<typeof LoadFields>

/** Duration or requests, exactly one, unless the profile's phases or stages carry their own lengths. */
function windowIssues(load: LoadFields): LoadIssue[] {
  const hasDuration = load.duration !== undefined
  const hasRequests = load.requests !== undefined
  if (load.profile.kind === 'phases' || load.profile.kind === 'stages') {
    if (!hasDuration && !hasRequests) return []
    return [
      {
        path: [hasDuration ? 'duration' : 'requests'],
        message: `is not used with a ${load.profile.kind} profile: each ${load.profile.kind === 'phases' ? 'phase' : 'stage'} has its own length`,
      },
    ]
  }
  if (hasDuration && hasRequests)
    return [{ path: ['duration'], message: 'give either duration or requests, not both' }]
  if (!hasDuration && !hasRequests)
    return [{ path: ['duration'], message: 'give either duration (seconds) or requests (a count)' }]
  return []
}

/** A ramp's ends and steps, within load.connections like a burst's and every stage's connections. */
function profileIssues(load: LoadFields): LoadIssue[] {
  const p = load.profile
  const issues: LoadIssue[] = []
  const over = 'must not exceed load.connections'
  if (p.kind === 'ramp') {
    if ((p.to ?? load.connections) > load.connections) issues.push({ path: ['profile', 'to'], message: over })
    if ((p.from ?? 1) > (p.to ?? load.connections))
      issues.push({ path: ['profile', 'from'], message: 'must not exceed profile.to' })
    if (p.rampSeconds === undefined && p.stepSize === undefined)
      issues.push({
        path: ['profile', 'rampSeconds'],
        message: 'give rampSeconds (linear ramp) or stepSize and stepSeconds (stepped ramp)',
      })
    if ((p.stepSize === undefined) !== (p.stepSeconds === undefined))
      issues.push({ path: ['profile', 'stepSize'], message: 'stepSize and stepSeconds go together' })
  }
  if (p.kind === 'burst' && (p.connections ?? 0) > load.connections)
    issues.push({ path: ['profile', 'connections'], message: over })
  if (p.kind === 'stages') {
    p.stages.forEach((s, i) => {
      if (s.connections > load.connections)
        issues.push({ path: ['profile', 'stages', i, 'connections'], message: over })
    })
  }
  return issues
}

/** Pipelining, rate and maxConnections: which need which. */
function sendingIssues(load: LoadFields): LoadIssue[] {
  const issues: LoadIssue[] = []
  if (!load.keepAlive && load.pipelining > 1)
    issues.push({
      path: ['pipelining'],
      message: 'pipelining needs keepAlive: true (one request per socket otherwise)',
    })
  if (load.rate !== null && load.pipelining > 1)
    issues.push({ path: ['rate'], message: 'rate mode needs pipelining 1' })
  if (load.maxConnections !== undefined) {
    if (load.rate === null)
      issues.push({
        path: ['maxConnections'],
        message: 'is used only with a rate (open loop); without one the connection count is the load',
      })
    else if (load.maxConnections < load.connections)
      issues.push({
        path: ['maxConnections'],
        message: `must be at least load.connections (${load.connections})`,
      })
  }
  return issues
}

/** Whole seconds a segment needs for load.warmup: auto to find a level in (metrics/steady.ts). */
export const AUTO_WARMUP_MIN_SECONDS = 10

/** load.warmup: auto looks for the level of a constant load, in a window long enough to show one. */
function autoWarmupIssues(load: LoadFields): LoadIssue[] {
  if (load.warmup !== 'auto') return []
  if (load.warmupSeconds > 0)
    return [
      {
        path: ['warmup'],
        message: 'give warmup: auto (found in each segment) or warmupSeconds (a fixed warm-up), not both',
      },
    ]
  if (load.profile.kind !== 'constant')
    return [
      {
        path: ['warmup'],
        message: `auto needs a constant profile: a ${load.profile.kind} profile changes its load by design, which is no warm-up (use warmupSeconds)`,
      },
    ]
  if (load.duration !== undefined && load.duration < AUTO_WARMUP_MIN_SECONDS)
    return [
      {
        path: ['duration'],
        message: `must be at least ${AUTO_WARMUP_MIN_SECONDS} s with warmup: auto (too few seconds to tell a level)`,
      },
    ]
  return []
}

/** A phases profile marks its own warm-up, and must measure something. */
function warmupIssues(load: LoadFields): LoadIssue[] {
  const p = load.profile
  if (p.kind !== 'phases') return autoWarmupIssues(load)
  const issues: LoadIssue[] = []
  if (load.warmupSeconds > 0)
    issues.push({
      path: ['warmupSeconds'],
      message: 'a phases profile marks its warm-up phase instead: warmup: true on that phase',
    })
  if (p.phases.every((ph) => ph.warmup))
    issues.push({
      path: ['profile', 'phases'],
      message: 'every phase is a warm-up: at least one must be measured',
    })
  return issues
}

export const LoadSchema = LoadFields.superRefine((load, ctx) => {
  const issues = [
    ...windowIssues(load),
    ...profileIssues(load),
    ...sendingIssues(load),
    ...warmupIssues(load),
    // Last: how much work its profile compiles to.
    ...planIssues(load),
  ]
  for (const issue of issues) ctx.addIssue({ code: 'custom', ...issue })
})

export type Load = z.output<typeof LoadSchema>

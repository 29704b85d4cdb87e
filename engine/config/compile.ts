// The profile compiler: every load shape becomes a list of constant-connection steps, which the
// runner executes and a UI previews as a per-second connection schedule (profile kinds: ./schema.ts).
import { ConfigError, fieldOf } from './errors.ts'
import { planIssues } from './plan-bounds.ts'
import type { Load } from './schema-load.ts'

export interface Step {
  /** Index into Plan.phases. */
  phase: number
  connections: number
  /** Length in seconds, or null when the step is bounded by requests (or lasts until the run's request cap). */
  seconds: number | null
  /** A request-count step ends once this many requests have been sent in it. */
  requests: number | null
}

export interface Plan {
  phases: string[]
  /**
   * Per phase: a warm-up (load.warmupSeconds, or a phase marked `warmup`), recorded and shown but
   * left out of the summary, the thresholds and comparisons. With load.warmup: auto the warm-up
   * phase has no step: its seconds are found when each segment ends, and its requests moved to it.
   */
  warmup: boolean[]
  steps: Step[]
  /** Overall request cap (load.requests), counted after the warm-up; null for a time window. */
  maxRequests: number | null
  /** The time window when every step is time-bound, null otherwise. */
  seconds: number | null
  /** Largest connection count any step uses: the number of client connections to create. */
  maxConnections: number
}

const DEFAULT_PHASE = 'main'
/** The phase load.warmupSeconds puts before the profile. */
export const WARMUP_PHASE = 'warmup'
// A request-bound run of a repeating shape (burst) is compiled for at most a day.
const OPEN_ENDED_LIMIT_SECONDS = 24 * 3600

function push(steps: Step[], step: Step): void {
  if (step.seconds !== null && step.seconds <= 0) return
  const last = steps[steps.length - 1]
  // Merge equal neighbours so a constant stretch of a ramp or stage is one step, not one per second.
  if (
    last &&
    last.phase === step.phase &&
    last.connections === step.connections &&
    last.requests === null &&
    step.requests === null &&
    last.seconds !== null &&
    step.seconds !== null
  ) {
    last.seconds += step.seconds
    return
  }
  steps.push({ ...step })
}

/** Cut time-bound steps to the window, extending the last connection count to fill it. */
function fitToWindow(steps: Step[], window: number | null, fill: number): Step[] {
  const out: Step[] = []
  let t = 0
  for (const s of steps) {
    if (window !== null && t >= window) break
    const seconds = s.seconds === null ? null : window === null ? s.seconds : Math.min(s.seconds, window - t)
    push(out, { ...s, seconds })
    if (s.seconds !== null) t += s.seconds
  }
  if (window === null) push(out, { phase: 0, connections: fill, seconds: null, requests: null })
  else if (t < window) push(out, { phase: 0, connections: fill, seconds: window - t, requests: null })
  return out
}

type Profile = Load['profile']
type ProfileOf<K extends Profile['kind']> = Extract<Profile, { kind: K }>

/** A linear ramp (one step a second) or a stepped one (with pauses), then the hold, in the window. */
function rampSteps(p: ProfileOf<'ramp'>, C: number, window: number | null): Step[] {
  const from = p.from ?? 1
  const to = p.to ?? C
  const shape: Step[] = []
  if (p.stepSize !== undefined && p.stepSeconds !== undefined) {
    for (let c = from; ; c = Math.min(to, c + p.stepSize)) {
      push(shape, { phase: 0, connections: c, seconds: p.stepSeconds, requests: null })
      if (c >= to) break
      if (p.pauseSeconds > 0)
        push(shape, { phase: 0, connections: 0, seconds: p.pauseSeconds, requests: null })
    }
  } else {
    const ramp = p.rampSeconds ?? 1
    const whole = Math.ceil(ramp)
    for (let s = 0; s < whole; s++) {
      const c = Math.round(from + ((to - from) * s) / ramp)
      push(shape, { phase: 0, connections: c, seconds: Math.min(1, ramp - s), requests: null })
    }
  }
  push(shape, { phase: 0, connections: to, seconds: p.holdSeconds, requests: null })
  return fitToWindow(shape, window, to)
}

/** Bursts and idle gaps repeated over the window (a day at most when requests bound the run). */
function burstSteps(p: ProfileOf<'burst'>, C: number, window: number | null): Step[] {
  const c = p.connections ?? C
  const shape: Step[] = []
  const limit = window ?? OPEN_ENDED_LIMIT_SECONDS
  for (let t = 0; t < limit; t += p.burstSeconds + p.idleSeconds) {
    shape.push({ phase: 0, connections: c, seconds: p.burstSeconds, requests: null })
    if (p.idleSeconds > 0) shape.push({ phase: 0, connections: 0, seconds: p.idleSeconds, requests: null })
  }
  return fitToWindow(shape, limit, 0)
}

/** One step per phase, at its share of the connections, bound by its own duration or requests. */
function phasesSteps(p: ProfileOf<'phases'>, C: number): Step[] {
  return p.phases.map((ph, i) => ({
    phase: i,
    connections: Math.max(1, Math.round(ph.share * C)),
    seconds: ph.duration ?? null,
    requests: ph.requests ?? null,
  }))
}

/** Each stage moves linearly, second by second, from the previous stage's connections to its own. */
function stagesSteps(p: ProfileOf<'stages'>): Step[] {
  const steps: Step[] = []
  let prev = 0
  for (const stage of p.stages) {
    const whole = Math.ceil(stage.duration)
    for (let s = 0; s < whole; s++) {
      const c = Math.round(
        prev + ((stage.connections - prev) * Math.min(s + 1, stage.duration)) / stage.duration,
      )
      push(steps, { phase: 0, connections: c, seconds: Math.min(1, stage.duration - s), requests: null })
    }
    prev = stage.connections
  }
  return steps
}

/** The profile's phases and steps, before any warm-up. */
function profileSteps(load: Load): { phases: string[]; steps: Step[] } {
  const p = load.profile
  const C = load.connections
  const window = load.duration ?? null
  const main = [DEFAULT_PHASE]
  switch (p.kind) {
    case 'constant':
      return { phases: main, steps: [{ phase: 0, connections: C, seconds: window, requests: null }] }
    case 'ramp':
      return { phases: main, steps: rampSteps(p, C, window) }
    case 'burst':
      return { phases: main, steps: burstSteps(p, C, window) }
    case 'phases':
      return { phases: p.phases.map((ph) => ph.name), steps: phasesSteps(p, C) }
    case 'stages':
      return { phases: main, steps: stagesSteps(p) }
    default: {
      // Every kind of the schema above: a new kind is a compile error here until it has steps.
      const _unplanned: never = p
      throw new Error(`no steps for profile ${JSON.stringify(_unplanned)}`)
    }
  }
}

export function compilePlan(load: Load): Plan {
  // The schema refuses these already; a load that skipped it (a stored or hand-built one) must
  // still not make the loops below allocate without bound.
  const issues = planIssues(load)
  if (issues.length > 0)
    throw new ConfigError(issues.map((i) => ({ field: fieldOf(['load', ...i.path]), message: i.message })))
  const p = load.profile
  let { phases, steps } = profileSteps(load)
  let warmup = p.kind === 'phases' ? p.phases.map((ph) => ph.warmup) : phases.map(() => false)
  if (load.warmup === 'auto') {
    // The warm-up is each segment's own, found when it ends (runner/writer.ts): a phase, no step.
    phases = [WARMUP_PHASE, ...phases]
    warmup = [true, ...warmup]
    steps = steps.map((s) => ({ ...s, phase: s.phase + 1 }))
  } else if (load.warmupSeconds > 0 && p.kind !== 'phases') {
    // Warm-up before the profile, at the run's connections; the profile's phases move up by one.
    phases = [WARMUP_PHASE, ...phases]
    warmup = [true, ...warmup]
    steps = [
      { phase: 0, connections: load.connections, seconds: load.warmupSeconds, requests: null },
      ...steps.map((s) => ({ ...s, phase: s.phase + 1 })),
    ]
  }
  const timeBound = steps.every((s) => s.seconds !== null)
  const seconds = timeBound ? steps.reduce((sum, s) => sum + (s.seconds ?? 0), 0) : null
  return {
    phases,
    warmup,
    steps,
    maxRequests: load.requests ?? null,
    seconds: load.requests !== undefined ? null : seconds,
    maxConnections: Math.max(0, ...steps.map((s) => s.connections)),
  }
}

export interface PreviewPoint {
  /** Second from the start of the schedule (estimated after a request-bound step). */
  t: number
  connections: number
  phase: string
  /** True once a request-bound step came before: its length depends on the target's speed. */
  estimated: boolean
}

/**
 * The per-second connection schedule a UI previews. Request-bound steps have no known length;
 * they are drawn `assumeSecondsPerRequestStep` long and marked estimated.
 */
export function previewSchedule(plan: Plan, assumeSecondsPerRequestStep = 10): PreviewPoint[] {
  const points: PreviewPoint[] = []
  let t = 0
  let estimated = false
  let carry = 0
  for (const step of plan.steps) {
    const length = step.seconds ?? assumeSecondsPerRequestStep
    if (step.seconds === null) estimated = true
    // Whole seconds: a fractional step shares its second with the next one (the larger count is shown).
    const start = t
    const end = t + length
    for (let s = Math.ceil(start - 1e-9); s < end - 1e-9; s++) {
      const phase = plan.phases[step.phase] ?? 'main'
      const existing = points[s]
      if (existing) existing.connections = Math.max(existing.connections, step.connections)
      else points[s] = { t: s, connections: Math.max(step.connections, carry), phase, estimated }
    }
    carry = Number.isInteger(end) ? 0 : step.connections
    t = end
  }
  return points.filter(Boolean)
}

/** The connection count the schedule asks for at time t (seconds), for time-bound plans. */
export function connectionsAt(plan: Plan, t: number): number {
  let start = 0
  for (const step of plan.steps) {
    if (step.seconds === null) return step.connections
    if (t < start + step.seconds) return step.connections
    start += step.seconds
  }
  return 0
}

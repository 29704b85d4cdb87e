// The bounds of what one config may ask for. A few bytes of config must not become unbounded work:
// `burstSeconds: 1e-9` once asked the profile compiler for 10^14 steps and ran the CLI, serve and
// the wizard's live preview (which compiles as the user types) out of memory. The schema refuses a
// config past a bound naming the field (schema.ts, wire.ts); the compiler checks the same bounds
// before it allocates anything (compile.ts), so no caller can skip them.
import type { Load } from './schema.ts'

export const LIMITS = {
  /** One segment's schedule (a target × round): a week. Also the longest single duration. */
  scheduleSeconds: 7 * 24 * 3600,
  /** Constant-connection steps one profile compiles to. */
  planSteps: 100_000,
  /** The finest step length: below a millisecond no timer keeps the schedule. */
  minStepSeconds: 0.001,
  /**
   * Open-loop rate per target. Its interval is 1000/rate ms: the minimum keeps it far below
   * setTimeout's 2^31−1 ms (beyond which Node fires at once), the maximum above what one
   * generator can send.
   */
  minRate: 0.001,
  maxRate: 1_000_000,
  /** A request count: beyond 2^53 counting is not exact; a trillion is already days at 10M/s. */
  maxRequests: 1_000_000_000_000,
  /** A request body (target or step), in UTF-8 bytes. */
  bodyBytes: 10 * 1024 * 1024,
  headers: 100,
  headerNameLength: 256,
  headerValueLength: 8 * 1024,
  /** A target URL or a step path (after variables), in characters. */
  urlLength: 8 * 1024,
  tags: 50,
  tagLength: 64,
  thresholds: 100,
} as const

/** An issue a load check raises, at a path under `load`. */
export interface LoadIssue {
  path: (string | number)[]
  message: string
}

const days = (s: number) => `${(s / 86400).toLocaleString('en', { maximumFractionDigits: 1 })} days`

/**
 * How many steps and seconds a load's profile compiles to, worked out arithmetically (nothing is
 * allocated), and what is wrong when either passes a bound. Each message names what to change.
 */
export function planIssues(load: Load): LoadIssue[] {
  const p = load.profile
  const C = load.connections
  const window = load.duration ?? null
  const maxSteps = LIMITS.planSteps
  const maxSeconds = LIMITS.scheduleSeconds
  const issues: LoadIssue[] = []
  const tooMany = (path: (string | number)[], steps: number, hint: string) =>
    issues.push({
      path,
      message: `makes ${Math.ceil(steps).toLocaleString('en')} schedule steps, more than ${maxSteps.toLocaleString('en')}: ${hint}`,
    })
  const tooLong = (path: (string | number)[], seconds: number) =>
    issues.push({
      path,
      message: `makes a schedule of ${days(seconds)}, longer than ${days(maxSeconds)}`,
    })
  switch (p.kind) {
    case 'constant':
      break
    case 'ramp': {
      const from = p.from ?? 1
      const to = p.to ?? C
      if (p.stepSize !== undefined && p.stepSeconds !== undefined) {
        const n = to > from ? Math.ceil((to - from) / p.stepSize) + 1 : 1
        const steps = n + (p.pauseSeconds > 0 ? n - 1 : 0) + 1
        if (steps > maxSteps) tooMany(['profile', 'stepSize'], steps, 'take larger steps')
        const seconds = n * p.stepSeconds + (n - 1) * p.pauseSeconds + p.holdSeconds
        if (window === null && seconds > maxSeconds) tooLong(['profile', 'stepSeconds'], seconds)
      } else if (window === null && (p.rampSeconds ?? 1) + p.holdSeconds > maxSeconds) {
        tooLong(['profile', 'holdSeconds'], (p.rampSeconds ?? 1) + p.holdSeconds)
      }
      break
    }
    case 'burst': {
      const cycles = (window ?? 24 * 3600) / (p.burstSeconds + p.idleSeconds)
      const steps = cycles * (p.idleSeconds > 0 ? 2 : 1)
      if (steps > maxSteps)
        tooMany(
          ['profile', 'burstSeconds'],
          steps,
          'make bursts and idle times longer, or the window shorter',
        )
      break
    }
    case 'phases': {
      const seconds = p.phases.reduce((sum, ph) => sum + (ph.duration ?? 0), 0)
      if (seconds > maxSeconds) tooLong(['profile', 'phases'], seconds)
      break
    }
    case 'stages': {
      const seconds = p.stages.reduce((sum, s) => sum + s.duration, 0)
      if (seconds > maxSeconds) tooLong(['profile', 'stages'], seconds)
      // One step per second at most (equal neighbours merge), so the seconds bound the steps.
      break
    }
    default: {
      const _unbounded: never = p
      throw new Error(`no bounds for profile ${JSON.stringify(_unbounded)}`)
    }
  }
  return issues
}

// How much work a load's profile compiles to, worked out before anything is compiled: the schema
// refuses a load past LIMITS naming the field (schema-load.ts), and the compiler checks the same
// before it allocates a step (compile.ts).
import { LIMITS } from './limits.ts'
import type { Profile } from './schema-profile.ts'

/** What planIssues reads of a load. */
export interface PlannedLoad {
  profile: Profile
  connections: number
  duration?: number | undefined
}

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
export function planIssues(load: PlannedLoad): LoadIssue[] {
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

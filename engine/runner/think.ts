// Think time (engine/config/schema.ts, ThinkSchema): the pause a connection takes between a response
// and its next request. Drawn from a small seeded generator per connection, so a run with the same
// load.seed pauses the same way; the pause comes before the next request is sent, so it is never
// part of a latency (which starts at the send).
import type { Think } from '../config/schema.ts'
import { seededRandom } from '../metrics/random.ts'

export interface ThinkPlan {
  /** The target's pause after every response. */
  target: Think | undefined
  /** A scenario step's own pause after its response (instead of the target's). */
  steps: (Think | undefined)[]
  seed: number
}

/** Whether a target pauses at all (plain targets without think time never pay for the check). */
export function hasThink(plan: ThinkPlan): boolean {
  return plan.target !== undefined || plan.steps.some((t) => t !== undefined)
}

/** One connection's pauses: `next(step)` is the pause in ms after a response of that step (-1: none). */
export function thinkSampler(plan: ThinkPlan, connection: number): (step: number) => number {
  // A different, fixed stream per connection: connection i of every run with this seed pauses alike.
  const random = seededRandom(plan.seed ^ Math.imul(connection + 1, 0x9e3779b9))
  return (step) => {
    const t = plan.steps[step] ?? plan.target
    if (t === undefined) return 0
    if (typeof t === 'number') return t
    return t.min + random() * (t.max - t.min)
  }
}

// One agent's share of a run's load. Every step keeps its timing; its connection count (and a
// request-bound step's count) is split so the agents' shares sum exactly to the profile at every
// moment: agent i of N gets floor((c + N − 1 − i) / N) of c, the larger shares to the lower
// indexes. A share is monotone in c, so the sum of the agents' busiest moments in a second is the
// profile's busiest moment too. In rate mode agent i sends slots i, i + N, … of the one global
// send timeline, so the merged run sends at exactly the profile's rate.
import { ConfigError } from './errors.ts'
import { compilePlan, type Plan, type Step } from './compile.ts'
import type { Load } from './schema-load.ts'

export interface AgentShare {
  /** 0 … count − 1 */
  index: number
  count: number
}

/** Agent `index`'s share of `n` among `count` agents; the shares of n sum to n. */
export function shareOf(n: number, index: number, count: number): number {
  if (index >= count) return 0
  return Math.floor((n + count - 1 - index) / count)
}

/** Why this load cannot be split over `count` agents, or null. */
export function splitProblem(load: Load, count: number): string | null {
  if (!Number.isInteger(count) || count < 1) return `${count} agents: give a whole number from 1`
  if (load.rate === null) return null
  // In rate mode every agent owns every N-th send: it needs a connection wherever sends are due.
  const plan = compilePlan(load)
  const thin = plan.steps.find((s) => s.connections > 0 && s.connections < count)
  if (thin) {
    return `rate mode over ${count} agents needs at least ${count} connections wherever requests are sent (a step has ${thin.connections}): each agent sends every ${count}th request on its own connections`
  }
  return null
}

/** `plan` (compiled from `load`) as agent `share.index` runs it. */
export function splitPlan(plan: Plan, load: Load, share: AgentShare): Plan {
  const { index, count } = share
  const problem = splitProblem(load, count)
  if (problem) throw new ConfigError([{ field: 'agents.count', message: problem }])
  if (index < 0 || index >= count || !Number.isInteger(index)) {
    throw new RangeError(`agent index ${index} is outside 0…${count - 1}`)
  }
  const openLoop = load.rate !== null
  const steps: Step[] = []
  for (const s of plan.steps) {
    const connections = shareOf(s.connections, index, count)
    // Open loop: the send schedule stays the whole run's (a request-bound step lasts its count /
    // rate); the runner takes this agent's slots of it (runner/pacer.ts). Closed loop: a
    // request-bound step's requests go to the agents with a connection in it.
    if (s.requests === null || openLoop) {
      steps.push({ ...s, connections })
      continue
    }
    const requests = shareOf(s.requests, index, Math.min(count, s.connections))
    if (requests > 0) steps.push({ ...s, connections, requests })
  }
  let maxRequests: number | null = plan.maxRequests
  if (plan.maxRequests !== null && !openLoop) {
    // The run's request count goes to the agents that can still send when the profile ends.
    const last = plan.steps.at(-1)
    const end = last && last.connections > 0 ? last.connections : plan.maxConnections
    maxRequests = shareOf(plan.maxRequests, index, Math.min(count, end))
  }
  // Nothing to send: an empty plan ends the agent's segment at once (runner/driver.ts).
  const idle = maxRequests === 0
  return {
    phases: plan.phases,
    warmup: plan.warmup,
    steps: idle ? [] : steps,
    maxRequests,
    seconds: plan.seconds,
    maxConnections: Math.max(0, ...steps.map((s) => s.connections)),
  }
}

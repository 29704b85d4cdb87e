// A run that opens many connections on a keep-alive config (issue 28, Must 1): when a target's
// server ends connections (Connection: close, HTTP/1.0, a body that ends at close) or they fail,
// each request may wait for a new connection, and throughput is low for a reason the figures do not
// show. More than one connection opened per 100 requests, beyond the connections the profile asks
// for, is said in the run's warnings (Tomcat's 100 requests per connection is at that line, not past it).
import type { TargetRoundSummary } from '../api/types.ts'
import { compilePlan } from '../config/compile.ts'
import type { RunConfig } from '../config/schema.ts'
import type { NewWarning } from '../store/warnings.ts'

/** Requests per connection reopened below which a run says so. */
export const REQUESTS_PER_CONNECTION = 100

/**
 * HTTP/2: a server whose SETTINGS_MAX_CONCURRENT_STREAMS is below the target's `streams` caps what
 * is in flight (the client never opens more; issue 31, item 2): said once per target and round.
 */
export function streamLimitWarning(config: RunConfig, r: TargetRoundSummary): NewWarning | null {
  const index = config.targets.findIndex((t) => t.name === r.target)
  const streams = config.targets[index]?.streams ?? 1
  if (index < 0 || r.streamLimit === undefined || r.streamLimit >= streams) return null
  return {
    kind: 'connections',
    field: `targets.${index}.streams`,
    target: r.target,
    source: 'load',
    message: `${r.target} #${r.round}: the server allows ${r.streamLimit} concurrent stream${r.streamLimit === 1 ? '' : 's'} per connection (SETTINGS_MAX_CONCURRENT_STREAMS), below streams: ${streams}, so at most ${r.streamLimit} of them were in flight on each connection`,
    stopped: false,
  }
}

/** The warning a target's round gives, or null. */
export function reconnectWarning(config: RunConfig, r: TargetRoundSummary): NewWarning | null {
  const index = config.targets.findIndex((t) => t.name === r.target)
  if (index < 0 || !config.load.keepAlive || !r.connect) return null
  const plan = compilePlan(config.load)
  const base = Math.max(plan.maxConnections, config.load.maxConnections ?? 0)
  const opened = r.connect.count
  const requests = r.requests + (r.errors.inflight ?? 0)
  if (opened - base <= requests / REQUESTS_PER_CONNECTION) return null
  const n = (x: number) => x.toLocaleString('en-US')
  return {
    kind: 'connections',
    field: `targets.${index}`,
    target: r.target,
    source: 'load',
    message: `${r.target} #${r.round} opened ${n(opened)} connections for ${n(requests)} requests with keep-alive on (more than one per ${REQUESTS_PER_CONNECTION} requests): the server ended them (Connection: close, HTTP/1.0, a body that ends at close) or they failed, so requests waited for new connections and throughput is lower for it`,
    stopped: false,
  }
}

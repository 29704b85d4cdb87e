// The live view's "remaining" line, from the run's own config as well as its progress events: a
// time-bound run is never called "request-bound" because no second has arrived yet (while load
// agents join and wait at the barrier, say). Pure: the test feeds it configs.
import { compilePlan } from '#engine/config/compile.ts'
import type { RunConfig } from '#engine/config/schema.ts'
import { runSeconds } from '#engine/config/segments.ts'
import { duration } from '../../lib/format.ts'

/** The run's whole length in seconds (cool-downs included); null when requests, not time, end it. */
export function plannedSeconds(config: RunConfig): number | null {
  try {
    return runSeconds(config, compilePlan(config.load))
  } catch {
    return null // a config this version cannot compile (an imported run): the events tell
  }
}

export function remainingText(o: {
  /** From the progress events (null before the first, or request-bound). */
  total: number | null
  elapsed: number
  /** A second of load has arrived. */
  started: boolean
  running: boolean
  config: RunConfig | null
}): string {
  const total = o.total ?? (o.config ? plannedSeconds(o.config) : null)
  if (total !== null) {
    if (!o.started && o.running) return `${duration(total)} of load once it starts`
    return `${duration(Math.max(0, total - o.elapsed))} remaining`
  }
  if (!o.config && !o.started) return ''
  return 'request-bound: ends when the requests are done'
}

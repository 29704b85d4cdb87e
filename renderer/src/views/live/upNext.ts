// What comes next in a live run, and when: between two segments (targets or rounds) the runner
// cools down for `cooldownSeconds` and sends no progress, so the view works out the pause itself
// from the config's segment order (the order the runner uses) and the time since the last second.
import { orderSegments } from '#engine/config/segments.ts'
import type { RunConfig } from '#engine/config/schema.ts'

/** Without an event for this long, the current segment is over (one arrives every second). */
export const QUIET_MS = 1600

export interface UpNext {
  target: string
  round: number
  /** Which segment of how many it is (1-based). */
  index: number
  of: number
  /** Seconds until it starts, about (the runner starts a segment on a whole second). */
  inSeconds: number
}

/**
 * The segment after the one that sent the last event, when the run is between two segments: no
 * event for QUIET_MS and one to come. Null while a segment runs, or after the last.
 */
export function upNext(
  config: Pick<RunConfig, 'targets' | 'rounds' | 'schedule' | 'scheduleSeed' | 'cooldownSeconds'>,
  current: { target: string; round: number },
  quietMs: number,
): UpNext | null {
  if (quietMs < QUIET_MS) return null
  const segments = orderSegments(config)
  const at = segments.findIndex((s) => s.target === current.target && s.round === current.round)
  const next = segments[at + 1]
  if (at < 0 || !next) return null
  // The last event came at most a second before the segment ended; then the cool-down runs.
  const inSeconds = Math.max(0, Math.ceil(config.cooldownSeconds + 1 - quietMs / 1000))
  return { target: next.target, round: next.round, index: at + 2, of: segments.length, inSeconds }
}

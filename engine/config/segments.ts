// The (target, round) segments of a run in the order they run. A pure function of the config: the
// runner runs them in this order and the store writes one run_targets row per segment.
import type { Plan } from './compile.ts'
import type { RunConfig } from './schema.ts'

export interface Segment {
  index: number
  targetIndex: number
  target: string
  round: number
}

/**
 * The order targets and rounds run in. Sequential: every round of A, then every round of B.
 * Interleaved: A, B, A, B… so slow drift of the machine (thermal, noisy neighbours) falls on both.
 */
export function orderSegments(config: Pick<RunConfig, 'targets' | 'rounds' | 'schedule'>): Segment[] {
  const out: Segment[] = []
  const add = (targetIndex: number, round: number) =>
    out.push({ index: out.length, targetIndex, target: config.targets[targetIndex]!.name, round })
  if (config.schedule === 'interleaved') {
    for (let r = 1; r <= config.rounds; r++) for (let t = 0; t < config.targets.length; t++) add(t, r)
  } else {
    for (let t = 0; t < config.targets.length; t++) for (let r = 1; r <= config.rounds; r++) add(t, r)
  }
  return out
}

/** The whole run's length in seconds, cooldowns included; null when it is request-bound. */
export function runSeconds(
  config: Pick<RunConfig, 'targets' | 'rounds' | 'cooldownSeconds'>,
  plan: Pick<Plan, 'seconds'>,
): number | null {
  if (plan.seconds === null) return null
  const n = config.targets.length * config.rounds
  return n * plan.seconds + (n - 1) * config.cooldownSeconds
}

// Templates in seconds instead of minutes, for the tests that run every one (engine/study/
// templates.slow.test.ts, templates.docker.test.ts) and the guide's screenshots
// (bench/results/guide.screens.ts).
import { expect } from 'vitest'
import type { RunSummary } from '../api/types.ts'
import type { RunConfig } from '../config/schema.ts'
import { changesStack, type StackSetting } from '../config/sweep.ts'
import type { StackControl } from '../stacks/policy.ts'

/**
 * The same study in seconds instead of minutes: 1 s windows, phases and ramps cut to fractions of
 * a second, one round, at most 8 connections, shorter think times, and a sweep's first two values
 * (its first only where a value restarts a stack).
 */
export function shortenTemplate(
  c: RunConfig,
  url: (u: string) => string,
  /**
   * Keep the targets' stacks and monitors, or put this monitor in their place. `restartWarmup`:
   * at most this many seconds of the template's warm-up after a stack restarted for a value (1 s
   * where nothing restarts; a JVM just restarted at half a CPU answers nothing in its first 2 s).
   */
  keep: { stack: boolean; monitors: boolean; monitor?: unknown; restartWarmup?: number },
) {
  const p = c.load.profile
  const profile =
    p.kind === 'phases'
      ? {
          ...p,
          phases: p.phases.map((ph) =>
            ph.requests !== undefined
              ? { ...ph, requests: Math.max(4, Math.round(ph.requests / 100)) }
              : { ...ph, duration: 0.5 },
          ),
        }
      : p.kind === 'ramp'
        ? {
            ...p,
            from: Math.min(p.from ?? 1, 8),
            to: Math.min(p.to ?? 8, 8),
            ...(p.rampSeconds ? { rampSeconds: 1 } : {}),
            ...(p.stepSeconds ? { stepSize: 4, stepSeconds: 0.5, pauseSeconds: 0.25 } : {}),
            holdSeconds: 0.5,
          }
        : p.kind === 'burst'
          ? { ...p, burstSeconds: 0.5, idleSeconds: 0.25, connections: Math.min(p.connections ?? 8, 8) }
          : p
  const { duration: _d, requests: _r, ...load } = c.load
  const ownWindow = p.kind === 'phases' || p.kind === 'stages'
  const think = (t: RunConfig['targets'][number]['think']) =>
    t === undefined ? undefined : typeof t === 'number' ? t / 10 : { min: t.min / 10, max: t.max / 10 }
  const trim = (axis: { path: string; values: unknown[] }) => ({
    path: axis.path,
    values: axis.values.slice(0, changesStack(axis.path) ? 1 : 2),
  })
  return {
    ...c,
    targets: c.targets.map(({ monitor, stack, ...t }) => ({
      ...t,
      url: url(t.url),
      ...(t.think !== undefined ? { think: think(t.think) } : {}),
      ...(t.steps
        ? {
            steps: t.steps.map((s) => ({
              ...s,
              ...(s.think !== undefined ? { think: think(s.think) } : {}),
            })),
          }
        : {}),
      ...(keep.stack && stack ? { stack } : {}),
      ...(keep.monitors && monitor ? { monitor } : keep.monitor ? { monitor: keep.monitor } : {}),
    })),
    load: {
      ...load,
      connections: Math.min(load.connections, 8),
      // A short warm-up in every shortened run: a stack the engine just started (a cold JVM) is
      // not measured in its first second, and the engine adds no warm-up of its own.
      ...(p.kind === 'phases' ? {} : { warmupSeconds: 1 }),
      profile,
      ...(ownWindow ? {} : { duration: 1 }),
    },
    rounds: 1,
    cooldownSeconds: 0,
    ...(c.sweep
      ? {
          sweep: {
            ...trim(c.sweep),
            ...(c.sweep.by ? { by: trim(c.sweep.by) } : {}),
            warmupSeconds: Math.min(c.sweep.warmupSeconds ?? 10, keep.restartWarmup ?? 1),
          },
        }
      : {}),
  }
}

/** What every run of a shortened template must show: it ran, answered, and failed nothing. */
export function ranWell(config: RunConfig, runs: readonly RunSummary[], id: string): void {
  expect(runs.length, id).toBeGreaterThan(0)
  for (const run of runs) {
    expect(run.status, `${id}: run ${run.runId} ${run.error ?? ''}`).toBe('done')
    for (const r of run.results) {
      expect(r.ok, `${id}: ${r.target}#${r.round}`).toBeGreaterThan(0)
      const errors = Object.entries(r.errors).filter(([k]) => k !== 'inflight')
      expect(errors, `${id}: ${r.target}#${r.round}`).toEqual([])
    }
  }
  const steps = config.targets[0]?.steps
  if (steps)
    expect(
      runs[0]!.results[0]!.steps!.map((s) => s.step),
      id,
    ).toEqual(steps.map((s) => s.name))
  if (config.load.profile.kind === 'phases') {
    const phases = config.load.profile.phases.map((p) => p.name)
    expect(
      runs[0]!.results[0]!.phases.map((p) => p.phase).filter((p) => phases.includes(p)),
      id,
    ).toEqual(phases)
    for (const ph of runs[0]!.results[0]!.phases)
      expect(ph.latency.p99, id).toBeGreaterThanOrEqual(ph.latency.p95)
  }
}

/**
 * A study's stack control where no stack runs: each stack reads as stopped, and the settings the
 * study applies are recorded in `applied` (templates run against the demo target, not their stacks).
 */
export function recordedStacks(applied: StackSetting[] = []): StackControl {
  return {
    snapshot: async (name) => ({ name, running: false, native: false, env: {}, replicas: 1, port: 0 }),
    apply: async (s) => void applied.push(s),
    restore: async () => {},
  }
}

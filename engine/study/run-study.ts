// Running a sweep as a study: one run per value (or pair of values: a grid) of the configs
// engine/config/sweep.ts expands, listed together. A value that changes a target's stack restarts
// it first (the run then opens with a stated warm-up), and the study leaves every stack it touched
// as it found it: running with its earlier settings, or stopped, also when a run fails or is
// stopped (Ctrl-C) or the study is cut short by an error.
import { ConfigError } from '../config/errors.ts'
import { sloOf } from '../config/schema.ts'
import type { RunConfig } from '../config/schema.ts'
import {
  axisPosition,
  expandSweep,
  sweepAxes,
  type ExpandOptions,
  type SweepStep,
  type SweepValue,
} from '../config/sweep.ts'
import type { RunHandle, RunHooks } from '../runner/supervisor.ts'
import { launchRun, type LaunchOptions } from '../agents/launch-run.ts'
import type { StackControl } from '../stacks/policy.ts'
import type { StackSnapshot } from '../stacks/stacks.ts'
import type { Db } from '../db/db.ts'
import { addStudyRun, createStudy } from '../store/studies.ts'
import type { RunSummary } from '../api/types.ts'

export { expandSweep, type SweepStep }

/** What a study may do to the bundled stacks (the host gives it its Stacks). */
/** A study's dealings with a stack, for the CLI and the app to say. */
export type StackStep =
  | {
      type: 'restart'
      stack: string
      env: Record<string, string | number>
      replicas: number
      /** Seconds, or `auto`: found in each segment (load.warmup: auto). */
      warmupSeconds: number | 'auto'
    }
  | { type: 'restore'; stack: string; running: boolean; env: Record<string, string>; replicas: number }
  | { type: 'restore-failed'; stack: string; error: string }

export interface StudyHooks extends RunHooks {
  onRunStart?(info: {
    index: number
    point: SweepValue[]
    labels: string[]
    runId: number
    studyId: number
    handle: RunHandle
  }): void
  onStack?(step: StackStep): void
  stacks?: StackControl
}

export interface StudyResult {
  studyId: number
  runs: { point: SweepValue[]; summary: RunSummary }[]
}

/** The warm-up a step's config opens with (a restarted stack's): seconds, as the CLI states it. */
function warmupOf(config: RunConfig): number | 'auto' {
  if (config.load.warmup === 'auto') return 'auto'
  const p = config.load.profile
  if (p.kind === 'phases')
    return p.phases.filter((ph) => ph.warmup).reduce((s, ph) => s + (ph.duration ?? 0), 0)
  return config.load.warmupSeconds
}

export async function runStudy(
  db: Db,
  dbPath: string,
  config: RunConfig,
  hooks: StudyHooks = {},
  opts: LaunchOptions = {},
  expand: ExpandOptions = {},
): Promise<StudyResult> {
  const steps = expandSweep(config, expand)
  const sweep = config.sweep!
  const stacks = hooks.stacks
  if (steps.some((s) => s.stacks.length > 0) && !stacks) {
    throw new ConfigError([
      {
        field: 'sweep.path',
        message: "sweeping a stack's settings needs the stacks launcher (cannonade stacks)",
      },
    ])
  }
  const axes = sweepAxes(sweep)
  // The study is recorded once its first run has started: a refused start leaves nothing behind.
  let studyId: number | null = null
  const runs: StudyResult['runs'] = []
  const snapshots = new Map<string, StackSnapshot>()
  try {
    for (const [index, step] of steps.entries()) {
      for (const s of step.stacks) {
        if (!snapshots.has(s.name)) snapshots.set(s.name, await stacks!.snapshot(s.name))
        hooks.onStack?.({
          type: 'restart',
          stack: s.name,
          env: s.env,
          replicas: s.replicas,
          warmupSeconds: warmupOf(step.config),
        })
        await stacks!.apply(s)
      }
      const handle = await launchRun(db, dbPath, step.config, hooks, opts)
      studyId ??= createStudy(db, { name: config.name, axes, slo: sweep.slo ? sloOf(sweep.slo) : null })
      addStudyRun(db, studyId, handle.runId, step.point, axisPosition(axes[0]!, step.point[0]!))
      hooks.onRunStart?.({
        index,
        point: step.point,
        labels: step.labels,
        runId: handle.runId,
        studyId,
        handle,
      })
      const summary = await handle.done
      runs.push({ point: step.point, summary })
      if (summary.status !== 'done') break
      if (index < steps.length - 1 && config.cooldownSeconds > 0)
        await new Promise((r) => setTimeout(r, config.cooldownSeconds * 1000))
    }
  } finally {
    // Whatever ended the study, the stacks go back to how it found them, each on its own.
    for (const snapshot of snapshots.values()) {
      hooks.onStack?.({
        type: 'restore',
        stack: snapshot.name,
        running: snapshot.running,
        env: snapshot.env,
        replicas: snapshot.replicas,
      })
      try {
        await stacks!.restore(snapshot)
      } catch (err) {
        hooks.onStack?.({
          type: 'restore-failed',
          stack: snapshot.name,
          error: err instanceof Error ? err.message : String(err),
        })
      }
    }
  }
  return {
    studyId:
      studyId ?? createStudy(db, { name: config.name, axes, slo: sweep.slo ? sloOf(sweep.slo) : null }),
    runs,
  }
}

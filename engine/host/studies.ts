// The engine host's studies: starting a sweep as a study (one run after another, its stacks
// restarted and restored, its steps told on the bus) and the Api's `studies` operations.
import type { Api } from '../api/api.ts'
import { ApiError } from '../api/errors.ts'
import { parseArgs } from '../api/schemas.ts'
import type { StackLogEvent } from '../api/types.ts'
import type { LaunchOptions } from '../agents/launch-run.ts'
import { ConfigError } from '../config/errors.ts'
import type { RunConfig } from '../config/schema.ts'
import { warmupText, type ExpandOptions } from '../config/sweep.ts'
import type { RunHandle, RunHooks } from '../runner/supervisor.ts'
import type { Stacks } from '../stacks/stacks.ts'
import type { Db } from '../db/db.ts'
import { listStudies } from '../store/studies.ts'
import { studyResults } from '../study/results.ts'
import { stackControl } from '../stacks/policy.ts'
import { runStudy } from '../study/run-study.ts'
import { listTemplates } from '../study/templates.ts'
import type { HostBus } from './bus.ts'
import type { RunLogEvent, StudyEvent } from './local-capabilities.ts'

export interface StudiesDeps {
  db: Db
  dbPath: string
  bus: HostBus
  active: Map<number, RunHandle>
  stacks: Stacks
  runOptions: () => LaunchOptions
}

export interface HostStudies {
  /** A sweep: one run after another as a study; answers once the first run has started. */
  start(
    config: RunConfig,
    hooks: RunHooks,
    allowConcurrent: boolean,
  ): Promise<{ runId: number; studyId: number }>
  /** Studies still going on: closing the engine waits for them to put their stacks back. */
  readonly running: Set<Promise<unknown>>
  readonly api: Api['studies']
}

export function createStudies(d: StudiesDeps): HostStudies {
  const { db, stacks, active } = d
  const { bus } = d.bus
  const study = (e: StudyEvent) => bus.emit('study', e)
  const expandOptions: ExpandOptions = {
    stackUrl: (name) => stacks.list().find((s) => s.name === name)?.url ?? null,
  }
  const studies = new Set<Promise<unknown>>()

  const start = (config: RunConfig, hooks: RunHooks, allowConcurrent: boolean) =>
    new Promise<{ runId: number; studyId: number }>((resolve, reject) => {
      let studyId: number | null = null
      const running = runStudy(
        db,
        d.dbPath,
        config,
        {
          ...hooks,
          onRunStart: ({ runId, handle, index, point, labels, ...s }) => {
            active.set(runId, handle)
            study({ type: 'run', studyId: s.studyId, index, point, labels, runId })
            if (studyId === null) resolve({ runId, studyId: s.studyId })
            studyId = s.studyId
          },
          onStack: (step) => {
            study(step)
            const line =
              step.type === 'restart'
                ? `restarting for the study with ${JSON.stringify(step.env)}${step.replicas > 1 ? `, ${step.replicas} replicas` : ''}; the run opens with ${warmupText(step.warmupSeconds)}`
                : step.type === 'restore'
                  ? step.running
                    ? `the study is over: restoring the settings it found (${JSON.stringify(step.env)})`
                    : 'the study is over: stopping it, as it was not running before'
                  : `could not be restored: ${step.error}`
            bus.emit('stack-log', { type: 'stack-log', stack: step.stack, line } satisfies StackLogEvent)
          },
          stacks: stackControl(stacks),
        },
        { ...d.runOptions(), allowConcurrent },
        expandOptions,
      ).then(
        (r) => study({ type: 'study-ended', studyId: r.studyId, error: null }),
        (err: unknown) => {
          const error =
            err instanceof ConfigError
              ? new ApiError('bad-input', err.message, err.field)
              : err instanceof Error
                ? err
                : new Error(String(err))
          if (studyId === null) return reject(error)
          bus.emit('run-log', {
            type: 'run-log',
            level: 'error',
            message: error.message,
          } satisfies RunLogEvent)
          study({ type: 'study-ended', studyId, error: error.message })
        },
      )
      studies.add(running)
      void running.finally(() => studies.delete(running))
    })

  return {
    start,
    running: studies,
    api: {
      async list() {
        return listStudies(db)
      },
      async get(studyId) {
        return studyResults(db, parseArgs('studies:get', [studyId])[0])
      },
      async templates() {
        return listTemplates().map(({ id, name, description, config }) => ({ id, name, description, config }))
      },
    },
  }
}

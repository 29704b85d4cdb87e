// WORKAROUND, to delete once the host runs studies itself: `host.runs.start` runs a config with
// `sweep` as one plain run (engine/host.ts calls startRun, not runStudy), so the app could not
// start a study. This wrapper, applied where a transport serves the host (`cannonade serve`, the
// Electron utility process, the e2e app), turns such a start into one run per swept value through
// the host's own `runs.start` (so preflight, events, stop and `runs.active` stay the host's) and
// records the study the way engine/study/sweep.ts does: a `studies` row, and `study_id` plus
// `sweep_value` on each run. The first run's id is the answer; the rest follow after the cooldown.
// A stack-environment sweep (POOL_SIZE…) needs the stacks launcher's restart-with-env, which the
// Api does not offer: it is refused with a message naming sweep.path (the CLI runs it).
import { ApiError, type Api } from '../api.ts'
import { ConfigError } from '../config/errors.ts'
import type { EngineHost } from '../host.ts'
import { openDb, type Db } from '../store/db.ts'
import { expandSweep, type SweepStep } from '../study/sweep.ts'

interface ActiveStudy {
  studyId: number
  steps: SweepStep[]
  /** Index of the step that runs now (or ran last, while the cooldown timer waits). */
  index: number
  runId: number
  running: boolean
  cancelled: boolean
  timer: ReturnType<typeof setTimeout> | null
  cooldownMs: number
}

export interface SweepingApi {
  api: Api
  close(): void
}

export function withSweeps(host: EngineHost, log: (line: string) => void = () => {}): SweepingApi {
  let db: Db | null = null
  const dbOf = (): Db => (db ??= openDb(host.dbPath))
  const studies = new Set<ActiveStudy>()

  const attach = (study: ActiveStudy, runId: number, value: number) => {
    dbOf()
      .prepare('UPDATE runs SET study_id = ?, sweep_value = ? WHERE id = ?')
      .run(study.studyId, value, runId)
  }

  const next = async (study: ActiveStudy) => {
    study.timer = null
    if (study.cancelled) return void studies.delete(study)
    const step = study.steps[study.index]
    if (!step) return void studies.delete(study)
    const { runId } = await host.runs.start(step.config)
    study.runId = runId
    study.running = true
    attach(study, runId, step.value)
  }

  const offEnded = host.runs.onEnded((e) => {
    for (const study of studies) {
      if (!study.running || study.runId !== e.runId) continue
      study.running = false
      // As runStudy: a value that did not finish (stopped, failed) ends the study.
      if (e.status !== 'done' || study.cancelled || study.index + 1 >= study.steps.length) {
        studies.delete(study)
        continue
      }
      study.index++
      study.timer = setTimeout(() => {
        next(study).catch((err: unknown) => {
          studies.delete(study)
          log(
            `study ${study.studyId}: could not start the run for value ${study.steps[study.index]?.value}: ${err instanceof Error ? err.message : String(err)}`,
          )
        })
      }, study.cooldownMs)
    }
  })

  const start: Api['runs']['start'] = async (raw) => {
    const validation = await host.runs.validate(raw)
    const config = validation.config
    const sweep = config?.sweep
    if (!config || !sweep) return host.runs.start(raw)
    let steps: SweepStep[]
    try {
      steps = expandSweep(config)
    } catch (err) {
      if (err instanceof ConfigError) throw new ApiError('bad-input', err.message, err.field)
      throw err
    }
    if (steps.some((s) => s.stack)) {
      throw new ApiError(
        'bad-input',
        `sweep.path: ${sweep.path} restarts a stack with each value, which only the command line does for now (cannonade run CONFIG.yaml)`,
        'sweep.path',
      )
    }
    const first = steps[0]!
    const { runId } = await host.runs.start(first.config)
    const info = dbOf()
      .prepare(`INSERT INTO studies (name, kind, path, "values", created_at) VALUES (?, 'sweep', ?, ?, ?)`)
      .run(config.name, sweep.path, JSON.stringify(sweep.values), new Date().toISOString())
    const study: ActiveStudy = {
      studyId: Number(info.lastInsertRowid),
      steps,
      index: 0,
      runId,
      running: true,
      cancelled: false,
      timer: null,
      cooldownMs: config.cooldownSeconds * 1000,
    }
    attach(study, runId, first.value)
    studies.add(study)
    return { runId }
  }

  const stop: Api['runs']['stop'] = async (runId) => {
    for (const study of studies) {
      if (study.runId !== runId) continue
      study.cancelled = true
      // Between two values (the cooldown): nothing runs, so stopping means not starting the next.
      if (study.timer) {
        clearTimeout(study.timer)
        studies.delete(study)
        return
      }
    }
    return host.runs.stop(runId)
  }

  const api: Api = { ...host, runs: { ...host.runs, start, stop } }
  return {
    api,
    close() {
      offEnded()
      for (const study of studies) if (study.timer) clearTimeout(study.timer)
      studies.clear()
      db?.close()
      db = null
    },
  }
}

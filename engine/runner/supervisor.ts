// The parent side of a run: gathers its environment, creates its rows, forks the runner process,
// relays its events, and gives the run exactly one end (CONTRIBUTING.md, Process model): done,
// aborted (stopped, or the worker died) or failed. A dead worker is an end event, never a spinner
// forever.
import { fork, execFileSync, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { compilePlan } from '../config/compile.ts'
import type { RunConfig } from '../config/schema.ts'
import { evaluateThresholds } from '../metrics/thresholds.ts'
import type { Db } from '../store/db.ts'
import {
  createRun,
  finishRun,
  generatorHealth,
  setWorkerPid,
  summarizeMissingSegments,
} from '../store/runs.ts'
import { HistoryStore } from '../store/queries.ts'
import type { ProgressEvent, RunEndedEvent, RunSummary, TargetRoundSummary } from '../api/types.ts'
import type { FromRunner, ToRunner } from './protocol.ts'
import { gatherEnvironment } from './environment.ts'
import { ResourceRecorder } from './resources.ts'
import { Stacks, stackStateDir } from '../stacks/stacks.ts'
import { expandBlocks } from '../store/blocks.ts'
import { recordLedgerRows } from '../store/ledger.ts'
import { childEnv } from '../env.ts'

export interface RunHooks {
  onStarted?(info: { runId: number; t0Epoch: number; pid: number }): void
  onProgress?(event: ProgressEvent): void
  onSegment?(summary: TargetRoundSummary): void
  onLog?(level: 'info' | 'warn' | 'error', message: string): void
  onEnded?(event: RunEndedEvent): void
}

export interface RunOptions {
  /** Pin the runner process to this CPU (Linux taskset), so a target on another core is not disturbed. */
  cpu?: number
  /** How long a stop may take before the runner is killed. */
  stopGraceMs?: number
  /** Cloud Foundry secrets for the targets' monitors (never stored in the config). */
  secrets?: Record<string, string>
}

export interface RunHandle {
  runId: number
  correlationPrefix: string
  pid: number
  stop(): void
  /** Kill the runner outright (tests of crash handling use this). */
  kill(signal?: NodeJS.Signals): void
  done: Promise<RunSummary>
}

const WORKER = fileURLToPath(new URL('./worker.ts', import.meta.url))

/** Start a run; resolves once its rows exist and the runner process is forked. */
export async function startRun(
  db: Db,
  dbPath: string,
  config: RunConfig,
  hooks: RunHooks = {},
  opts: RunOptions = {},
): Promise<RunHandle> {
  const plan = compilePlan(config.load)
  // Monitors and the environment record find a `stack:` in this data folder's stacks.
  const stacks = new Stacks({ stateDir: stackStateDir(dbPath) })
  // Asking docker about the targets is asynchronous and happens before the rows' transaction.
  const environment = await gatherEnvironment(
    config,
    opts.cpu !== undefined ? { generatorCpu: opts.cpu } : {},
    stacks,
  )
  const { runId, prefix } = createRun(db, config, plan.phases, environment)
  // execArgv: none of the parent's loader flags (a test runner's, say); Node ≥ 22.18 strips types itself.
  // env: the runner gets the config by message and needs no secret (engine/env.ts).
  const child: ChildProcess = fork(WORKER, [], {
    execArgv: [],
    env: childEnv({ CANNONADE_DEBUG_CPU: process.env.CANNONADE_DEBUG_CPU }),
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    serialization: 'advanced',
  })
  const pid = child.pid ?? -1
  if (opts.cpu !== undefined && pid > 0 && process.platform === 'linux') {
    try {
      execFileSync('taskset', ['-a', '-p', '-c', String(opts.cpu), String(pid)], { stdio: 'ignore' })
    } catch {
      hooks.onLog?.('warn', `could not pin the runner to CPU ${opts.cpu} (is taskset installed?)`)
    }
  }
  if (pid > 0) setWorkerPid(db, runId, pid)
  // The targets' own CPU and memory, on the run's timeline, from the moment the runner exists.
  const resources = new ResourceRecorder(db, runId, config, {
    secrets: opts.secrets,
    stacks,
    onLog: (level, message) => hooks.onLog?.(level, message),
  })
  resources.start()

  let ended = false
  let doneMsg: Extract<FromRunner, { type: 'done' }> | null = null
  let failure: string | null = null
  let stopTimer: NodeJS.Timeout | null = null
  let resolveDone: (s: RunSummary) => void = () => {}
  let rejectDone: (e: Error) => void = () => {}
  const done = new Promise<RunSummary>((res, rej) => {
    resolveDone = res
    rejectDone = rej
  })

  child.on('message', (msg: FromRunner) => {
    switch (msg.type) {
      case 'started':
        resources.setT0(msg.t0Epoch)
        hooks.onStarted?.(msg)
        break
      case 'progress':
        resources.generator(pid, msg.event.point.generatorCpu)
        hooks.onProgress?.({ ...msg.event, resources: resources.drain() })
        break
      case 'segment':
        hooks.onSegment?.(msg.summary)
        break
      case 'log':
        hooks.onLog?.(msg.level, msg.message)
        break
      case 'done':
        doneMsg = msg
        break
      case 'failed':
        failure = msg.error
        break
    }
  })

  const end = async (code: number | null, signal: NodeJS.Signals | null) => {
    if (ended) return
    ended = true
    if (stopTimer) clearTimeout(stopTimer)
    await resources.stop()
    try {
      let status: RunEndedEvent['status']
      let error: string | null = null
      if (doneMsg && !failure) {
        status = doneMsg.stopped ? 'aborted' : 'done'
        if (doneMsg.stopped) error = 'stopped before the end of its window'
      } else if (failure) {
        status = 'failed'
        error = failure
      } else {
        status = 'aborted'
        error = `the runner process ended unexpectedly (${signal ? `signal ${signal}` : `exit code ${code}`}); samples written before it ended are kept`
      }
      // Blocks the runner committed but did not expand (it was killed mid-segment) become rows here.
      expandBlocks(db, runId)
      if (status !== 'done') await summarizeMissingSegments(db, runId)
      recordLedgerRows(db, runId)
      const partial = new HistoryStore(db).getRun(runId)
      const generator = generatorHealth(doneMsg?.generator.cpu ?? [])
      const thresholds = evaluateThresholds(config.thresholds, partial.results)
      finishRun(db, runId, status, { error, generator, thresholds })
      const summary = new HistoryStore(db).getRun(runId)
      hooks.onEnded?.({ type: 'ended', runId, status, error })
      resolveDone(summary)
    } catch (err) {
      rejectDone(err instanceof Error ? err : new Error(String(err)))
    }
  }
  child.on('exit', (code, signal) => void end(code, signal))
  child.on('error', (err) => {
    failure ??= `could not start the runner process: ${err.message}`
    void end(null, null)
  })

  const message: ToRunner = { type: 'start', runId, dbPath, config, plan, correlationPrefix: prefix }
  child.send(message)

  return {
    runId,
    correlationPrefix: prefix,
    pid,
    stop() {
      if (ended || !child.connected) return
      child.send({ type: 'stop' } satisfies ToRunner)
      stopTimer ??= setTimeout(() => child.kill('SIGKILL'), opts.stopGraceMs ?? 15_000)
    },
    kill(signal = 'SIGKILL') {
      child.kill(signal)
    },
    done,
  }
}

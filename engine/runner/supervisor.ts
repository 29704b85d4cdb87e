// The parent side of a run: gathers its environment, creates its rows, forks the runner process,
// relays its events, and gives the run exactly one end (CONTRIBUTING.md, Process model): done,
// aborted (stopped, or the worker died) or failed (a disk that filled up). A dead or silent worker
// is an end event, never a spinner forever; a run whose supervisor itself dies is ended by the
// next process to open the database (store/recover.ts), which is why the run records its owner.
// The run is marked ended as soon as its window is over: its ledger blocks become rows afterwards,
// in the background (store/expander.ts), and readers read both meanwhile.
import { fork, execFileSync, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { ApiError } from '../api/errors.ts'
import { compilePlan } from '../config/compile.ts'
import { resolveSecrets, secretLookup } from '../config/secret-vars.ts'
import type { RunConfig } from '../config/schema.ts'
import { evaluateThresholds } from '../metrics/thresholds.ts'
import type { Db } from '../store/db.ts'
import {
  createRun,
  finishRun,
  generatorHealth,
  setWorkerPid,
  runSharedWith,
  sharedHealth,
  summarizeMissingSegments,
} from '../store/runs.ts'
import { HistoryStore } from '../store/queries.ts'
import type {
  AgentsEvent,
  ProgressEvent,
  RunEndedEvent,
  RunSummary,
  RunWarningEvent,
  TargetRoundSummary,
} from '../api/types.ts'
import type { AgentShare, EncodedSecond, EncodedSegment, FromRunner, ToRunner } from './protocol.ts'
import { splitPlan } from '../config/split.ts'
import { gatherEnvironment } from './environment.ts'
import { ResourceRecorder } from './resources.ts'
import { Stacks, stackStateDir } from '../stacks/stacks.ts'
import { recordLedgerRows } from '../store/retention.ts'
import { childEnv } from '../env.ts'
import { LedgerExpander } from '../store/expander.ts'
import { processStart, thisProcess, type ProcessRef } from '../store/owner.ts'
import { ensureReserve, releaseReserve, storageFailure } from '../store/disk.ts'

export interface RunHooks {
  onStarted?(info: { runId: number; t0Epoch: number; pid: number }): void
  onProgress?(event: ProgressEvent): void
  onSegment?(summary: TargetRoundSummary): void
  onLog?(level: 'info' | 'warn' | 'error', message: string): void
  /** A monitor could not read its source (stored with the run too). */
  onWarning?(event: RunWarningEvent): void
  onEnded?(event: RunEndedEvent): void
  /** A run of load agents (engine/agents/): the agents as they join, get ready, end or are lost. */
  onAgents?(event: AgentsEvent): void
  /** Agent mode (RunOptions.agent): each second and segment as encoded statistics. */
  onEncodedSecond?(second: EncodedSecond): void
  onEncodedSegment?(segment: EncodedSegment, summary: TargetRoundSummary): void
  /** Agent mode: the segment's load started at `atMs` (wall clock, ms). */
  onSegmentStarted?(segment: number, atMs: number): void
}

/** A runner that runs one load agent's share of a run (engine/agents/agent.ts). */
export interface AgentRunOptions {
  share: AgentShare
  /** The run's prefix: every agent's ids are `<prefix>-<seq>`, their seqs partitioned by index. */
  correlationPrefix: string
  /** The runner waits at each segment's barrier: resolve with its release, or null to stop. */
  barrier(segment: number): Promise<{ atMs: number; startSecond: number } | null>
}

export interface RunOptions {
  /** Pin the runner process to this CPU (Linux taskset), so a target on another core is not disturbed. */
  cpu?: number
  /** How long a stop may take before the runner is killed. */
  stopGraceMs?: number
  /** A runner silent for this long (no progress, no heartbeat) is killed and the run aborted. */
  silenceMs?: number
  /** Cloud Foundry secrets for the targets' monitors (never stored in the config). */
  secrets?: Record<string, string>
  /** Start even while another run is going on this database (both runs then say so). */
  allowConcurrent?: boolean
  /** The process recorded as the run's owner (default: this one). */
  owner?: ProcessRef
  /** Expands the ended run's ledger blocks in the background (default: one of its own). */
  expander?: LedgerExpander
  /** Run one agent's share of a distributed run (engine/agents/). */
  agent?: AgentRunOptions
  /** The Docker host setting: where docker monitors, stacks and the environment find Docker. */
  dockerHost?: string
}

export interface RunHandle {
  runId: number
  correlationPrefix: string
  pid: number
  stop(): void
  /** Kill the runner outright (tests of crash handling use this). */
  kill(signal?: NodeJS.Signals): void
  /** The run's end: resolves as soon as the run is marked ended. */
  done: Promise<RunSummary>
  /** Resolves once the run's requests are all `samples` rows (after `done`). */
  stored: Promise<void>
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
  // The runner's copy has the targets' secret values in it; what is stored keeps the `${name}`s.
  const sendable = resolveSecrets(config, secretLookup(opts.secrets))
  const whole = compilePlan(config.load)
  const plan = opts.agent ? splitPlan(whole, config.load, opts.agent.share) : whole
  // Monitors and the environment record find a `stack:` in this data folder's stacks.
  const stacks = new Stacks({ stateDir: stackStateDir(dbPath), dockerHost: () => opts.dockerHost })
  // Asking docker about the targets is asynchronous and happens before the rows' transaction.
  const environment = await gatherEnvironment(
    config,
    opts.cpu !== undefined ? { generatorCpu: opts.cpu } : {},
    stacks,
    opts.dockerHost,
  )
  // A few MB kept back, so that a run that fills the disk can still write its end.
  ensureReserve(dbPath)
  let created: ReturnType<typeof createRun>
  try {
    created = createRun(db, config, plan.phases, environment, {
      owner: opts.owner ?? thisProcess(),
      allowConcurrent: opts.allowConcurrent ?? false,
      ...(opts.agent ? { correlationPrefix: opts.agent.correlationPrefix } : {}),
    })
  } catch (err) {
    const disk = storageFailure(err, dbPath)
    throw disk ? new ApiError('unavailable', `the run could not be created: ${disk}`) : err
  }
  const { runId, prefix } = created
  // execArgv: none of the parent's loader flags (a test runner's, say); Node ≥ 22.18 strips types itself.
  // env: the runner gets the config by message and needs no secret (engine/env.ts).
  const child: ChildProcess = fork(WORKER, [], {
    execArgv: [],
    env: childEnv({
      CANNONADE_DEBUG_CPU: process.env.CANNONADE_DEBUG_CPU,
      CANNONADE_DEBUG: process.env.CANNONADE_DEBUG,
      CANNONADE_WRITER_TIMEOUT_MS: process.env.CANNONADE_WRITER_TIMEOUT_MS,
    }),
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    serialization: 'advanced',
  })
  const pid = child.pid ?? -1
  if (opts.cpu !== undefined && pid > 0 && process.platform === 'linux') {
    try {
      execFileSync('taskset', ['-a', '-p', '-c', String(opts.cpu), String(pid)], {
        stdio: 'ignore',
        timeout: 5000,
      })
    } catch {
      hooks.onLog?.('warn', `could not pin the runner to CPU ${opts.cpu} (is taskset installed?)`)
    }
  }
  if (pid > 0) setWorkerPid(db, runId, { pid, start: processStart(pid) })
  // The targets' own CPU and memory, on the run's timeline, from the moment the runner exists.
  const resources = new ResourceRecorder(db, runId, config, {
    secrets: opts.secrets,
    stacks,
    dockerHost: opts.dockerHost,
    onLog: (level, message) => hooks.onLog?.(level, message),
    onWarning: (warning) => hooks.onWarning?.({ type: 'warning', runId, warning }),
  })
  resources.start()

  let ended = false
  let doneMsg: Extract<FromRunner, { type: 'done' }> | null = null
  let failure: string | null = null
  let silent: string | null = null
  let stopTimer: NodeJS.Timeout | null = null
  let resolveDone: (s: RunSummary) => void = () => {}
  let rejectDone: (e: Error) => void = () => {}
  const done = new Promise<RunSummary>((res, rej) => {
    resolveDone = res
    rejectDone = rej
  })

  // A runner that says nothing for this long (it sends a heartbeat every few seconds) is hung.
  // Counted in this process's own ticks, not wall time: after both were suspended (Ctrl-Z), the
  // runner gets its turn to speak before it is judged.
  const silenceMs = opts.silenceMs ?? 60_000
  const tickMs = Math.min(5000, silenceMs / 4)
  let silentTicks = 0
  const watchdog = setInterval(() => {
    if (++silentTicks * tickMs < silenceMs) return
    silent = `the runner process did not answer for ${Math.round(silenceMs / 1000)} s and was killed`
    child.kill('SIGKILL')
  }, tickMs)

  child.on('message', (msg: FromRunner) => {
    silentTicks = 0
    // A hook or a monitor that throws must not take the engine host down with it.
    try {
      switch (msg.type) {
        case 'started':
          resources.setT0(msg.t0Epoch)
          hooks.onStarted?.(msg)
          break
        case 'progress':
          resources.generator(pid, msg.event.point.generatorCpu)
          hooks.onProgress?.({ ...msg.event, resources: resources.drain() })
          if (msg.encoded) hooks.onEncodedSecond?.(msg.encoded)
          break
        case 'segment':
          hooks.onSegment?.(msg.summary)
          if (msg.encoded) hooks.onEncodedSegment?.(msg.encoded, msg.summary)
          break
        case 'barrier': {
          const segment = msg.segment
          const release = opts.agent?.barrier(segment) ?? Promise.resolve(null)
          release.then(
            (go) => {
              if (!child.connected) return
              child.send((go ? { type: 'go', segment, ...go } : { type: 'stop' }) satisfies ToRunner)
            },
            (err: unknown) => {
              failure ??= `barrier of segment ${segment}: ${err instanceof Error ? err.message : String(err)}`
              if (child.connected) child.send({ type: 'stop' } satisfies ToRunner)
            },
          )
          break
        }
        case 'segment-started':
          hooks.onSegmentStarted?.(msg.segment, msg.atMs)
          break
        case 'second-revised':
          hooks.onEncodedSecond?.(msg.encoded)
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
        case 'heartbeat':
          break
      }
    } catch (err) {
      hooks.onLog?.('error', `run ${runId}: ${err instanceof Error ? err.message : String(err)}`)
    }
  })

  const outcome = (code: number | null, signal: NodeJS.Signals | null) => {
    if (doneMsg && !failure)
      return doneMsg.stopped
        ? { status: 'aborted' as const, error: 'stopped before the end of its window' }
        : { status: 'done' as const, error: null }
    if (failure) return { status: 'failed' as const, error: failure }
    return {
      status: 'aborted' as const,
      error:
        silent ??
        `the runner process ended unexpectedly (${signal ? `signal ${signal}` : `exit code ${code}`}); samples written before it ended are kept`,
    }
  }

  const finish = async (status: RunEndedEvent['status'], error: string | null): Promise<string | null> => {
    // Segments the runner did not summarize (killed, or the disk failed) from what was stored.
    if (status !== 'done') await summarizeMissingSegments(db, runId)
    const rows = recordLedgerRows(db, runId)
    const full =
      status === 'failed'
        ? `${error}; the ${rows.toLocaleString('en-US')} requests stored before were kept`
        : error
    const partial = new HistoryStore(db).getRun(runId)
    const generator = sharedHealth(generatorHealth(doneMsg?.generator.cpu ?? []), runSharedWith(db, runId))
    const thresholds = evaluateThresholds(config.thresholds, partial.results)
    finishRun(db, runId, status, { error: full, generator, thresholds })
    return full
  }

  const end = async (code: number | null, signal: NodeJS.Signals | null) => {
    if (ended) return
    ended = true
    clearInterval(watchdog)
    if (stopTimer) clearTimeout(stopTimer)
    let { status, error } = outcome(code, signal)
    try {
      await resources.stop()
      // A failed disk: the reserve gives the run's end room to be written.
      if (status === 'failed') releaseReserve(dbPath)
      try {
        error = await finish(status, error)
      } catch (err) {
        // Even the summaries could not be written (the disk): the run row alone says what happened.
        const why = storageFailure(err, dbPath) ?? (err instanceof Error ? err.message : String(err))
        status = 'failed'
        error = error && error !== why ? `${error}; ${why}` : why
        finishRun(db, runId, status, { error })
      }
      const summary = new HistoryStore(db).getRun(runId)
      hooks.onEnded?.({ type: 'ended', runId, status, error })
      resolveDone(summary)
    } catch (err) {
      const why = storageFailure(err, dbPath) ?? (err instanceof Error ? err.message : String(err))
      rejectDone(
        new Error(
          `${error && error !== why ? `${error}; ` : ''}${why}. The run's end could not be written to the database; the next Cannonade to open it marks the run aborted`,
        ),
      )
    }
  }
  child.on('exit', (code, signal) => void end(code, signal))
  child.on('error', (err) => {
    failure ??= `could not start the runner process: ${err.message}`
    void end(null, null)
  })

  const message: ToRunner = {
    type: 'start',
    runId,
    dbPath,
    config: sendable,
    plan,
    correlationPrefix: prefix,
    heartbeatMs: tickMs,
    ...(opts.agent ? { agent: { share: opts.agent.share } } : {}),
  }
  child.send(message)

  // The blocks become rows once the run has ended (whatever its end); failures leave them readable.
  const expander = opts.expander ?? new LedgerExpander(db)
  const stored = expander.afterEnd(done)

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
    stored,
  }
}

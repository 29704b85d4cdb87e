// One runner process as its parent sees it (supervisor.ts starts it): its messages relayed to the
// run's hooks, a watchdog that kills a runner that stopped answering, and the run's one end, written
// once whatever happened (done, stopped, the runner dead or silent, the disk failed). A dead or
// silent runner is an end event, never a spinner forever (CONTRIBUTING.md, Process model).
import type { ChildProcess } from 'node:child_process'
import type { RunEndedEvent, RunSummary } from '../api/types.ts'
import type { RunConfig } from '../config/schema.ts'
import { evaluateThresholds } from '../metrics/thresholds.ts'
import type { Db } from '../db/db.ts'
import { clearEndNote, foldLog, releaseReserve, storageFailure } from '../store/disk.ts'
import { recordLedgerRows } from '../store/retention.ts'
import { HistoryStore } from '../store/history-store.ts'
import {
  finishRun,
  generatorHealth,
  runSharedWith,
  sharedHealth,
  summarizeMissingSegments,
} from '../store/runs.ts'
import type { FromRunner, ToRunner } from './protocol.ts'
import type { ResourceRecorder } from './resource-recorder.ts'
import type { NoiseMeter } from './noise-meter.ts'
import type { RoundsJudge } from './rounds-judge.ts'
import type { RunHooks, RunOptions } from './run-types.ts'
import { reconnectWarning, streamLimitWarning } from './reconnects.ts'

export interface RunnerChildDeps {
  child: ChildProcess
  db: Db
  dbPath: string
  runId: number
  config: RunConfig
  hooks: RunHooks
  opts: RunOptions
  resources: ResourceRecorder
  /** What else ran beside each segment (null for an agent's share). */
  meter?: NoiseMeter | null
  /** The rounds' decisions and outcome (null for an agent's share). */
  judge?: RoundsJudge | null
}

type Ending = { status: RunEndedEvent['status']; error: string | null }

export class RunnerChild {
  /** The run's end: resolves once it is written (rejects when even that failed). */
  readonly done: Promise<RunSummary>
  /** The heartbeat the runner is asked for: a few times within the silence limit. */
  readonly tickMs: number
  private readonly d: RunnerChildDeps
  private readonly watchdog: NodeJS.Timeout
  private ended = false
  private doneMsg: Extract<FromRunner, { type: 'done' }> | null = null
  private failure: string | null = null
  private silent: string | null = null
  private stopTimer: NodeJS.Timeout | null = null
  private settle!: { resolve(s: RunSummary): void; reject(e: Error): void }

  constructor(d: RunnerChildDeps) {
    this.d = d
    this.done = new Promise<RunSummary>((resolve, reject) => (this.settle = { resolve, reject }))
    // A runner that says nothing for this long (it sends a heartbeat every few seconds) is hung.
    // Counted in this process's own ticks, not wall time: after both were suspended (Ctrl-Z), the
    // runner gets its turn to speak before it is judged.
    const silenceMs = d.opts.silenceMs ?? 60_000
    this.tickMs = Math.min(5000, silenceMs / 4)
    let silentTicks = 0
    this.watchdog = setInterval(() => {
      if (++silentTicks * this.tickMs < silenceMs) return
      this.silent = `the runner process did not answer for ${Math.round(silenceMs / 1000)} s and was killed`
      d.child.kill('SIGKILL')
    }, this.tickMs)
    d.child.on('message', (msg: FromRunner) => {
      silentTicks = 0
      // A hook or a monitor that throws must not take the engine host down with it.
      try {
        this.onMessage(msg)
      } catch (err) {
        d.hooks.onLog?.('error', `run ${d.runId}: ${err instanceof Error ? err.message : String(err)}`)
      }
    })
    d.child.on('exit', (code, signal) => void this.end(code, signal))
    d.child.on('error', (err) => {
      this.failure ??= `could not start the runner process: ${err.message}`
      void this.end(null, null)
    })
  }

  stop(): void {
    const { child, opts } = this.d
    if (this.ended || !child.connected) return
    child.send({ type: 'stop' } satisfies ToRunner)
    this.stopTimer ??= setTimeout(() => child.kill('SIGKILL'), opts.stopGraceMs ?? 15_000)
  }

  kill(signal: NodeJS.Signals = 'SIGKILL'): void {
    this.d.child.kill(signal)
  }

  private onMessage(msg: FromRunner): void {
    const { hooks, resources, meter, judge } = this.d
    switch (msg.type) {
      case 'started':
        resources.setT0(msg.t0Epoch)
        judge?.started(msg.t0Epoch)
        hooks.onStarted?.(msg)
        break
      case 'progress': {
        resources.generator(this.d.child.pid ?? -1, msg.event.point.generatorCpu, msg.event.point.t)
        meter?.tick()
        const rounds = judge?.progress
        hooks.onProgress?.({ ...msg.event, resources: resources.drain(), ...(rounds ? { rounds } : {}) })
        if (msg.encoded) hooks.onEncodedSecond?.(msg.encoded)
        break
      }
      case 'segment': {
        for (const w of [
          reconnectWarning(this.d.config, msg.summary),
          streamLimitWarning(this.d.config, msg.summary),
        ])
          if (w) resources.warn(w)
        judge?.segment(msg.summary, meter?.end(msg.summary) ?? null)
        hooks.onSegment?.(msg.summary)
        if (msg.encoded) hooks.onEncodedSegment?.(msg.encoded, msg.summary)
        break
      }
      case 'round-end': {
        const next = judge?.roundEnd(msg.round) ?? false
        if (this.d.child.connected)
          this.d.child.send({ type: 'rounds', round: msg.round, next } satisfies ToRunner)
        break
      }
      case 'barrier':
        this.relayBarrier(msg.segment)
        break
      case 'segment-started':
        if (msg.targetIndex !== undefined && msg.round !== undefined)
          meter?.start(msg.targetIndex, msg.round, msg.atMs)
        hooks.onSegmentStarted?.(msg.segment, msg.atMs)
        break
      case 'second-revised':
        hooks.onEncodedSecond?.(msg.encoded)
        break
      case 'log':
        hooks.onLog?.(msg.level, msg.message)
        break
      case 'done':
        this.doneMsg = msg
        break
      case 'failed':
        this.failure = msg.error
        break
      case 'heartbeat':
        break
    }
  }

  /** Agent mode: the runner waits at a segment's barrier until the coordinator releases it. */
  private relayBarrier(segment: number): void {
    const { child, opts } = this.d
    const release = opts.agent?.barrier(segment) ?? Promise.resolve(null)
    release.then(
      (go) => {
        if (!child.connected) return
        child.send((go ? { type: 'go', segment, ...go } : { type: 'stop' }) satisfies ToRunner)
      },
      (err: unknown) => {
        this.failure ??= `barrier of segment ${segment}: ${err instanceof Error ? err.message : String(err)}`
        if (child.connected) child.send({ type: 'stop' } satisfies ToRunner)
      },
    )
  }

  private outcome(code: number | null, signal: NodeJS.Signals | null): Ending {
    if (this.doneMsg && !this.failure)
      return this.doneMsg.stopped
        ? { status: 'aborted', error: 'stopped before the end of its window' }
        : { status: 'done', error: null }
    if (this.failure) return { status: 'failed', error: this.failure }
    return {
      status: 'aborted',
      error:
        this.silent ??
        `the runner process ended unexpectedly (${signal ? `signal ${signal}` : `exit code ${code}`}); samples written before it ended are kept`,
    }
  }

  /** The run's rows at its end: missing summaries rebuilt, its ledger counted, thresholds judged. */
  private async finish({ status, error }: Ending): Promise<string | null> {
    const { db, runId, config } = this.d
    // Segments the runner did not summarize (killed, or the disk failed) from what was stored.
    if (status !== 'done') await summarizeMissingSegments(db, runId)
    const rows = recordLedgerRows(db, runId)
    const full =
      status === 'failed'
        ? `${error}; the ${rows.toLocaleString('en-US')} requests stored before were kept`
        : error
    const partial = new HistoryStore(db).getRun(runId)
    const generator = sharedHealth(
      generatorHealth(this.doneMsg?.generator.cpu ?? [], this.doneMsg?.generator.wait),
      runSharedWith(db, runId),
    )
    const thresholds = evaluateThresholds(config.thresholds, partial.results)
    this.d.judge?.finish(status)
    finishRun(db, runId, status, { error: full, generator, thresholds })
    return full
  }

  private async end(code: number | null, signal: NodeJS.Signals | null): Promise<void> {
    if (this.ended) return
    this.ended = true
    clearInterval(this.watchdog)
    if (this.stopTimer) clearTimeout(this.stopTimer)
    const { db, dbPath, runId, hooks } = this.d
    let { status, error } = this.outcome(code, signal)
    try {
      await this.d.resources.stop()
      // A failed disk: the reserve gives the run's end room to be written, its log folded first;
      // the end stays in the reserve's place until it is in the database (store/disk.ts).
      if (status === 'failed') {
        releaseReserve(dbPath, { runId, error: error ?? 'the disk failed' })
        foldLog(db)
      }
      try {
        error = await this.finish({ status, error })
      } catch (err) {
        // Even the summaries could not be written (the disk): the run row alone says what happened.
        const why = storageFailure(err, dbPath) ?? (err instanceof Error ? err.message : String(err))
        status = 'failed'
        error = error && error !== why ? `${error}; ${why}` : why
        finishRun(db, runId, status, { error })
      }
      clearEndNote(dbPath)
      const summary = new HistoryStore(db).getRun(runId)
      hooks.onEnded?.({ type: 'ended', runId, status, error })
      this.settle.resolve(summary)
    } catch (err) {
      const why = storageFailure(err, dbPath) ?? (err instanceof Error ? err.message : String(err))
      this.settle.reject(
        new Error(
          `${error && error !== why ? `${error}; ` : ''}${why}. The run's end could not be written to the database yet: it is kept beside it, and the next Cannonade to open it with room to write ends the run failed for this reason`,
        ),
      )
    }
  }
}

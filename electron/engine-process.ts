// Main-process side of the engine's utility process: calls by sequence number, events fanned out,
// and a crash turned into what the UI needs: pending calls fail with `unavailable`, runs that were
// going end as `failed` (a dead worker is an end event, not a spinner forever), and the
// engine is started again. The process starts with a minimal environment (engine-env.ts) and gets
// its secrets by message, each time it (re)starts; its output goes to the log file.
import { utilityProcess, type UtilityProcess } from 'electron'
import type { Channel, EventName } from '../engine/api/channels.ts'
import type { Envelope } from '../engine/api/transport/client.ts'
import type { ProgressEvent, RunEndedEvent } from '../engine/api/types.ts'
import { isFromEngine, type FromEngine, type ToEngine } from './protocol.ts'

export interface EngineProcess {
  call(channel: Channel, args: unknown[]): Promise<Envelope<unknown>>
  setSecrets(values: Record<string, string | null>): void
  stop(): Promise<void>
}

interface Options {
  entry: string
  dbPath: string
  onEvent: (event: EventName, payload: unknown) => void
  log: (line: string) => void
  /** Where the process's stdout and stderr go, line by line. */
  output: (stream: 'stdout' | 'stderr') => (chunk: Buffer | string) => void
  /** The process's whole environment (no secrets: see engine-env.ts). */
  env: Record<string, string>
  /** Secrets to hand over each time the process (re)starts. */
  secrets: () => Record<string, string>
}

const CALL_TIMEOUT_MS = 5 * 60_000
const RESTART_DELAYS_MS = [500, 2000, 10_000]

/** Calls by sequence number: each is answered by its result, its timeout, or the process's exit. */
function callTable() {
  let seq = 0
  const pending = new Map<
    number,
    { resolve: (e: Envelope<unknown>) => void; timer: ReturnType<typeof setTimeout> }
  >()
  return {
    /** A new call, handed to `send` with its sequence number. */
    call(channel: Channel, send: (seq: number) => void): Promise<Envelope<unknown>> {
      const id = ++seq
      return new Promise<Envelope<unknown>>((resolve) => {
        const timer = setTimeout(() => {
          pending.delete(id)
          resolve({
            ok: false,
            error: {
              code: 'unavailable',
              message: `${channel}: no answer from the engine within ${CALL_TIMEOUT_MS / 1000} s`,
            },
          })
        }, CALL_TIMEOUT_MS)
        pending.set(id, { resolve, timer })
        send(id)
      })
    },
    answer(id: number, envelope: Envelope<unknown>): void {
      const p = pending.get(id)
      if (!p) return
      clearTimeout(p.timer)
      pending.delete(id)
      p.resolve(envelope)
    },
    failAll(message: string): void {
      for (const [id, p] of pending) {
        clearTimeout(p.timer)
        p.resolve({ ok: false, error: { code: 'unavailable', message } })
        pending.delete(id)
      }
    },
  }
}

/** The runs the engine reported going (progress, no end yet): they end `failed` if it dies. */
function runTracker(onEvent: Options['onEvent']) {
  const running = new Set<number>()
  return {
    saw(event: EventName, payload: unknown): void {
      if (event === 'runs:progress') running.add((payload as ProgressEvent).runId)
      if (event === 'runs:ended') running.delete((payload as RunEndedEvent).runId)
    },
    failAll(message: string): void {
      for (const runId of running) {
        const ended: RunEndedEvent = {
          type: 'ended',
          runId,
          status: 'failed',
          error: `${message} during the run`,
        }
        onEvent('runs:ended', ended)
      }
      running.clear()
    },
  }
}

export function startEngineProcess(opts: Options): EngineProcess {
  let child: UtilityProcess | null = null
  let ready: Promise<void> = Promise.resolve()
  let stopping = false
  let crashes = 0
  const calls = callTable()
  const runs = runTracker(opts.onEvent)

  const send = (msg: ToEngine) => child?.postMessage(msg)

  const handle = (msg: FromEngine, markReady: () => void) => {
    switch (msg.type) {
      case 'ready':
        crashes = 0
        send({ type: 'secrets', values: opts.secrets() })
        markReady()
        return
      case 'result':
        calls.answer(msg.seq, msg.envelope)
        return
      case 'event':
        runs.saw(msg.event, msg.payload)
        opts.onEvent(msg.event, msg.payload)
        return
      case 'fatal':
        opts.log(`engine: ${msg.message}`)
        return
    }
  }

  const spawn = () => {
    const proc = utilityProcess.fork(opts.entry, ['--db', opts.dbPath], {
      serviceName: 'Cannonade engine',
      stdio: 'pipe',
      env: opts.env,
    })
    proc.stdout?.on('data', opts.output('stdout'))
    proc.stderr?.on('data', opts.output('stderr'))
    child = proc
    let markReady: () => void = () => {}
    ready = new Promise<void>((resolve) => (markReady = resolve))
    proc.on('message', (msg: unknown) => {
      if (!isFromEngine(msg)) return
      handle(msg, markReady)
    })
    proc.on('exit', (code: number) => {
      if (child === proc) child = null
      markReady()
      const message = `the engine process exited (code ${code})`
      calls.failAll(message)
      runs.failAll(message)
      if (stopping) return
      const delay = RESTART_DELAYS_MS[Math.min(crashes++, RESTART_DELAYS_MS.length - 1)] ?? 10_000
      opts.log(`${message}; restarting in ${delay} ms`)
      setTimeout(spawn, delay)
    })
  }

  spawn()

  return {
    async call(channel, args) {
      await ready
      if (!child)
        return {
          ok: false,
          error: { code: 'unavailable', message: 'the engine is restarting; try again in a moment' },
        }
      return calls.call(channel, (seq) => send({ type: 'call', seq, channel, args }))
    },
    setSecrets(values) {
      send({ type: 'secrets', values })
    },
    async stop() {
      stopping = true
      const proc = child
      if (!proc) return
      const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()))
      send({ type: 'shutdown' })
      // Runs are stopped and the database closed by the engine; give it a few seconds.
      const timer = setTimeout(() => proc.kill(), 5000)
      await exited
      clearTimeout(timer)
    },
  }
}

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

export function startEngineProcess(opts: Options): EngineProcess {
  let child: UtilityProcess | null = null
  let ready: Promise<void> = Promise.resolve()
  let seq = 0
  let stopping = false
  let crashes = 0
  const pending = new Map<
    number,
    { resolve: (e: Envelope<unknown>) => void; timer: ReturnType<typeof setTimeout> }
  >()
  const running = new Set<number>()

  const send = (msg: ToEngine) => child?.postMessage(msg)

  const failPending = (message: string) => {
    for (const [id, p] of pending) {
      clearTimeout(p.timer)
      p.resolve({ ok: false, error: { code: 'unavailable', message } })
      pending.delete(id)
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
      failPending(message)
      for (const runId of running) {
        const ended: RunEndedEvent = {
          type: 'ended',
          runId,
          status: 'failed',
          error: `${message} during the run`,
        }
        opts.onEvent('runs:ended', ended)
      }
      running.clear()
      if (stopping) return
      const delay = RESTART_DELAYS_MS[Math.min(crashes++, RESTART_DELAYS_MS.length - 1)] ?? 10_000
      opts.log(`${message}; restarting in ${delay} ms`)
      setTimeout(spawn, delay)
    })
  }

  const handle = (msg: FromEngine, markReady: () => void) => {
    switch (msg.type) {
      case 'ready':
        crashes = 0
        send({ type: 'secrets', values: opts.secrets() })
        markReady()
        return
      case 'result': {
        const p = pending.get(msg.seq)
        if (!p) return
        clearTimeout(p.timer)
        pending.delete(msg.seq)
        p.resolve(msg.envelope)
        return
      }
      case 'event':
        if (msg.event === 'runs:progress') running.add((msg.payload as ProgressEvent).runId)
        if (msg.event === 'runs:ended') running.delete((msg.payload as RunEndedEvent).runId)
        opts.onEvent(msg.event, msg.payload)
        return
      case 'fatal':
        opts.log(`engine: ${msg.message}`)
        return
    }
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
        send({ type: 'call', seq: id, channel, args })
      })
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

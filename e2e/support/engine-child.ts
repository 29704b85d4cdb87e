// The desktop app's engine process started the way the app starts it (a utility process running
// dist-electron/engine-host.cjs with `--db`), but from a test: a Node child with the stand-in's
// parentPort shim, talking electron/protocol.ts messages. The packaging test runs the engine out
// of a packed app this way.
import { fork } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import type { FromEngine, ToEngine } from '../../electron/protocol.ts'
import type { Channel } from '../../engine/api/channels.ts'
import type { Envelope } from '../../engine/api/transport/client.ts'

const PARENT_PORT = fileURLToPath(new URL('./electron-standin/parent-port.cjs', import.meta.url))

export interface EngineChild {
  call(channel: Channel, args: unknown[]): Promise<Envelope<unknown>>
  /** Resolves with the first message (already received or to come) that `match` accepts. */
  next<T extends FromEngine>(match: (m: FromEngine) => m is T): Promise<T>
  send(message: ToEngine): void
  output(): string
  /** Ask it to stop (runs stopped, database closed) and wait: its exit code. */
  shutdown(): Promise<number | null>
}

export function forkEngine(entry: string, dbPath: string, env: NodeJS.ProcessEnv): EngineChild {
  const child = fork(entry, ['--db', dbPath], {
    env,
    execArgv: ['--require', PARENT_PORT],
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    serialization: 'advanced',
  })
  let output = ''
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()))
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()))
  const received: FromEngine[] = []
  const waiters = new Set<() => void>()
  child.on('message', (m: FromEngine) => {
    received.push(m)
    for (const w of [...waiters]) w()
  })
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  const next = <T extends FromEngine>(match: (m: FromEngine) => m is T): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const check = () => {
        const found = received.find(match)
        if (!found) return
        waiters.delete(check)
        resolve(found)
      }
      waiters.add(check)
      check()
      void exited.then((code) => {
        if (!waiters.has(check)) return
        waiters.delete(check)
        reject(new Error(`the engine process exited (${code}):\n${output}`))
      })
    })
  let seq = 0
  const send = (message: ToEngine) => child.send(message)
  return {
    async call(channel, args) {
      const id = ++seq
      send({ type: 'call', seq: id, channel, args })
      const reply = await next(
        (m): m is Extract<FromEngine, { type: 'result' }> => m.type === 'result' && m.seq === id,
      )
      return reply.envelope
    },
    next,
    send,
    output: () => output,
    async shutdown() {
      if (child.exitCode === null) send({ type: 'shutdown' })
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000)
      const code = await exited
      clearTimeout(timer)
      return code
    },
  }
}

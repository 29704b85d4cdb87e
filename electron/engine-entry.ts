// The engine inside Electron: runs in a utilityProcess (never in main, never in the UI: load
// generation is CPU-bound and would freeze the window), creates the host on the shared database and
// answers calls from main by sequence number. `serveEngine` takes any message port so the bundle
// can be exercised under plain Node.
// Secrets arrive by message and stay in this module: the host reads them where it uses them
// (EngineOptions.secrets), and they never enter process.env, so the runner processes and native
// stacks the engine starts do not inherit them.
import { isChannel, type Channel } from '../engine/api/channels.ts'
import { subscribeAll, type Envelope } from '../engine/api/transport/client.ts'
import { dispatch } from '../engine/api/transport/dispatch.ts'
import { toErrorBody } from '../engine/api/errors.ts'
import { createEngine, type EngineHost } from '../engine/host/index.ts'
import { isToEngine, type FromEngine, type ToEngine } from './protocol.ts'

export interface EnginePort {
  postMessage(message: FromEngine): void
  on(event: 'message', listener: (e: { data: unknown }) => void): unknown
}

export async function serveEngine(port: EnginePort, dbPath: string): Promise<EngineHost> {
  const secrets = new Map<string, string>()
  const applySecrets = (values: Record<string, string | null>) => {
    for (const [name, value] of Object.entries(values)) {
      if (value === null) secrets.delete(name)
      else secrets.set(name, value)
    }
  }
  const host = await createEngine({ dbPath, demo: true, secrets: () => Object.fromEntries(secrets) })
  subscribeAll(host, (event, payload) => port.postMessage({ type: 'event', event, payload }))
  let closing = false

  const handle = async (msg: ToEngine): Promise<void> => {
    switch (msg.type) {
      case 'call': {
        let envelope: Envelope<unknown>
        try {
          const channel: Channel | null = isChannel(msg.channel) ? msg.channel : null
          if (!channel) throw new Error(`unknown channel ${String(msg.channel)}`)
          envelope = { ok: true, result: await dispatch(host, channel, msg.args) }
        } catch (err) {
          envelope = { ok: false, error: toErrorBody(err) }
        }
        port.postMessage({ type: 'result', seq: msg.seq, envelope })
        return
      }
      case 'secrets':
        applySecrets(msg.values)
        return
      case 'shutdown':
        if (closing) return
        closing = true
        await host.close()
        process.exit(0)
    }
  }

  port.on('message', (e) => {
    if (!isToEngine(e.data)) return
    handle(e.data).catch((err: unknown) =>
      port.postMessage({ type: 'fatal', message: err instanceof Error ? err.message : String(err) }),
    )
  })
  port.postMessage({ type: 'ready' })
  return host
}

function dbPathFromArgv(argv: readonly string[]): string | null {
  const i = argv.indexOf('--db')
  return i >= 0 ? (argv[i + 1] ?? null) : null
}

// In a utility process, Electron provides process.parentPort; elsewhere this module is a library.
const parentPort = (process as NodeJS.Process & { parentPort?: EnginePort }).parentPort
if (parentPort) {
  const dbPath = dbPathFromArgv(process.argv)
  if (!dbPath) {
    parentPort.postMessage({ type: 'fatal', message: 'engine started without --db' })
    process.exit(2)
  }
  serveEngine(parentPort, dbPath).catch((err: unknown) => {
    parentPort.postMessage({
      type: 'fatal',
      message: `engine failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
    })
    process.exit(1)
  })
}

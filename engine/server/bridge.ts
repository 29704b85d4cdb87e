// The shape of `window.cannonade`, the Electron preload bridge: the Api with one function per
// operation, except that calls resolve to an Envelope instead of rejecting, because contextBridge
// copies only an Error's message and the UI needs the code and field (where to show it).
// `bridgeTransport` unwraps it back into a Transport, so the renderer builds the same Api client
// for Electron as for web mode. Pure module: imported by electron/preload.ts and by renderer/.
import type { Api, Channel, Unsubscribe } from '../api.ts'
import type { Envelope, EventName, EventPayloads, ParamsOf, ResultOf, Transport } from './client.ts'
import { fromErrorBody } from './dispatch.ts'

type Bridged<F> = F extends (...args: infer P) => Promise<infer R> ? (...args: P) => Promise<Envelope<R>> : F

export type Bridge = { [D in keyof Api]: { [K in keyof Api[D]]: Bridged<Api[D][K]> } }

/** Desktop-only extras (window.cannonadeDesktop): secrets kept with Electron's safeStorage. */
export interface DesktopBridge {
  platform: string
  secrets: {
    /** False when the OS offers no encryption (then secrets are refused, never stored plain). */
    available(): Promise<boolean>
    /** Names only: values never travel back to the page. */
    list(): Promise<string[]>
    set(name: string, value: string): Promise<Envelope<null>>
    delete(name: string): Promise<Envelope<null>>
  }
  /**
   * Files an export or report wrote (a path on this machine). Main opens them only when they lie in
   * the data folder's exports/ or reports/ (engine/server/files.ts).
   */
  files: {
    /** Open with the system's default application (a PDF viewer, a spreadsheet). */
    open(path: string): Promise<Envelope<null>>
    /** Show it in the file manager. */
    reveal(path: string): Promise<Envelope<null>>
  }
  /** A menu item asks for a route ("/new", "/runs"). */
  onNavigate(cb: (route: string) => void): Unsubscribe
}

/** Environment variable names the engine reads secrets from (monitor specs name them too). */
export const SECRET_NAMES = ['PGPASSWORD', 'CF_PASSWORD', 'CF_REFRESH_TOKEN', 'CF_TOKEN'] as const
export type SecretName = (typeof SECRET_NAMES)[number]

type BridgeFn = (...args: unknown[]) => Promise<Envelope<unknown>>

export function bridgeTransport(bridge: Bridge): Transport {
  const subscriptions: { [E in EventName]: (cb: (payload: EventPayloads[E]) => void) => Unsubscribe } = {
    'runs:progress': (cb) => bridge.runs.onProgress(cb),
    'runs:ended': (cb) => bridge.runs.onEnded(cb),
    'stacks:log': (cb) => bridge.stacks.onLog(cb),
    'exports:progress': (cb) => bridge.exports.onProgress(cb),
  }
  return {
    async call<C extends Channel>(channel: C, args: ParamsOf<C>): Promise<ResultOf<C>> {
      const [domain = '', action = ''] = channel.split(':')
      // The Bridge type guarantees a function per channel; reaching it by name needs a view as a record.
      const group = (bridge as unknown as Record<string, Record<string, BridgeFn> | undefined>)[domain]
      const fn = group?.[action]
      if (!fn) throw new Error(`preload bridge has no ${channel}`)
      const envelope = await fn(...(args as unknown[]))
      if (!envelope.ok) throw fromErrorBody(envelope.error)
      // The transport boundary: the engine produced this value for this channel.
      return envelope.result as ResultOf<C>
    },
    subscribe<E extends EventName>(event: E, cb: (payload: EventPayloads[E]) => void): Unsubscribe {
      const subscribe: (cb: (payload: EventPayloads[E]) => void) => Unsubscribe = subscriptions[event]
      return subscribe(cb)
    },
  }
}

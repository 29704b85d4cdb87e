// The shape of `window.cannonade`, the Electron preload bridge: the Api with one function per
// operation, except that calls resolve to an Envelope instead of rejecting, because contextBridge
// copies only an Error's message and the UI needs the code and field (where to show it).
// `bridgeTransport` unwraps it back into a Transport, so the renderer builds the same Api client
// for Electron as for web mode. Pure module: imported by electron/preload.ts and by renderer/.
import type { Api } from '../api.ts'
import {
  subscriptionOf,
  type Channel,
  type EventName,
  type EventPayloads,
  type ParamsOf,
  type ResultOf,
} from '../channels.ts'
import type { Envelope, Transport } from './client.ts'
import { fromErrorBody } from '../errors.ts'
import type { Unsubscribe } from '../types.ts'

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
   * Files an export or report wrote (a path on this machine). Main acts on them only when they lie
   * in the data folder's exports/ or reports/ (engine/api/files.ts).
   */
  files: {
    /** Open with the system's default application (a PDF viewer, a spreadsheet). */
    open(path: string): Promise<Envelope<null>>
    /** Show it in the file manager. */
    reveal(path: string): Promise<Envelope<null>>
    /**
     * Save a copy where the user picks in a save dialog (opened in the folder the last copy went
     * to). The copy's path, or null when the dialog was cancelled.
     */
    saveAs(path: string): Promise<Envelope<{ path: string } | null>>
  }
  /** A menu item asks for a route ("/new", "/runs"). */
  onNavigate(cb: (route: string) => void): Unsubscribe
}

type BridgeFn = (...args: unknown[]) => Promise<Envelope<unknown>>
type BridgeSub = (cb: (payload: unknown) => void) => Unsubscribe

/** The bridge's function for a channel or an event, found by its `domain:name`. */
function member<T>(bridge: Bridge, domain: string, name: string, what: string): T {
  // The Bridge type guarantees a function per channel and event; reaching it by name needs a view as a record.
  const group = (bridge as unknown as Record<string, Record<string, T> | undefined>)[domain]
  const fn = group?.[name]
  if (!fn) throw new Error(`preload bridge has no ${what}`)
  return fn
}

export function bridgeTransport(bridge: Bridge): Transport {
  return {
    async call<C extends Channel>(channel: C, args: ParamsOf<C>): Promise<ResultOf<C>> {
      const [domain = '', action = ''] = channel.split(':')
      const envelope = await member<BridgeFn>(bridge, domain, action, channel)(...(args as unknown[]))
      if (!envelope.ok) throw fromErrorBody(envelope.error)
      // The transport boundary: the engine produced this value for this channel.
      return envelope.result as ResultOf<C>
    },
    subscribe<E extends EventName>(event: E, cb: (payload: EventPayloads[E]) => void): Unsubscribe {
      const { domain, on } = subscriptionOf(event)
      return member<BridgeSub>(bridge, domain, on, event)((payload) => cb(payload as EventPayloads[E]))
    },
  }
}

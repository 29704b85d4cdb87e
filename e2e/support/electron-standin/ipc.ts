// ELECTRON STAND-IN (test harness, not Electron): `ipcMain`, and the page end of the IPC channel.
// A page's preload calls a CDP binding (window.ts installs it per page) with {kind, channel, args};
// main's handlers get an Electron-shaped event whose senderFrame.url is the calling frame's URL
// (mapped back to app://), so the app's sender check runs on real frames. Replies and events are
// structured-cloned on the way, as Electron's IPC does (a function in a reply fails the call).
import { EventEmitter } from 'node:events'
import type { Frame } from 'playwright-core'
import { record, toElectronUrl } from './state.ts'

export interface IpcEvent {
  sender: unknown
  senderFrame: { url: string; origin: string; name: string }
  frameId: number
  processId: number
}

type Handler = (event: IpcEvent, ...args: unknown[]) => unknown

export interface IpcMessage {
  /** window-open is not IPC: the page's window.open, which the window handles (window.ts). */
  kind: 'invoke' | 'send' | 'window-open'
  channel: string
  args: unknown[]
}

export function isIpcMessage(value: unknown): value is IpcMessage {
  if (typeof value !== 'object' || value === null) return false
  const v = value as Record<string, unknown>
  const kind = v.kind === 'invoke' || v.kind === 'send' || v.kind === 'window-open'
  return kind && typeof v.channel === 'string' && Array.isArray(v.args)
}

class IpcMain extends EventEmitter {
  readonly #handlers = new Map<string, Handler>()

  handle(channel: string, handler: Handler): void {
    if (this.#handlers.has(channel))
      throw new Error(`Attempted to register a second handler for '${channel}'`)
    this.#handlers.set(channel, handler)
  }

  handleOnce(channel: string, handler: Handler): void {
    this.handle(channel, (event, ...args) => {
      this.removeHandler(channel)
      return handler(event, ...args)
    })
  }

  removeHandler(channel: string): void {
    this.#handlers.delete(channel)
  }

  /** A message from a page: {value} or {error} for an invoke, nothing for a send. */
  async dispatch(
    sender: unknown,
    frame: Frame,
    message: IpcMessage,
  ): Promise<{ value: unknown } | { error: string } | undefined> {
    const url = toElectronUrl(frame.url())
    let origin = 'null'
    try {
      const u = new URL(url)
      origin = u.host ? `${u.protocol}//${u.host}` : 'null'
    } catch {
      origin = 'null'
    }
    const event: IpcEvent = {
      sender,
      senderFrame: { url, origin, name: frame.name() },
      frameId: 0,
      processId: 0,
    }
    const args = structuredClone(message.args)
    record('ipc', { ipc: message.kind, channel: message.channel, frameUrl: url })
    if (message.kind === 'send') {
      this.emit(message.channel, event, ...args)
      return undefined
    }
    const handler = this.#handlers.get(message.channel)
    if (!handler) return { error: `Error: No handler registered for '${message.channel}'` }
    try {
      return { value: structuredClone(await handler(event, ...args)) }
    } catch (err) {
      return { error: err instanceof Error ? `${err.name}: ${err.message}` : String(err) }
    }
  }
}

export const ipcMain = new IpcMain()

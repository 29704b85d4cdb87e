// The preload bridge (sandboxed, context-isolated): exposes `window.cannonade`, one function per
// Api operation built from the `channels` map, never ipcRenderer or a generic invoke (a page that
// could invoke any channel could reach the desktop-only ones); every onX returns its unsubscribe.
// `window.cannonadeDesktop` adds secrets (set/forget, never read), exported files (open, show,
// save a copy), and menu navigation.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron'
import type { Bridge, DesktopBridge } from '../engine/api/transport/bridge.ts'
import {
  mapContract,
  type Channel,
  type EventName,
  type EventPayloads,
  type ParamsOf,
  type ResultOf,
} from '../engine/api/channels.ts'
import type { Envelope } from '../engine/api/transport/client.ts'
import type { Unsubscribe } from '../engine/api/types.ts'
import { desktopChannels } from './protocol.ts'

function op<C extends Channel>(channel: C): (...args: ParamsOf<C>) => Promise<Envelope<ResultOf<C>>> {
  // ipcRenderer.invoke is untyped; main answers this channel with an Envelope of its result.
  return (...args) => ipcRenderer.invoke(channel, ...args) as Promise<Envelope<ResultOf<C>>>
}

function listen<E extends EventName>(event: E): (cb: (payload: EventPayloads[E]) => void) => Unsubscribe {
  return (cb) => {
    const listener = (_e: IpcRendererEvent, payload: EventPayloads[E]) => cb(payload)
    ipcRenderer.on(event, listener)
    return () => {
      ipcRenderer.removeListener(event, listener)
    }
  }
}

// One function per operation and per event, built from the contract's maps (engine/api/channels.ts),
// so the bridge cannot miss an operation: the Bridge type is the Api's, function for function.
const bridge = mapContract(op, listen) as unknown as Bridge

const desktop: DesktopBridge = {
  platform: process.platform,
  secrets: {
    available: () => ipcRenderer.invoke(desktopChannels.secretsAvailable) as Promise<boolean>,
    list: () => ipcRenderer.invoke(desktopChannels.secretsList) as Promise<string[]>,
    set: (name, value) =>
      ipcRenderer.invoke(desktopChannels.secretsSet, name, value) as Promise<Envelope<null>>,
    delete: (name) => ipcRenderer.invoke(desktopChannels.secretsDelete, name) as Promise<Envelope<null>>,
  },
  files: {
    open: (path) => ipcRenderer.invoke(desktopChannels.filesOpen, path) as Promise<Envelope<null>>,
    reveal: (path) => ipcRenderer.invoke(desktopChannels.filesReveal, path) as Promise<Envelope<null>>,
    saveAs: (path) =>
      ipcRenderer.invoke(desktopChannels.filesSaveAs, path) as Promise<Envelope<{ path: string } | null>>,
  },
  onNavigate(cb) {
    const listener = (_e: IpcRendererEvent, route: unknown) => {
      if (typeof route === 'string' && route.startsWith('/')) cb(route)
    }
    ipcRenderer.on(desktopChannels.navigate, listener)
    return () => {
      ipcRenderer.removeListener(desktopChannels.navigate, listener)
    }
  },
}

contextBridge.exposeInMainWorld('cannonade', bridge)
contextBridge.exposeInMainWorld('cannonadeDesktop', desktop)

// The preload bridge (sandboxed, context-isolated): exposes `window.cannonade`, one function per
// Api operation built from the `channels` map, never ipcRenderer or a generic invoke
// (EXAMPLES.md 3); every onX returns its unsubscribe. `window.cannonadeDesktop` adds secrets
// (set/forget, never read), opening exported files, and menu navigation.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron'
import { channels, events, type Channel, type Unsubscribe } from '../engine/api.ts'
import type { Bridge, DesktopBridge } from '../engine/server/bridge.ts'
import type { Envelope, EventName, EventPayloads, ParamsOf, ResultOf } from '../engine/server/client.ts'
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

const c = channels
const bridge: Bridge = {
  runs: {
    validate: op(c.runs.validate),
    preview: op(c.runs.preview),
    start: op(c.runs.start),
    stop: op(c.runs.stop),
    active: op(c.runs.active),
    list: op(c.runs.list),
    get: op(c.runs.get),
    series: op(c.runs.series),
    resources: op(c.runs.resources),
    samples: op(c.runs.samples),
    compare: op(c.runs.compare),
    delete: op(c.runs.delete),
    tag: op(c.runs.tag),
    note: op(c.runs.note),
    ledger: op(c.runs.ledger),
    prune: op(c.runs.prune),
    onProgress: listen(events.runProgress),
    onEnded: listen(events.runEnded),
  },
  studies: { list: op(c.studies.list), get: op(c.studies.get), templates: op(c.studies.templates) },
  targets: { probe: op(c.targets.probe) },
  stacks: {
    list: op(c.stacks.list),
    up: op(c.stacks.up),
    down: op(c.stacks.down),
    status: op(c.stacks.status),
    onLog: listen(events.stackLog),
  },
  monitor: { test: op(c.monitor.test) },
  exports: {
    pg: op(c.exports.pg),
    pgTest: op(c.exports.pgTest),
    csv: op(c.exports.csv),
    json: op(c.exports.json),
    junit: op(c.exports.junit),
    onProgress: listen(events.exportProgress),
  },
  reports: { create: op(c.reports.create) },
  settings: { get: op(c.settings.get), set: op(c.settings.set) },
}

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

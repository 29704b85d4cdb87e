// ELECTRON STAND-IN (test harness, not Electron): the script every stand-in page runs before its
// own scripts. It routes window.open to main (Electron asks the window open handler before it
// creates anything; the stand-in never creates a second window), and in the main frame runs the
// app's real built preload (dist-electron/preload.cjs), as Electron runs preloads, with what a
// sandboxed Electron preload gets: `require('electron')` offering ipcRenderer and contextBridge,
// and a `process` with its platform. In the main frame the IPC binding the window installs is
// captured and removed from the page's globals; a subframe keeps it (a stand-in for a compromised
// frame, so tests can check that main refuses senders that are not the app).
//
// What this does NOT reproduce: context isolation. Electron runs the preload in its own JavaScript
// world; here it shares the page's world, and contextBridge copies the API object (functions
// wrapped, objects frozen) instead of proxying it across worlds. Checks that depend on isolation
// itself (a page script reaching the preload's variables) can only be made on a real Electron.

/** The binding window.ts exposes on each page; the init script removes it from window. */
export const IPC_BINDING = '__electronStandinIpc'
/** main → page: webContents.send() delivers through this (non-enumerable) function. */
export const DELIVER = '__electronStandinDeliver'

export function pageInitScript(preloadSource: string | null, platform: string): string {
  return `(() => {
  const binding = window[${JSON.stringify(IPC_BINDING)}]
  if (typeof binding !== 'function') {
    console.error('[electron stand-in] the IPC binding is missing')
    return
  }
  const open = (url, target, features) => {
    let href = ''
    try { href = new URL(String(url ?? ''), location.href).href } catch { href = String(url) }
    void binding({ kind: 'window-open', channel: '', args: [href, String(target ?? ''), String(features ?? '')] })
    return null
  }
  Object.defineProperty(window, 'open', { value: open, writable: false, configurable: false })
  if (window.top !== window) return
  try { delete window[${JSON.stringify(IPC_BINDING)}] } catch {}
  if (${preloadSource === null ? 'true' : 'false'}) return
  const listeners = new Map()
  const ipcRenderer = Object.freeze({
    async invoke(channel, ...args) {
      const reply = await binding({ kind: 'invoke', channel, args })
      if (reply && 'error' in reply) throw new Error("Error invoking remote method '" + channel + "': " + reply.error)
      return reply ? reply.value : undefined
    },
    send(channel, ...args) { void binding({ kind: 'send', channel, args }) },
    on(channel, listener) {
      if (!listeners.has(channel)) listeners.set(channel, new Set())
      listeners.get(channel).add(listener)
      return ipcRenderer
    },
    once(channel, listener) {
      const wrapped = (...a) => { ipcRenderer.removeListener(channel, wrapped); listener(...a) }
      return ipcRenderer.on(channel, wrapped)
    },
    removeListener(channel, listener) { listeners.get(channel)?.delete(listener); return ipcRenderer },
    off(channel, listener) { return ipcRenderer.removeListener(channel, listener) },
    removeAllListeners(channel) { if (channel) listeners.delete(channel); else listeners.clear(); return ipcRenderer },
  })
  Object.defineProperty(window, ${JSON.stringify(DELIVER)}, {
    value: (channel, args) => {
      for (const listener of [...(listeners.get(channel) ?? [])]) {
        try { listener({ sender: ipcRenderer }, ...args) } catch (err) { console.error(err) }
      }
    },
    enumerable: false, configurable: false, writable: false,
  })
  const copy = (value, depth) => {
    if (depth > 32) throw new Error('contextBridge: object too deep')
    if (typeof value === 'function') return (...args) => value(...args)
    if (value === null || typeof value !== 'object') return value
    if (Array.isArray(value)) return Object.freeze(value.map((v) => copy(v, depth + 1)))
    const out = {}
    for (const [k, v] of Object.entries(value)) out[k] = copy(v, depth + 1)
    return Object.freeze(out)
  }
  const contextBridge = Object.freeze({
    exposeInMainWorld(key, api) {
      if (key in window) throw new Error('Cannot bind an API on top of an existing property on the window object')
      Object.defineProperty(window, key, { value: copy(api, 0), enumerable: true, configurable: false, writable: false })
    },
  })
  const electron = Object.freeze({ ipcRenderer, contextBridge })
  const require = (id) => {
    if (id === 'electron' || id === 'electron/renderer') return electron
    throw new Error('module not found: ' + id + ' (a sandboxed preload can require only electron)')
  }
  const process = Object.freeze({ platform: ${JSON.stringify(platform)}, type: 'renderer', sandboxed: true, contextIsolated: true, env: Object.freeze({}) })
  const module = { exports: {} }
  ;(function (require, module, exports, process) {
${preloadSource ?? ''}
  }).call(module.exports, require, module, module.exports, process)
})()`
}

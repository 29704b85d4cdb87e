// ELECTRON STAND-IN (test harness, not Electron): `app`. Paths, name and version as Electron
// keeps them, the lifecycle (ready once Chromium is up; quit: before-quit, windows closed,
// will-quit, quit, exit), and the single-instance lock, which like Electron's is a lock in the
// userData folder plus a socket the second instance uses to wake the first ('second-instance').
import { EventEmitter } from 'node:events'
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs'
import { createConnection, createServer, type Server } from 'node:net'
import { homedir, tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromiumRunning, log, preventableEvent, record, startChromium } from './state.ts'
import { killUtilityProcesses } from './utility.ts'

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

class App extends EventEmitter {
  #appPath = process.cwd()
  #name = 'Electron'
  #version = '0.0.0'
  readonly #paths = new Map<string, string>()
  #ready = false
  #readyPromise: Promise<void>
  #markReady: () => void = () => {}
  #quitting = false
  #lock: { server: Server; file: string; socket: string } | null = null
  #pendingNotice: Promise<void> = Promise.resolve()
  readonly isPackaged = false
  readonly commandLine = { appendSwitch: () => undefined, hasSwitch: () => false }

  constructor() {
    super()
    this.#readyPromise = new Promise((resolve) => (this.#markReady = resolve))
  }

  /** Stand-in only: what `electron <appPath>` was started with (boot.ts). */
  configure(appPath: string, name: string, version: string): void {
    this.#appPath = appPath
    this.#name = name
    this.#version = version
  }

  /** Stand-in only: Chromium is up; Electron's 'ready'. */
  async start(): Promise<void> {
    if (this.#quitting) return
    await startChromium()
    this.#ready = true
    this.emit('will-finish-launching')
    this.emit('ready', preventableEvent(), {})
    this.#markReady()
  }

  get name(): string {
    return this.#name
  }
  setName(name: string): void {
    this.#name = name
  }
  getName(): string {
    return this.#name
  }
  getVersion(): string {
    return this.#version
  }
  getAppPath(): string {
    return this.#appPath
  }
  getLocale(): string {
    return 'en-US'
  }
  isReady(): boolean {
    return this.#ready
  }
  whenReady(): Promise<void> {
    return this.#readyPromise
  }

  getPath(name: string): string {
    const set = this.#paths.get(name)
    if (set) return set
    const appData = process.env.XDG_CONFIG_HOME ?? join(homedir(), '.config')
    switch (name) {
      case 'home':
        return homedir()
      case 'appData':
        return appData
      case 'userData':
        return join(appData, this.#name)
      case 'logs':
        return join(this.getPath('userData'), 'logs')
      case 'temp':
        return tmpdir()
      case 'documents':
        return join(homedir(), 'Documents')
      case 'downloads':
        return join(homedir(), 'Downloads')
      case 'exe':
        return process.execPath
      default:
        throw new Error(`electron stand-in: app.getPath('${name}') is not emulated`)
    }
  }
  setPath(name: string, path: string): void {
    this.#paths.set(name, path)
  }
  setAppLogsPath(path?: string): void {
    this.#paths.set('logs', path ?? join(this.getPath('userData'), 'logs'))
  }
  setAboutPanelOptions(options: Record<string, unknown>): void {
    record('about-panel-options', { options })
  }

  requestSingleInstanceLock(): boolean {
    const dir = this.getPath('userData')
    mkdirSync(dir, { recursive: true })
    const file = join(dir, 'SingletonLock.standin')
    const socket = join(dir, 'SingletonSocket.standin')
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const fd = openSync(file, 'wx')
        writeSync(fd, String(process.pid))
        closeSync(fd)
      } catch {
        const holder = Number(readFileSync(file, 'utf8'))
        if (holder > 0 && holder !== process.pid && alive(holder)) {
          // Wake the first instance, as Electron's second instance does, then let the app quit.
          this.#pendingNotice = new Promise<void>((resolve) => {
            const c = createConnection(socket, () =>
              c.end(JSON.stringify({ argv: process.argv, cwd: process.cwd() })),
            )
            c.on('close', () => resolve())
            c.on('error', () => resolve())
          })
          record('single-instance-lock', { acquired: false, holder })
          return false
        }
        rmSync(file, { force: true }) // stale: its process is gone
        continue
      }
      rmSync(socket, { force: true })
      const server = createServer((conn) => {
        let text = ''
        conn.on('data', (d: Buffer) => (text += d.toString()))
        conn.on('end', () => {
          let data: { argv?: string[]; cwd?: string } = {}
          try {
            data = JSON.parse(text) as typeof data
          } catch {
            data = {}
          }
          record('second-instance', { argv: data.argv ?? [] })
          this.emit('second-instance', preventableEvent(), data.argv ?? [], data.cwd ?? '', {})
        })
      })
      server.listen(socket)
      server.unref()
      this.#lock = { server, file, socket }
      record('single-instance-lock', { acquired: true })
      return true
    }
    return false
  }

  /** Stand-in only: how to close every window, handed in by window.ts (which imports this file). */
  closeAllWindows: () => void = () => {}

  /** Stand-in only: BrowserWindow tells the app its last window closed. */
  lastWindowClosed(): void {
    if (!this.#quitting) this.emit('window-all-closed', preventableEvent())
  }

  quit(): void {
    const event = preventableEvent()
    this.emit('before-quit', event)
    if (event.defaultPrevented) return
    this.#quitting = true
    void this.#finish(0)
  }

  exit(code = 0): void {
    this.#quitting = true
    void this.#finish(code, false)
  }

  async #finish(code: number, graceful = true): Promise<void> {
    if (graceful) {
      this.closeAllWindows()
      const willQuit = preventableEvent()
      this.emit('will-quit', willQuit)
      if (willQuit.defaultPrevented) {
        this.#quitting = false
        return
      }
      this.emit('quit', preventableEvent(), code)
    }
    await this.#pendingNotice
    killUtilityProcesses()
    await chromiumRunning()?.close()
    if (this.#lock) {
      this.#lock.server.close()
      rmSync(this.#lock.file, { force: true })
      rmSync(this.#lock.socket, { force: true })
    }
    log(`app exits (${code})`)
    process.exit(code)
  }
}

export const app = new App()

// ELECTRON STAND-IN (test harness, not Electron): BrowserWindow and webContents. A window is a
// Chromium page (headless, so "shown", "focused" and bounds are states the stand-in keeps and the
// viewport follows); its webContents loads URLs, runs the app's preload (preload-host.ts), carries
// IPC both ways (ipc.ts), enforces the app's window open handler and will-navigate (with
// session.ts) and prints to PDF with CDP's Page.printToPDF, which is what Electron's printToPDF
// calls in Chromium.
import { EventEmitter } from 'node:events'
import { readFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
import type { CDPSession, Page } from 'playwright-core'
import { app } from './app.ts'
import { ipcMain, isIpcMessage } from './ipc.ts'
import { DELIVER, IPC_BINDING, pageInitScript } from './preload-host.ts'
import { pageOwners, popups, session as sessions, type PageOwner, type Session } from './session.ts'
import { customSchemes, log, preventableEvent, record, toChromiumUrl, toElectronUrl } from './state.ts'

interface Rect {
  x: number
  y: number
  width: number
  height: number
}

type WebPreferences = Record<string, unknown> & { preload?: string; partition?: string; session?: Session }
type OpenHandler = (details: { url: string; frameName: string; features: string }) => {
  action: 'allow' | 'deny'
}

const WORK_AREA: Rect = { x: 0, y: 0, width: 1920, height: 1080 }
let nextId = 1

export class WebContents extends EventEmitter implements PageOwner {
  readonly id = nextId++
  readonly session: Session
  readonly #prefs: WebPreferences
  readonly #owner: BrowserWindow
  #page: Page | null = null
  #cdp: CDPSession | null = null
  #ready: Promise<Page>
  #programmatic: string | null = null
  #openHandler: OpenHandler | null = null
  #destroyed = false

  constructor(owner: BrowserWindow, prefs: WebPreferences, size: { width: number; height: number }) {
    super()
    this.#owner = owner
    this.#prefs = prefs
    this.session = prefs.session ?? sessions.fromPartition(prefs.partition ?? '')
    this.#ready = this.#open(size)
    // Nothing awaits the page at once; a failure shows on the first call that needs it.
    this.#ready.catch((err: unknown) => log(`window ${this.id}: could not open a page: ${String(err)}`))
  }

  async #open(size: { width: number; height: number }): Promise<Page> {
    const context = await this.session.context()
    const page = await context.newPage()
    pageOwners.set(page, this)
    this.#page = page
    await page.setViewportSize(size)
    this.#cdp = await context.newCDPSession(page)
    if (this.#prefs.javascript === false)
      await this.#cdp.send('Emulation.setScriptExecutionDisabled', { value: true })
    await page.exposeBinding(IPC_BINDING, async (source, message: unknown) => {
      if (!isIpcMessage(message)) return { error: 'malformed IPC message' }
      if (message.kind === 'window-open') return void this.openWindow(String(message.args[0]))
      return ipcMain.dispatch(this, source.frame, message)
    })
    const preload = this.#prefs.preload ? readFileSync(this.#prefs.preload, 'utf8') : null
    await page.addInitScript({ content: pageInitScript(preload, process.platform) })
    page.on('close', () => this.#owner.destroy())
    page.on('pageerror', (err) => log(`window ${this.id} page error: ${err.message}`))
    return page
  }

  /** The Playwright page (stand-in only). */
  page(): Promise<Page> {
    return this.#ready
  }

  takeProgrammatic(url: string): boolean {
    if (this.#programmatic !== url) return false
    this.#programmatic = null
    return true
  }

  willNavigate(url: string): boolean {
    const event = preventableEvent()
    this.emit('will-navigate', event, url)
    return event.defaultPrevented
  }

  openWindow(url: string): void {
    const decision = this.#openHandler
      ? this.#openHandler({ url, frameName: '', features: '' })
      : { action: 'allow' }
    record('window-open', { url, action: decision.action, webContentsId: this.id })
    if (decision.action === 'allow')
      log(`window open allowed for ${url}: the stand-in opens no second window`)
  }

  setWindowOpenHandler(handler: OpenHandler | null): void {
    this.#openHandler = handler
    record('window-open-handler', { webContentsId: this.id, set: handler !== null })
  }

  getLastWebPreferences(): Record<string, unknown> {
    const { session: _s, ...rest } = this.#prefs
    return { ...rest }
  }

  async loadURL(url: string): Promise<void> {
    const page = await this.#ready
    const target = toChromiumUrl(url, customSchemes)
    this.#programmatic = url
    await page.goto(target, { waitUntil: 'load' })
    this.emit('did-finish-load')
  }

  loadFile(path: string): Promise<void> {
    return this.loadURL(pathToFileURL(path).toString())
  }

  getURL(): string {
    return this.#page ? toElectronUrl(this.#page.url()) : ''
  }

  send(channel: string, ...args: unknown[]): void {
    const payload = structuredClone(args)
    void this.#ready
      .then((page) =>
        page.evaluate(
          ([name, c, a]) => {
            const deliver = (globalThis as unknown as Record<string, (c: string, a: unknown[]) => void>)[name]
            deliver?.(c, a)
          },
          [DELIVER, channel, payload] as const,
        ),
      )
      .catch((err: unknown) => {
        if (!this.#destroyed) log(`send ${channel} to window ${this.id} failed: ${String(err)}`)
      })
  }

  async executeJavaScript(code: string): Promise<unknown> {
    return (await this.#ready).evaluate(code)
  }

  /** Electron's printToPDF options (inches) → CDP Page.printToPDF, which Electron itself calls. */
  async printToPDF(o: Record<string, unknown>): Promise<Buffer> {
    await this.#ready
    const cdp = this.#cdp
    if (!cdp) throw new Error('no page')
    const margins = (o.margins ?? {}) as Partial<Record<'top' | 'bottom' | 'left' | 'right', number>>
    const sizes: Record<string, [number, number]> = { A4: [8.27, 11.69], Letter: [8.5, 11], Legal: [8.5, 14] }
    const [paperWidth, paperHeight] = sizes[typeof o.pageSize === 'string' ? o.pageSize : 'Letter'] ?? [
      8.5, 11,
    ]
    const { data } = (await cdp.send('Page.printToPDF', {
      paperWidth,
      paperHeight,
      printBackground: o.printBackground === true,
      displayHeaderFooter: o.displayHeaderFooter === true,
      headerTemplate: typeof o.headerTemplate === 'string' ? o.headerTemplate : undefined,
      footerTemplate: typeof o.footerTemplate === 'string' ? o.footerTemplate : undefined,
      marginTop: margins.top,
      marginBottom: margins.bottom,
      marginLeft: margins.left,
      marginRight: margins.right,
      generateDocumentOutline: o.generateDocumentOutline === true,
      generateTaggedPDF: o.generateTaggedPDF === true,
    })) as { data: string }
    record('print-to-pdf', { webContentsId: this.id, partition: this.session.partition, url: this.getURL() })
    return Buffer.from(data, 'base64')
  }

  openDevTools(): void {
    record('open-devtools', { webContentsId: this.id })
  }

  isDestroyed(): boolean {
    return this.#destroyed
  }

  async close(): Promise<void> {
    this.#destroyed = true
    const page = this.#page
    if (page && !page.isClosed()) await page.close().catch(() => undefined)
  }
}

const windows: BrowserWindow[] = []
// The focused window, as Electron's BrowserWindow.getFocusedWindow() keeps it.
let focused: BrowserWindow | null = null
// A popup Chromium opened without saying from where (a link with target=_blank): the focused window's.
popups.owner = () => focused?.webContents ?? windows[0]?.webContents ?? null
// Quitting closes every window; app.ts asks through this rather than importing this file.
app.closeAllWindows = () => {
  for (const w of BrowserWindow.getAllWindows()) w.close()
}

export class BrowserWindow extends EventEmitter {
  static getAllWindows(): BrowserWindow[] {
    return [...windows]
  }
  static getFocusedWindow(): BrowserWindow | null {
    return focused
  }
  static fromWebContents(wc: unknown): BrowserWindow | null {
    return windows.find((w) => w.webContents === wc) ?? null
  }

  readonly id: number
  readonly webContents: WebContents
  #bounds: Rect
  #normal: Rect
  #visible: boolean
  #minimized = false
  #maximized = false
  #destroyed = false
  #title: string

  constructor(options: Record<string, unknown> = {}) {
    super()
    const prefs = (options.webPreferences ?? {}) as WebPreferences
    const width = typeof options.width === 'number' ? options.width : 800
    const height = typeof options.height === 'number' ? options.height : 600
    const x = typeof options.x === 'number' ? options.x : Math.round((WORK_AREA.width - width) / 2)
    const y = typeof options.y === 'number' ? options.y : Math.round((WORK_AREA.height - height) / 2)
    this.#bounds = { x, y, width, height }
    this.#normal = { ...this.#bounds }
    this.#visible = options.show !== false
    this.#title = typeof options.title === 'string' ? options.title : 'Electron'
    this.webContents = new WebContents(this, prefs, { width, height })
    this.id = this.webContents.id
    windows.push(this)
    const { session: _s, ...shownPrefs } = prefs
    record('browser-window', { id: this.id, options: { ...options, webPreferences: shownPrefs } })
    app.emit('web-contents-created', preventableEvent(), this.webContents)
    app.emit('browser-window-created', preventableEvent(), this)
    this.webContents.once('did-finish-load', () => this.emit('ready-to-show'))
  }

  loadURL(url: string): Promise<void> {
    return this.webContents.loadURL(url)
  }
  loadFile(path: string): Promise<void> {
    return this.webContents.loadFile(path)
  }
  show(): void {
    this.#visible = true
    this.#minimized = false
    this.focus()
    this.emit('show')
  }
  hide(): void {
    this.#visible = false
    this.emit('hide')
  }
  isVisible(): boolean {
    return this.#visible
  }
  focus(): void {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the module keeps which window has focus
    focused = this
    record('window-focus', { id: this.id })
    this.emit('focus')
  }
  isFocused(): boolean {
    return focused === this
  }
  minimize(): void {
    this.#minimized = true
    this.emit('minimize')
  }
  isMinimized(): boolean {
    return this.#minimized
  }
  restore(): void {
    this.#minimized = false
    this.emit('restore')
  }
  maximize(): void {
    if (this.#maximized) return
    this.#maximized = true
    this.#apply({ ...WORK_AREA })
    this.emit('maximize')
  }
  unmaximize(): void {
    if (!this.#maximized) return
    this.#maximized = false
    this.#apply({ ...this.#normal })
    this.emit('unmaximize')
  }
  isMaximized(): boolean {
    return this.#maximized
  }
  getBounds(): Rect {
    return { ...this.#bounds }
  }
  getNormalBounds(): Rect {
    return { ...(this.#maximized ? this.#normal : this.#bounds) }
  }
  setBounds(bounds: Partial<Rect>): void {
    const next = { ...this.#bounds, ...bounds }
    if (!this.#maximized) this.#normal = { ...next }
    this.#apply(next)
  }
  #apply(next: Rect): void {
    const moved = next.x !== this.#bounds.x || next.y !== this.#bounds.y
    const resized = next.width !== this.#bounds.width || next.height !== this.#bounds.height
    this.#bounds = next
    if (resized) {
      void this.webContents
        .page()
        .then((p) => p.setViewportSize({ width: next.width, height: next.height }))
        .catch(() => undefined)
      this.emit('resize')
    }
    if (moved) this.emit('move')
  }
  setTitle(title: string): void {
    this.#title = title
  }
  getTitle(): string {
    return this.#title
  }
  /** As Electron: 'close' (preventable), then the page goes and 'closed'. */
  close(): void {
    if (this.#destroyed) return
    const event = preventableEvent()
    this.emit('close', event)
    if (!event.defaultPrevented) this.destroy()
  }
  destroy(): void {
    if (this.#destroyed) return
    this.#destroyed = true
    void this.webContents.close()
    const i = windows.indexOf(this)
    if (i >= 0) windows.splice(i, 1)
    if (focused === this) focused = null
    this.emit('closed')
    if (windows.length === 0) app.lastWindowClosed()
  }
  isDestroyed(): boolean {
    return this.#destroyed
  }
}

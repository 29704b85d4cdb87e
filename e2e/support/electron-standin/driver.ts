// The desktop app as the end-to-end tests drive it, on two backends with one interface:
//   - 'stand-in': the app's real built main and preload run by the ELECTRON STAND-IN (boot.ts)
//     under Node, windows in Debian's Chromium over CDP. Never reported as Electron.
//   - 'electron': a real Electron binary (ELECTRON_OVERRIDE_DIST_PATH or an installed one) through
//     Playwright's _electron, when there is one.
// `evaluate(fn, arg)` runs fn in the main process with the electron module (stand-in or real), as
// Playwright's electronApp.evaluate does; `standin` is set only on the stand-in backend.
import { fork, type ChildProcess } from 'node:child_process'
import { mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { _electron, chromium, type Browser, type Page } from 'playwright-core'

export type Backend = 'stand-in' | 'electron'

/** The electron module as a test's evaluate() sees it (kept loose: two implementations). */
export type MainModule = Record<string, unknown> & {
  __standin?: {
    records: { kind: string; [key: string]: unknown }[]
    dialogAnswers: { save: unknown[]; messageBox: number[] }
    requestPermission(windowId: number, permission: string): Promise<boolean>
  }
}

export interface DesktopApp {
  backend: Backend
  /** The main window's page. */
  page: Page
  dataDir: string
  evaluate<R, A = undefined>(fn: (electron: MainModule, arg: A) => R | Promise<R>, arg?: A): Promise<R>
  /** Records of the stand-in (what the app asked of the OS); empty on Electron. */
  records(kind?: string): Promise<{ kind: string; [key: string]: unknown }[]>
  /** Everything the main process printed. */
  output(): string
  /** Quit as a user does (app.quit) and wait for the process to end; its exit code. */
  close(): Promise<number | null>
}

export interface LaunchOptions {
  root: string
  dataDir: string
  /** Where the stand-in keeps its safeStorage key (outside the data folder). */
  keyringDir: string
  env?: NodeJS.ProcessEnv
}

const BOOT = fileURLToPath(new URL('./boot.ts', import.meta.url))
/** How the stand-in's app:// pages look to Chromium (state.ts toChromiumUrl). */
const APP_PAGE = /^https:\/\/cannonade\.app\.scheme\.standin\.invalid\//

type Reply =
  | { type: 'result'; id: number; value?: unknown; error?: string }
  | { type: 'ready'; chromium: ChromiumInfo | null }

interface ChromiumInfo {
  endpoint: string
  pid: number
  profile: string
}

/** Start the stand-in main process; resolves when its window shows the app. */
export async function launchStandIn(opts: LaunchOptions): Promise<DesktopApp> {
  mkdirSync(opts.dataDir, { recursive: true })
  const child: ChildProcess = fork(BOOT, [opts.root], {
    cwd: opts.root,
    execArgv: [],
    serialization: 'advanced',
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    env: {
      ...process.env,
      ...opts.env,
      CANNONADE_DATA_DIR: opts.dataDir,
      ELECTRON_STANDIN_KEYRING: opts.keyringDir,
    },
  })
  let output = ''
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()))
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()))
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>()
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      // An evaluate() in flight gets an answer, not a wait forever.
      for (const p of pending.values()) p.reject(new Error(`the stand-in main process exited (${code})`))
      pending.clear()
      resolve(code)
    }),
  )
  let seq = 0
  let chromiumInfo: ChromiumInfo | null = null
  const ready = new Promise<ChromiumInfo>((resolve, reject) => {
    child.on('message', (m: Reply) => {
      if (m.type === 'ready') {
        if (m.chromium) resolve(m.chromium)
        else reject(new Error('the stand-in was ready without Chromium'))
      } else if (m.type === 'result') {
        const p = pending.get(m.id)
        pending.delete(m.id)
        if (m.error !== undefined) p?.reject(new Error(`in the stand-in main process: ${m.error}`))
        else p?.resolve(m.value)
      }
    })
    void exited.then((code) =>
      reject(new Error(`the stand-in main process exited (${code}) before it was ready:\n${output}`)),
    )
  })
  /** End the stand-in and its Chromium, however far it got (a killed stand-in cannot stop its browser). */
  const shutdown = async (browser: Browser | null): Promise<number | null> => {
    await browser?.close().catch(() => undefined)
    if (child.exitCode === null && child.signalCode === null && child.connected) child.send({ type: 'quit' })
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000)
    const code = await exited
    clearTimeout(timer)
    if (chromiumInfo) {
      try {
        process.kill(chromiumInfo.pid, 'SIGKILL')
      } catch {
        // already gone
      }
      rmSync(chromiumInfo.profile, { recursive: true, force: true })
    }
    return code
  }
  let browser: Browser | null = null
  let page: Page
  try {
    chromiumInfo = await ready
    const connected = await chromium.connectOverCDP(chromiumInfo.endpoint)
    browser = connected
    const context = connected.contexts()[0]
    if (!context) throw new Error('stand-in Chromium has no default context')
    // The window's page: the one that navigates to the app (pages are created, then loaded).
    page = await new Promise<Page>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no stand-in window showed the app:\n${output}`)),
        60_000,
      )
      const watch = (p: Page) => {
        const check = () => {
          if (!APP_PAGE.test(p.url())) return
          clearTimeout(timer)
          resolve(p)
        }
        p.on('framenavigated', (f) => f === p.mainFrame() && check())
        check()
      }
      context.on('page', watch)
      context.pages().forEach(watch)
    })
    await page.getByTestId('app-ready').waitFor({ timeout: 60_000 })
  } catch (err) {
    // Nothing of a failed launch may outlive it.
    await shutdown(browser)
    throw err
  }

  const evaluate: DesktopApp['evaluate'] = (fn, arg) =>
    new Promise((resolve, reject) => {
      const id = ++seq
      if (!child.connected) return reject(new Error('the stand-in main process has exited'))
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject })
      child.send({ type: 'evaluate', id, source: fn.toString(), arg })
    })
  return {
    backend: 'stand-in',
    page,
    dataDir: opts.dataDir,
    evaluate,
    records: (kind) =>
      evaluate((e, k) => (e.__standin?.records ?? []).filter((r) => k === undefined || r.kind === k), kind),
    output: () => output,
    close: () => shutdown(browser),
  }
}

/** Start a real Electron on the package root (as `npm start` does) through Playwright. */
export async function launchElectron(binary: string, opts: LaunchOptions): Promise<DesktopApp> {
  mkdirSync(opts.dataDir, { recursive: true })
  const app = await _electron.launch({
    executablePath: binary,
    args: [opts.root, '--no-sandbox'],
    cwd: opts.root,
    env: { ...process.env, ...opts.env, CANNONADE_DATA_DIR: opts.dataDir },
  })
  let output = ''
  app.process().stdout?.on('data', (d: Buffer) => (output += d.toString()))
  app.process().stderr?.on('data', (d: Buffer) => (output += d.toString()))
  const page = await app.firstWindow()
  await page.getByTestId('app-ready').waitFor({ timeout: 60_000 })
  return {
    backend: 'electron',
    page,
    dataDir: opts.dataDir,
    evaluate: (fn, arg) => app.evaluate(fn as never, arg) as never,
    records: async () => [],
    output: () => output,
    async close() {
      const exited = new Promise<number | null>((resolve) =>
        app.process().once('exit', (code) => resolve(code)),
      )
      await app.close()
      return exited
    },
  }
}

export function keyringFor(dataDir: string): string {
  return join(dataDir, '..', 'keyring')
}

// The desktop checks' lifecycle: which backends exist (the ELECTRON STAND-IN always; a real
// Electron when a binary is found, else a printed reason), one fresh data folder per test, every
// app a test launched closed after it, and the page's uncaught errors turned into a failure.
// Tests stub the OS-facing modules in main (shell, dialog) the same way on both backends, as
// Playwright's electronApp.evaluate examples do, so no file viewer or browser ever opens.
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeAll, describe, it } from 'vitest'
import { electronBinary } from '../../scripts/electron-binary.mjs'
import { ROOT } from './app.ts'
import { launchElectron, launchStandIn, type DesktopApp } from './electron-standin/driver.ts'

export interface Backend {
  kind: 'stand-in' | 'electron'
  /** For describe(): says plainly which one it is. */
  label: string
  /** Null when this backend cannot run here; `skipReason` says why. */
  available: boolean
  skipReason: string
}

export function desktopBackends(): Backend[] {
  const binary = electronBinary(ROOT)
  const version = (
    JSON.parse(readFileSync(join(ROOT, 'node_modules/electron/package.json'), 'utf8')) as { version: string }
  ).version
  return [
    {
      kind: 'stand-in',
      label: 'ELECTRON STAND-IN (real main + preload on Node, windows in Chromium over CDP; not Electron)',
      available: true,
      skipReason: '',
    },
    {
      kind: 'electron',
      label: `real Electron ${version}${binary ? ` (${binary})` : ''}`,
      available: binary !== null,
      skipReason:
        'no Electron binary here (ELECTRON_OVERRIDE_DIST_PATH unset and node_modules/electron/dist not downloaded: ELECTRON_SKIP_BINARY_DOWNLOAD)',
    },
  ]
}

/**
 * One describe per backend, titled with its label. On a backend that cannot run here, one skipped
 * test (`skipName`) that prints why; elsewhere `body` declares the tests, a fresh session each.
 */
export function describeDesktop(
  title: string,
  skipName: string,
  body: (backend: Backend, session: () => DesktopSession) => void,
): void {
  for (const backend of desktopBackends()) {
    describe(`${title} [${backend.label}]`, () => {
      if (!backend.available) {
        it(skipName, (ctx) => {
          console.log(`skipped [${backend.label}]: ${backend.skipReason}`)
          ctx.skip()
        })
        return
      }
      body(backend, desktopPerTest(backend).session)
    })
  }
}

export function buildElectronBundle(): void {
  beforeAll(() => {
    const built = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build-electron.mjs')], {
      cwd: ROOT,
      encoding: 'utf8',
    })
    if (built.status !== 0) throw new Error(`build-electron failed:\n${built.stdout}\n${built.stderr}`)
  }, 120_000)
}

export interface DesktopSession {
  /** The test's folder: data/ (the app's data folder) and keyring/ (the stand-in's key) inside. */
  base: string
  dataDir: string
  launch(opts?: { env?: NodeJS.ProcessEnv }): Promise<DesktopApp>
}

/** A file's text, or null when it cannot be read. */
function readText(file: string): string | null {
  try {
    return readFileSync(file, 'utf8')
  } catch {
    return null
  }
}

/** One folder per test; each launched app is closed (and its page errors checked) after the test. */
export function desktopPerTest(backend: Backend): { session: () => DesktopSession } {
  let apps: DesktopApp[] = []
  let errors: string[] = []
  let base: string | null = null
  afterEach(async (ctx) => {
    for (const app of apps) await app.close().catch(() => undefined)
    apps = []
    // A failed test prints the app's log before its folder goes: the engine's exits and its
    // stderr are there (electron/engine-process.ts), and nowhere else once the folder is removed.
    if (base && ctx.task.result?.state === 'fail') {
      const log = readText(join(base, 'data', 'logs', 'cannonade.log'))
      if (log) console.log(`the app's log (${base}):\n${log.split('\n').slice(-60).join('\n')}`)
    }
    if (base) rmSync(base, { recursive: true, force: true })
    base = null
    const seen = errors
    errors = []
    if (seen.length) throw new Error(`uncaught errors in the app's page:\n${seen.join('\n')}`)
  })
  return {
    session() {
      base = mkdtempSync(join(tmpdir(), `cannonade-desktop-${backend.kind}-`))
      const dataDir = join(base, 'data')
      const keyringDir = join(base, 'keyring')
      return {
        base,
        dataDir,
        async launch(opts = {}) {
          const binary = electronBinary(ROOT)
          const launchOpts = { root: ROOT, dataDir, keyringDir, env: opts.env }
          const app =
            backend.kind === 'stand-in'
              ? await launchStandIn(launchOpts)
              : await launchElectron(binary ?? 'no Electron binary', launchOpts)
          app.page.on('pageerror', (err) => errors.push(err.message))
          apps.push(app)
          return app
        },
      }
    },
  }
}

/**
 * Start the app's main process bare (no driver, no window awaited) on this session's data folder
 * and wait for it to end: for launches that must end by themselves (a second instance, a refused
 * configuration). Its exit code and output.
 */
export async function runMainToExit(
  backend: Backend,
  s: DesktopSession,
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number | null; output: string }> {
  const [cmd, args] =
    backend.kind === 'stand-in'
      ? [process.execPath, [join(ROOT, 'e2e/support/electron-standin/boot.ts'), ROOT]]
      : [electronBinary(ROOT) ?? 'no Electron binary', [ROOT, '--no-sandbox']]
  const child = spawn(cmd, args, {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    // A main process that never exits is ended after a minute (the test then fails on its code).
    timeout: 60_000,
    killSignal: 'SIGKILL',
    env: {
      ...process.env,
      ...env,
      CANNONADE_DATA_DIR: s.dataDir,
      ELECTRON_STANDIN_KEYRING: join(s.base, 'keyring'),
    },
  })
  let output = ''
  child.stdout.on('data', (d: Buffer) => (output += d.toString()))
  child.stderr.on('data', (d: Buffer) => (output += d.toString()))
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)))
  return { code, output }
}

/** What the stubs in main saw (installMainStubs). */
export interface MainCalls {
  opened: string[]
  revealed: string[]
  external: string[]
  saveDialogs: { defaultPath?: string; title?: string }[]
  messageBoxes: { message?: string; detail?: string; title?: string }[]
  secondInstances: number
  navigations: { url: string; prevented: boolean }[]
}

/**
 * Replace shell and dialog functions in the main process with recorders (the app calls them
 * through the module objects, so it sees the replacements), and listen for second-instance and
 * will-navigate after the app's own listeners.
 */
export async function installMainStubs(app: DesktopApp): Promise<void> {
  await app.evaluate((electron) => {
    type Fn = (...args: unknown[]) => unknown
    const e = electron as unknown as Record<string, Record<string, Fn> & { on?: Fn }>
    const calls = {
      opened: [] as string[],
      revealed: [] as string[],
      external: [] as string[],
      saveDialogs: [] as unknown[],
      messageBoxes: [] as unknown[],
      saveAnswers: [] as string[],
      secondInstances: 0,
      navigations: [] as { url: string; prevented: boolean }[],
    }
    ;(globalThis as unknown as { __desktopTest: typeof calls }).__desktopTest = calls
    const last = (args: unknown[]) => args[args.length - 1]
    e.shell!.openPath = async (p: unknown) => (calls.opened.push(String(p)), '')
    e.shell!.showItemInFolder = (p: unknown) => void calls.revealed.push(String(p))
    e.shell!.openExternal = async (u: unknown) => void calls.external.push(String(u))
    e.dialog!.showSaveDialog = async (...args: unknown[]) => {
      calls.saveDialogs.push(last(args))
      const answer = calls.saveAnswers.shift()
      return answer ? { canceled: false, filePath: answer } : { canceled: true, filePath: '' }
    }
    e.dialog!.showMessageBox = async (...args: unknown[]) => {
      calls.messageBoxes.push(last(args))
      return { response: 0, checkboxChecked: false }
    }
    e.app!.on!('second-instance', () => void calls.secondInstances++)
    const windows = (
      e.BrowserWindow as unknown as { getAllWindows(): { webContents: { on: Fn } }[] }
    ).getAllWindows()
    for (const w of windows)
      w.webContents.on('will-navigate', (event: unknown, url: unknown) =>
        calls.navigations.push({
          url: String(url),
          prevented: (event as { defaultPrevented: boolean }).defaultPrevented,
        }),
      )
  })
}

export async function mainCalls(app: DesktopApp): Promise<MainCalls> {
  return app.evaluate(() => {
    const c = (globalThis as unknown as { __desktopTest: MainCalls & { saveAnswers: string[] } })
      .__desktopTest
    const { saveAnswers: _a, ...rest } = c
    return JSON.parse(JSON.stringify(rest)) as MainCalls
  })
}

/** The next save dialog answers with this path. */
export async function answerSaveDialog(app: DesktopApp, path: string): Promise<void> {
  await app.evaluate((_e, p) => {
    ;(globalThis as unknown as { __desktopTest: { saveAnswers: string[] } }).__desktopTest.saveAnswers.push(p)
  }, path)
}

export type Envelope = { ok: true; result: unknown } | { ok: false; error: { code: string; message: string } }

/** Call window.cannonade.<domain>.<action>(...args) in the page and return its Envelope. */
export function bridgeCall(app: DesktopApp, channel: string, args: unknown[]): Promise<Envelope> {
  return app.page.evaluate(
    async ([c, a]) => {
      const [domain = '', action = ''] = c.split(':')
      const bridge = (
        globalThis as unknown as {
          cannonade: Record<string, Record<string, (...x: unknown[]) => Promise<Envelope>>>
        }
      ).cannonade
      return bridge[domain]![action]!(...a)
    },
    [channel, args] as const,
  )
}

export function desktopCall(app: DesktopApp, path: string, args: unknown[]): Promise<unknown> {
  return app.page.evaluate(
    async ([p, a]) => {
      let target: unknown = (globalThis as unknown as { cannonadeDesktop: unknown }).cannonadeDesktop
      for (const key of p.split('.')) target = (target as Record<string, unknown>)[key]
      return (target as (...x: unknown[]) => Promise<unknown>)(...a)
    },
    [path, args] as const,
  )
}

/** A 1-second run against the demo target through the bridge, awaited through onEnded; its run id. */
export async function quickRun(app: DesktopApp): Promise<number> {
  const settings = await bridgeCall(app, 'settings:get', [])
  const demoUrl = settings.ok ? (settings.result as { demoUrl: string }).demoUrl : ''
  return app.page.evaluate(async (url) => {
    const api = (
      globalThis as unknown as {
        cannonade: {
          runs: {
            start(c: unknown): Promise<Envelope>
            onEnded(cb: (e: { runId: number; status: string }) => void): () => void
          }
        }
      }
    ).cannonade.runs
    const ended: { runId: number; status: string }[] = []
    let wake = () => {}
    const off = api.onEnded((e) => (ended.push(e), wake()))
    const started = await api.start({
      version: 1,
      name: 'desktop e2e',
      targets: [{ name: 'demo', url: `${url}/ads` }],
      load: { connections: 2, duration: 1 },
      cooldownSeconds: 0,
    })
    if (!started.ok) throw new Error(started.error.message)
    const { runId } = started.result as { runId: number }
    while (!ended.some((e) => e.runId === runId)) await new Promise<void>((r) => (wake = r))
    off()
    const end = ended.find((e) => e.runId === runId)!
    if (end.status !== 'done') throw new Error(`run ${runId} ended ${end.status}`)
    return runId
  }, demoUrl)
}

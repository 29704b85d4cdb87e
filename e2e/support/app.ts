// One web-mode app per test: a fresh data directory, the real engine, the web server on port 0,
// and a Chromium page with the token URL open. Screenshots go to artifacts/e2e/ (ignored by git);
// the ones the repository keeps (run detail, compare: `screen`) go to artifacts/screens/ only under
// `npm run docs:screens` (CANNONADE_SCREENS=1), so a test run leaves the working tree as it was.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll } from 'vitest'
import type { Api } from '../../engine/api/api.ts'
import { createEngine, type EngineHost } from '../../engine/host/index.ts'
import { startServer, type RunningServer } from '../../engine/server/http.ts'
import { CHROMIUM_ARGS } from '../../engine/report/pdf.ts'

export const ROOT = fileURLToPath(new URL('../../', import.meta.url))
export const STATIC_DIR = join(ROOT, 'dist', 'renderer')
export const ARTIFACTS = join(ROOT, 'artifacts', 'e2e')
/** Committed screenshots (see .gitignore): what the main screens look like now. */
export const SCREENS = join(ROOT, 'artifacts', 'screens')
/** Where `screen` writes: the committed folder under `npm run docs:screens`, else with the others. */
export const KEPT_SCREENS = process.env.CANNONADE_SCREENS === '1' ? SCREENS : ARTIFACTS
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/**
 * A chart line that has been drawn: a path through two points at least. Wait for it attached, not
 * visible: a flat line (a p50 that held for every second) has a box of zero height, which
 * Playwright calls hidden however long it waits.
 */
export const DRAWN_LINE = '.recharts-line-curve[d*="L"]'

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
  })
}

export interface App {
  dataDir: string
  engine: EngineHost
  server: RunningServer
  context: BrowserContext
  page: Page
  /** Open the app the way a user does: the printed URL with its token. */
  open(hash?: string): Promise<void>
  screenshot(name: string): Promise<string>
  /** A screenshot the repository keeps: in artifacts/screens/ under `npm run docs:screens` (KEPT_SCREENS). */
  screen(name: string): Promise<string>
  close(): Promise<void>
}

export interface AppOptions {
  /** Wrap the engine before it is served (the replay test injects events this way). */
  wrap?: (engine: EngineHost) => Api
  viewport?: { width: number; height: number }
  colorScheme?: 'light' | 'dark'
  /** A data folder prepared before (say by the CLI); a fresh one by default. Removed at close… */
  dataDir?: string
  /** The PostgreSQL store that load agents other than local processes coordinate through. */
  agentStoreUrl?: string
  /** Record the page's traffic as a HAR file here (Playwright's recordHar; written when the context closes). */
  recordHar?: string
  /** …unless kept: the results database `npm run results` keeps (bench/results/doc.ts). */
  keep?: boolean
}

export async function startApp(browser: Browser, opts: AppOptions = {}): Promise<App> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'cannonade-e2e-'))
  const engine = await createEngine({
    dbPath: join(dataDir, 'cannonade.db'),
    demo: true,
    ...(opts.agentStoreUrl ? { agentStoreUrl: opts.agentStoreUrl } : {}),
  })
  // As `cannonade serve` does: downloads come from this data folder.
  const server = await startServer({
    host: opts.wrap ? opts.wrap(engine) : engine,
    staticDir: STATIC_DIR,
    dataDir,
  })
  const context = await browser.newContext({
    viewport: opts.viewport ?? { width: 1360, height: 900 },
    colorScheme: opts.colorScheme ?? 'light',
    ...(opts.recordHar ? { recordHar: { path: opts.recordHar, content: 'omit' as const } } : {}),
  })
  const page = await context.newPage()
  const errors: string[] = []
  page.on('pageerror', (err) => errors.push(err.message))
  mkdirSync(ARTIFACTS, { recursive: true })
  return {
    dataDir,
    engine,
    server,
    context,
    page,
    async open(hash = '') {
      await page.goto(server.url + hash)
      await page.getByTestId('app-ready').waitFor()
    },
    async screenshot(name) {
      const path = join(ARTIFACTS, `${name}.png`)
      await page.screenshot({ path, fullPage: true })
      return path
    },
    async screen(name) {
      mkdirSync(KEPT_SCREENS, { recursive: true })
      const path = join(KEPT_SCREENS, `${name}.png`)
      await page.screenshot({ path, fullPage: true })
      return path
    },
    async close() {
      await context.close()
      await server.close()
      await engine.close()
      if (!opts.keep) rmSync(dataDir, { recursive: true, force: true })
      if (errors.length) throw new Error(`uncaught errors in the page:\n${errors.join('\n')}`)
    },
  }
}

/**
 * One browser per test file and one app (fresh data folder, own server) per test, closed after
 * it: call at the top of a test file, then `const app = await start()` in each test.
 */
export function appPerTest(): { start: (opts?: AppOptions) => Promise<App> } {
  let browser: Browser | null = null
  let current: App | null = null
  beforeAll(async () => {
    browser = await launchBrowser()
  })
  afterAll(async () => {
    await browser?.close()
  })
  afterEach(async () => {
    await current?.close()
    current = null
  })
  return {
    start: async (opts) => {
      if (!browser) throw new Error('appPerTest: the browser is not up (call it at the top of the file)')
      current = await startApp(browser, opts)
      return current
    },
  }
}

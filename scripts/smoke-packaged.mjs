#!/usr/bin/env node
// Smoke test of a packaged app (the release workflow runs it after electron-builder, on Linux,
// macOS and Windows): start the unpacked app from release/ with a fresh, empty data folder, wait
// for its one window to show the app, check the preload bridge answers from the engine, take a
// screenshot, quit. Exit 0 when all of it worked, 1 otherwise, saying what failed.
//
// It drives the app through Chromium's DevTools port (--remote-debugging-port), not Playwright's
// _electron: that needs Node's --inspect, which the packaged app's fuses switch off
// (electron-builder.yml, enableNodeCliInspectArguments). Needs a display (xvfb-run on Linux CI).
//
//   node scripts/smoke-packaged.mjs [path/to/executable]   (default: found under release/)
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium } from 'playwright-core'

const root = fileURLToPath(new URL('..', import.meta.url))
const release = join(root, 'release')

/** The unpacked app electron-builder leaves next to the installers, per platform. */
export function findPackaged(dir = release, platform = process.platform) {
  if (!existsSync(dir)) return null
  const subdirs = readdirSync(dir)
  const candidates =
    platform === 'darwin'
      ? subdirs
          .filter((d) => d.startsWith('mac'))
          .map((d) => join(dir, d, 'Cannonade.app', 'Contents', 'MacOS', 'Cannonade'))
      : platform === 'win32'
        ? subdirs
            .filter((d) => d.startsWith('win') && d.endsWith('unpacked'))
            .map((d) => join(dir, d, 'Cannonade.exe'))
        : subdirs
            .filter((d) => d.startsWith('linux') && d.endsWith('unpacked'))
            .map((d) => join(dir, d, 'cannonade'))
  return candidates.find((c) => existsSync(c)) ?? null
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer()
    srv.once('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (srv.address())
      srv.close(() => resolve(port))
    })
  })
}

async function main() {
  const executable = process.argv[2] ?? findPackaged()
  if (!executable || !existsSync(executable)) {
    console.error(
      `smoke: no packaged app${executable ? ` at ${executable}` : ' under release/'} (run npm run dist first)`,
    )
    return 1
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'cannonade-smoke-'))
  const port = await freePort()
  // Linux: the unpacked folder's chrome-sandbox is not setuid (the deb's is), so no sandbox here.
  const args = [`--remote-debugging-port=${port}`, ...(process.platform === 'linux' ? ['--no-sandbox'] : [])]
  console.log(`smoke: ${executable} ${args.join(' ')} (data folder ${dataDir})`)
  const app = spawn(executable, args, {
    env: { ...process.env, CANNONADE_DATA_DIR: dataDir },
    stdio: 'inherit',
  })
  let ended = null
  const exited = new Promise((resolve) =>
    app.once('exit', (code, signal) => {
      ended = { code, signal }
      resolve(ended)
    }),
  )
  let browser = null
  try {
    // The DevTools port answers once Chromium is up (bounded: 60 s, or until the app ends).
    const deadline = Date.now() + 60_000
    while (!browser) {
      if (ended)
        throw new Error(
          `the app exited (code ${ended.code}, signal ${ended.signal}) before it opened a window`,
        )
      try {
        browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`, { timeout: 5000 })
      } catch (err) {
        if (Date.now() > deadline) throw new Error(`no DevTools endpoint within 60 s: ${err}`)
        await new Promise((r) => setTimeout(r, 500))
      }
    }
    const context = browser.contexts()[0]
    const page = await new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error('no window showed app://cannonade within 60 s')),
        60_000,
      )
      const watch = (p) => {
        const check = () => p.url().startsWith('app://cannonade/') && (clearTimeout(timer), resolve(p))
        p.on('framenavigated', check)
        check()
      }
      context.on('page', watch)
      context.pages().forEach(watch)
    })
    await page.getByTestId('app-ready').waitFor({ timeout: 60_000 })
    const settings = await page.evaluate(() => globalThis.cannonade.settings.get())
    if (!settings.ok) throw new Error(`settings.get through the bridge failed: ${settings.error.message}`)
    if (settings.result.dataDir !== dataDir)
      throw new Error(`the app uses ${settings.result.dataDir}, not the fresh data folder ${dataDir}`)
    const windows = context.pages().filter((p) => p.url().startsWith('app://'))
    if (windows.length !== 1) throw new Error(`expected one app window, found ${windows.length}`)
    mkdirSync(join(root, 'artifacts'), { recursive: true })
    const shot = join(root, 'artifacts', `smoke-${process.platform}.png`)
    await page.screenshot({ path: shot })
    console.log(`smoke: one window, the app is ready, the engine answers (data folder ${dataDir}); ${shot}`)
    return 0
  } catch (err) {
    console.error(`smoke: FAILED: ${err instanceof Error ? err.message : String(err)}`)
    return 1
  } finally {
    await browser?.close().catch(() => undefined)
    app.kill()
    const timer = setTimeout(() => app.kill('SIGKILL'), 15_000)
    await exited
    clearTimeout(timer)
    rmSync(dataDir, { recursive: true, force: true })
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exit(await main())

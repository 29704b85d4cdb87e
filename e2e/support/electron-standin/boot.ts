// ELECTRON STAND-IN (test harness, not Electron): the entry of the process that plays Electron's
// main process. `node boot.ts <appPath>` resolves the module 'electron' to ./electron.ts, imports
// the app's real main (package.json "main" under appPath, e.g. dist-electron/main.js), then starts
// Chromium and emits 'ready', as `electron <appPath>` would. Over its IPC channel the driver
// (driver.ts) learns the DevTools endpoint, evaluates functions against the electron module (as
// Playwright's electronApp.evaluate does), and asks it to quit.
import { readFileSync } from 'node:fs'
import { registerHooks } from 'node:module'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type * as StandInModule from './electron.ts'

type StandIn = typeof StandInModule

const STANDIN = new URL('./electron.ts', import.meta.url).href

registerHooks({
  resolve(specifier, context, next) {
    if (specifier === 'electron') return { url: STANDIN, format: 'module', shortCircuit: true }
    return next(specifier, context)
  },
})

type Control = { type: 'evaluate'; id: number; source: string; arg: unknown } | { type: 'quit' }

const electron = (await import(STANDIN)) as StandIn
const { app, __standin } = electron

process.on('message', (message: Control) => {
  if (message.type === 'quit') return app.quit()
  if (message.type !== 'evaluate') return
  const run = async () => {
    // The driver sends a function's source, as Playwright's evaluate does; it gets the module.
    const fn = (0, eval)(`(${message.source})`) as (e: unknown, arg: unknown) => unknown
    return fn(electron.default, message.arg)
  }
  run().then(
    (value) => process.send?.({ type: 'result', id: message.id, value }),
    (err: unknown) =>
      process.send?.({
        type: 'result',
        id: message.id,
        error: err instanceof Error ? (err.stack ?? err.message) : String(err),
      }),
  )
})
// The driver gone (test failed, killed): end like an app whose last window was closed.
process.on('disconnect', () => app.exit(1))
process.on('SIGTERM', () => app.exit(143))

const appPath = resolve(process.argv[2] ?? '.')
const pkg = JSON.parse(readFileSync(join(appPath, 'package.json'), 'utf8')) as {
  name: string
  version: string
  main: string
}
app.configure(appPath, pkg.name, pkg.version)
await import(pathToFileURL(join(appPath, pkg.main)).href)
await app.start()
if (app.isReady()) process.send?.({ type: 'ready', chromium: __standin.chromium() })

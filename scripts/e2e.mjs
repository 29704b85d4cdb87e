#!/usr/bin/env node
// `npm run e2e`: build the renderer, then run the end-to-end suite (e2e/*.e2e.ts) with vitest:
// web mode, the desktop shell (Electron stand-in; real Electron where installed), packaging.
// Needs Chromium at /usr/bin/chromium (Debian: apt-get install chromium) or CHROMIUM_PATH.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const bin = (name) => fileURLToPath(new URL(`../node_modules/.bin/${name}`, import.meta.url))
const run = (cmd, args) => spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: process.env }).status ?? 1

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
if (!existsSync(chromium)) {
  console.error(
    `e2e: no Chromium at ${chromium}. Install it (apt-get install -y chromium) or set CHROMIUM_PATH.`,
  )
  process.exit(2)
}
if (!process.argv.includes('--no-build')) {
  const status = run(bin('vite'), ['build', '--logLevel', 'warn'])
  if (status !== 0) process.exit(status)
}
const extra = process.argv.slice(2).filter((a) => a !== '--no-build')
process.exit(run(bin('vitest'), ['run', '--config', 'e2e/vitest.config.ts', ...extra]))

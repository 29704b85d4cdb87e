#!/usr/bin/env node
// `npm test`: every check, in order of cost. Typecheck and lint first (seconds), then the engine,
// monitor, store and target tests (vitest), then the end-to-end tests: web mode in Chromium, the
// desktop shell on the Electron stand-in (and a real Electron where one is installed), packaging.
// Exit non-zero on the first failing stage, saying which.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'

const [major, minor] = process.versions.node.split('.').map(Number)
if (major < 22 || (major === 22 && minor < 18)) {
  console.error(`npm test needs Node.js 22.18 or newer (this is ${process.version}); see README.md`)
  process.exit(2)
}

const stages = [
  ['typecheck (engine)', 'npx', ['tsc', '-p', 'tsconfig.json', '--noEmit']],
  ['typecheck (renderer)', 'npx', ['tsc', '-p', 'tsconfig.renderer.json']],
  ['typecheck (electron)', 'npx', ['tsc', '-p', 'tsconfig.electron.json']],
  ['lint', 'npx', ['eslint', '.']],
  ['unit and integration tests', 'npx', ['vitest', 'run']],
]
if (existsSync('scripts/e2e.mjs'))
  stages.push([
    'end-to-end tests (Chromium: web mode; desktop shell on the Electron stand-in; packaging)',
    process.execPath,
    ['scripts/e2e.mjs'],
  ])

for (const [name, cmd, args] of stages) {
  console.log(`\n=== ${name}: ${cmd} ${args.join(' ')}`)
  const started = Date.now()
  const r = spawnSync(cmd, args, { stdio: 'inherit' })
  const secs = ((Date.now() - started) / 1000).toFixed(1)
  if (r.status !== 0) {
    console.error(`\n=== ${name} FAILED after ${secs} s (exit ${r.status ?? r.signal})`)
    process.exit(r.status || 1)
  }
  console.log(`=== ${name} passed in ${secs} s`)
}

#!/usr/bin/env node
// `npm start`: build what is out of date (renderer, Electron bundle) and launch the desktop app.
// `npm run dev` (--dev): Vite's dev server with hot reload, and Electron pointed at it.
// The binary: ELECTRON_OVERRIDE_DIST_PATH (an unpacked Electron) or the one `npm ci` downloaded
// (scripts/electron-binary.mjs). Without one (ELECTRON_SKIP_BINARY_DOWNLOAD=1) it says so and exits 1.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { electronBinary } from './electron-binary.mjs'

const root = fileURLToPath(new URL('..', import.meta.url))
const dev = process.argv.includes('--dev')

function newest(path) {
  if (!existsSync(path)) return 0
  const st = statSync(path)
  if (!st.isDirectory()) return st.mtimeMs
  let max = st.mtimeMs
  for (const name of readdirSync(path)) {
    if (name === 'node_modules' || name.startsWith('.')) continue
    max = Math.max(max, newest(join(path, name)))
  }
  return max
}

function stale(output, inputs) {
  if (!existsSync(output)) return true
  const built = statSync(output).mtimeMs
  return inputs.some((i) => newest(join(root, i)) > built)
}

function run(cmd, args, env = process.env) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env })
  if (r.status !== 0) process.exit(r.status ?? 1)
}

const electron = electronBinary(root)
if (!electron) {
  console.error(
    'Electron binary not installed (ELECTRON_SKIP_BINARY_DOWNLOAD?): set ELECTRON_OVERRIDE_DIST_PATH to an unpacked Electron, or run `npm run serve` for the web UI',
  )
  process.exit(1)
}

const vite = join(root, 'node_modules', '.bin', 'vite')
if (
  !dev &&
  stale(join(root, 'dist', 'renderer', 'index.html'), ['renderer', 'engine', 'resources', 'vite.config.ts'])
) {
  console.log('building the renderer…')
  run(vite, ['build', '--logLevel', 'warn'])
}
if (stale(join(root, 'dist-electron', 'main.js'), ['electron', 'engine', 'scripts/build-electron.mjs'])) {
  console.log('building the Electron bundle…')
  run(process.execPath, [join(root, 'scripts', 'build-electron.mjs')])
}

const children = []
const env = { ...process.env }
if (dev) {
  const port = process.env.VITE_PORT ?? '5173'
  const server = spawn(vite, ['--port', port, '--strictPort'], { cwd: root, stdio: 'inherit' })
  children.push(server)
  env.CANNONADE_DEV_URL = `http://localhost:${port}/`
}
// "." (the package root), not main.js: app.getAppPath() must be the root, as in a packaged app.
const app = spawn(electron, ['.'], { cwd: root, stdio: 'inherit', env })
children.push(app)
const stopAll = () => children.forEach((c) => c.kill('SIGTERM'))
process.on('SIGINT', stopAll)
process.on('SIGTERM', stopAll)
app.on('exit', (code) => {
  stopAll()
  process.exit(code ?? 0)
})

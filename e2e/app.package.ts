// Installers build without the internet: `electron-builder --linux dir` packs the app against a
// STAND-IN Electron distribution (e2e/support/electron-standin/dist.ts: Electron's layout, a
// script for the executable, never run), with no network at all where the machine allows it
// (a network namespace with no interface). The test then checks what a user would get: the asar
// and its unpacked folder (engine, templates, targets, better-sqlite3's .node), the fuses, and the
// packed engine itself, run under Node out of the packed files: a demo run writes its database
// into a fresh data folder, and the test reads the run back with the packed better-sqlite3.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import asar from '@electron/asar'
import { FuseV1Options, getCurrentFuseWire } from '@electron/fuses'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse as parseYaml } from 'yaml'
import type { FromEngine } from '../electron/protocol.ts'
import { ROOT } from './support/app.ts'
import { makeStandInElectronDist } from './support/electron-standin/dist.ts'
import { forkEngine } from './support/engine-child.ts'
import { findPackaged } from '../scripts/smoke-packaged.mjs'

const work = mkdtempSync(join(tmpdir(), 'cannonade-package-'))
const out = join(work, 'release')
const appDir = join(out, 'linux-unpacked')
const resources = join(appDir, 'resources')
const archive = join(resources, 'app.asar')
const electronVersion = (
  JSON.parse(readFileSync(join(ROOT, 'node_modules/electron/package.json'), 'utf8')) as { version: string }
).version
let offline: string | null = null

/** Whether this machine lets the build run in a network namespace of its own (root, unshare). */
function networkNamespace(): string | null {
  const probe = spawnSync('unshare', ['-n', 'true'], { encoding: 'utf8' })
  return probe.status === 0
    ? null
    : `unshare -n is not available here (${(probe.stderr || probe.error?.message || 'exit ' + probe.status).trim()})`
}

beforeAll(() => {
  if (!existsSync(join(ROOT, 'dist/renderer/index.html')))
    throw new Error('dist/renderer is missing: run through scripts/e2e.mjs (it builds the renderer)')
  const built = spawnSync(process.execPath, [join(ROOT, 'scripts/build-electron.mjs')], {
    cwd: ROOT,
    encoding: 'utf8',
  })
  if (built.status !== 0) throw new Error(`build-electron failed:\n${built.stdout}\n${built.stderr}`)
  const dist = makeStandInElectronDist(join(work, 'electron-standin-dist'), electronVersion)
  const builder = [
    join(ROOT, 'node_modules/electron-builder/cli.js'),
    '--config',
    'electron-builder.yml',
    '--linux',
    'dir',
    `-c.electronDist=${dist}`,
    `-c.directories.output=${out}`,
  ]
  const why = networkNamespace()
  offline = why
  const started = Date.now()
  const run =
    why === null
      ? spawnSync('unshare', ['-n', process.execPath, ...builder], { cwd: ROOT, encoding: 'utf8' })
      : spawnSync(process.execPath, builder, { cwd: ROOT, encoding: 'utf8' })
  console.log(
    `electron-builder --linux dir with a stand-in Electron distribution: ${((Date.now() - started) / 1000).toFixed(1)} s, ${why === null ? 'with no network (unshare -n)' : `network available (${why})`}`,
  )
  if (run.status !== 0)
    throw new Error(`electron-builder failed (${run.status}):\n${run.stdout}\n${run.stderr}`)
}, 180_000)

afterAll(() => rmSync(work, { recursive: true, force: true }))

describe('installers (electron-builder --linux dir, stand-in Electron distribution)', () => {
  it('builds with no network at all: nothing to download, no native rebuild', (ctx) => {
    if (offline !== null) {
      console.log(`skipped: ${offline}; the build above ran with the network available`)
      ctx.skip()
      return
    }
    expect(existsSync(archive)).toBe(true)
    // No rebuild left build products behind in the installed modules.
    expect(existsSync(join(ROOT, 'node_modules/better-sqlite3/build'))).toBe(false)
    expect(existsSync(join(ROOT, 'node_modules/cpu-features/build'))).toBe(false)
  })

  it('packs main, preload, renderer and templates in app.asar; engine, targets and better-sqlite3 unpacked', () => {
    const files = new Set(
      asar.listPackage(archive, { isPack: false }).map((f) => f.replaceAll('\\', '/').replace(/^\//, '')),
    )
    for (const f of [
      'package.json',
      'dist-electron/main.js',
      'dist-electron/preload.cjs',
      'dist-electron/engine-host.cjs',
      'dist/renderer/index.html',
      'resources/icon.png',
      'resources/templates/thesis-java-vs-node.yaml',
      'node_modules/autocannon/package.json',
      'node_modules/zod/package.json',
    ])
      expect(files, f).toContain(f)
    const unpacked = [
      'dist-electron/engine/entry.js',
      'dist-electron/engine/worker.js',
      'dist-electron/engine/writer.js',
      'targets/stacks.json',
      'targets/node-http/compose.yaml',
      'node_modules/better-sqlite3/prebuilds/linux-x64.node',
    ]
    for (const f of unpacked) {
      expect(asar.statFile(archive, f), f).toMatchObject({ unpacked: true })
      expect(existsSync(join(resources, 'app.asar.unpacked', f)), f).toBe(true)
    }
    expect(
      [...files].some((f) => f.startsWith('dist-electron/engine/migrations/') && f.endsWith('.sql')),
    ).toBe(true)
    // Left out: build-only files, other platforms' binaries, what Vite bundled, source maps, leftovers.
    const leftOut = [...files].filter((f) =>
      /^node_modules\/(cpu-features|nan|node-addon-api|buildcheck|react|react-dom|recharts)\/|^node_modules\/better-sqlite3\/(deps|src)\/|better-sqlite3\/prebuilds\/(darwin|win32)|\.map$|^release\/|^renderer\/|^engine\/|^e2e\//.test(
        f,
      ),
    )
    expect(leftOut).toEqual([])
    const pkg = JSON.parse(asar.extractFile(archive, 'package.json').toString()) as Record<string, unknown>
    expect(pkg).toMatchObject({
      main: 'dist-electron/main.js',
      homepage: expect.any(String),
      author: { email: expect.stringContaining('@') },
    })
  })

  it('flips the fuses electron-builder.yml asks for in the executable', async () => {
    const config = parseYaml(readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8')) as {
      electronFuses: Record<string, boolean>
    }
    const wire = (await getCurrentFuseWire(join(appDir, 'cannonade'))) as unknown as Record<number, number>
    const index: Record<string, FuseV1Options> = {
      runAsNode: FuseV1Options.RunAsNode,
      enableCookieEncryption: FuseV1Options.EnableCookieEncryption,
      enableNodeOptionsEnvironmentVariable: FuseV1Options.EnableNodeOptionsEnvironmentVariable,
      enableNodeCliInspectArguments: FuseV1Options.EnableNodeCliInspectArguments,
      enableEmbeddedAsarIntegrityValidation: FuseV1Options.EnableEmbeddedAsarIntegrityValidation,
      onlyLoadAppFromAsar: FuseV1Options.OnlyLoadAppFromAsar,
      loadBrowserProcessSpecificV8Snapshot: FuseV1Options.LoadBrowserProcessSpecificV8Snapshot,
      grantFileProtocolExtraPrivileges: FuseV1Options.GrantFileProtocolExtraPrivileges,
    }
    for (const [name, on] of Object.entries(config.electronFuses)) {
      const i = index[name]
      expect(i, name).toBeDefined()
      expect(wire[i!], name).toBe(on ? 49 : 48) // '1' / '0'
    }
  })

  it('runs the packed engine under Node: a demo run in a fresh data folder, read back', async () => {
    const app = join(work, 'extracted')
    // What Electron reads through its asar support, as plain files (unpacked ones included).
    asar.extractAll(archive, app)
    const dataDir = join(work, 'data')
    const engine = forkEngine(join(app, 'dist-electron/engine-host.cjs'), join(dataDir, 'cannonade.db'), {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
    })
    try {
      await engine.next((m): m is Extract<FromEngine, { type: 'ready' }> => m.type === 'ready')
      const settings = await engine.call('settings:get', [])
      const demoUrl = settings.ok ? (settings.result as { demoUrl?: string }).demoUrl : undefined
      expect(demoUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      const started = await engine.call('runs:start', [
        {
          version: 1,
          name: 'packed engine',
          targets: [{ name: 'demo', url: `${demoUrl}/ads` }],
          load: { connections: 2, duration: 1 },
          cooldownSeconds: 0,
        },
      ])
      expect(started.ok).toBe(true)
      const runId = started.ok ? (started.result as { runId: number }).runId : -1
      const ended = await engine.next(
        (m): m is Extract<FromEngine, { type: 'event' }> =>
          m.type === 'event' && m.event === 'runs:ended' && (m.payload as { runId: number }).runId === runId,
      )
      expect(ended.payload).toMatchObject({ status: 'done' })
      const run = await engine.call('runs:get', [runId])
      expect(run).toMatchObject({ ok: true, result: { status: 'done' } })
    } finally {
      expect(await engine.shutdown()).toBe(0)
    }
    // Read back with the packed better-sqlite3 (its linux prebuild), not the repository's.
    const requirePacked = createRequire(join(app, 'package.json'))
    const Database = requirePacked('better-sqlite3') as new (
      path: string,
      o: { readonly: boolean },
    ) => {
      prepare(sql: string): { get(): unknown }
      close(): void
    }
    const db = new Database(join(dataDir, 'cannonade.db'), { readonly: true })
    try {
      const row = db.prepare("SELECT name, status FROM runs WHERE name = 'packed engine'").get()
      expect(row).toEqual({ name: 'packed engine', status: 'done' })
      const requests = db.prepare('SELECT COUNT(*) AS n FROM samples').get() as { n: number }
      expect(requests.n).toBeGreaterThan(0)
    } finally {
      db.close()
    }
  })

  it('the release smoke test finds the packed executable, and fails loudly when it is not a working app', () => {
    expect(findPackaged(out, 'linux')).toBe(join(appDir, 'cannonade'))
    // The stand-in executable exits at once: the smoke test must say so and exit 1, not wait or pass.
    const smoke = spawnSync(
      process.execPath,
      [join(ROOT, 'scripts/smoke-packaged.mjs'), join(appDir, 'cannonade')],
      {
        cwd: ROOT,
        encoding: 'utf8',
        timeout: 60_000,
      },
    )
    expect(smoke.status).toBe(1)
    expect(smoke.stderr).toMatch(/smoke: FAILED: the app exited \(code 1/)
  })
})

// The desktop side. The engine bundle Electron runs in its utility process is exercised under
// plain Node (same code, same worker and migrations layout) so a bundling mistake shows up here;
// the Electron smoke test needs an Electron binary and says it was skipped when there is none.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { _electron } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FromEngine, ToEngine } from '../electron/protocol.ts'
import type { Channel } from '../engine/api/channels.ts'
import type { EngineHost } from '../engine/host.ts'
import { ARTIFACTS, ROOT } from './support/app.ts'
import { electronBinary as findElectron } from '../scripts/electron-binary.mjs'

const electronBinary = () => findElectron(ROOT)

beforeAll(() => {
  const built = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build-electron.mjs')], {
    cwd: ROOT,
    encoding: 'utf8',
  })
  if (built.status !== 0) throw new Error(`build-electron failed:\n${built.stdout}\n${built.stderr}`)
}, 120_000)

describe('desktop', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cannonade-electron-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('runs a demo run through the bundled engine and its message protocol (as the utility process does)', async () => {
    const entry = pathToFileURL(join(ROOT, 'dist-electron', 'engine', 'entry.js')).href
    const mod = (await import(entry)) as { serveEngine(port: unknown, dbPath: string): Promise<EngineHost> }
    const fromEngine: FromEngine[] = []
    const listeners: ((e: { data: unknown }) => void)[] = []
    const waiters: (() => void)[] = []
    const port = {
      postMessage(m: FromEngine) {
        fromEngine.push(m)
        for (const w of waiters.splice(0)) w()
      },
      on(_event: 'message', cb: (e: { data: unknown }) => void) {
        listeners.push(cb)
      },
    }
    const until = async <T>(find: () => T | undefined): Promise<T> => {
      for (;;) {
        const found = find()
        if (found !== undefined) return found
        await new Promise<void>((r) => waiters.push(r))
      }
    }
    const send = (m: ToEngine) => listeners.forEach((cb) => cb({ data: m }))
    const call = async (seq: number, channel: Channel, args: unknown[]) => {
      send({ type: 'call', seq, channel, args })
      const reply = await until(() =>
        fromEngine.find((m): m is FromEngine & { type: 'result' } => m.type === 'result' && m.seq === seq),
      )
      return reply.envelope
    }

    const host = await mod.serveEngine(port, join(dir, 'cannonade.db'))
    try {
      await until(() => fromEngine.find((m) => m.type === 'ready'))
      const settings = await call(1, 'settings:get', [])
      expect(settings.ok).toBe(true)
      const demoUrl = settings.ok ? (settings.result as { demoUrl?: string }).demoUrl : undefined
      expect(demoUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      const bad = await call(2, 'runs:stop', ['seven'])
      expect(bad).toMatchObject({ ok: false, error: { code: 'bad-input' } })
      const started = await call(3, 'runs:start', [
        {
          version: 1,
          name: 'bundle smoke',
          targets: [{ name: 'demo', url: `${demoUrl}/ads` }],
          load: { connections: 2, duration: 1 },
          cooldownSeconds: 0,
        },
      ])
      expect(started.ok).toBe(true)
      const ended = await until(() => fromEngine.find((m) => m.type === 'event' && m.event === 'runs:ended'))
      expect(ended).toMatchObject({ payload: { status: 'done' } })
      expect(fromEngine.some((m) => m.type === 'event' && m.event === 'runs:progress')).toBe(true)
    } finally {
      await host.close()
    }
  })

  it('opens the desktop app (Electron smoke test)', async (ctx) => {
    const binary = electronBinary()
    if (!binary) {
      console.log('skipped: no Electron binary (installed with ELECTRON_SKIP_BINARY_DOWNLOAD?)')
      ctx.skip('skipped: no Electron binary')
      return
    }
    const app = await _electron.launch({
      executablePath: binary,
      // The package root (package.json "main" → dist-electron/main.js), as `npm start` does.
      args: [ROOT, '--no-sandbox'],
      cwd: ROOT,
      env: { ...process.env, CANNONADE_DATA_DIR: join(dir, 'electron-data') },
    })
    try {
      const page = await app.firstWindow()
      await page.getByTestId('app-ready').waitFor()
      expect(await page.evaluate(() => typeof (globalThis as { cannonade?: unknown }).cannonade)).toBe(
        'object',
      )
      await page.getByTestId('nav-settings').click()
      await page.getByTestId('settings-form').waitFor()
      await page.screenshot({ path: join(ARTIFACTS, 'electron-settings.png') })
    } finally {
      await app.close()
    }
  })
})

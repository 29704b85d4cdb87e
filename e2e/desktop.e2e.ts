// The desktop app's own code, run for real: the built electron/ main process and preload
// (dist-electron/), the engine in its utility process, the renderer in a window. On the ELECTRON
// STAND-IN always (e2e/support/electron-standin: Node plays Electron's main process, Chromium
// over CDP its windows; not Electron), and on a real Electron when a binary exists (otherwise that
// suite prints why it was skipped). Checks that read the stand-in's own records say so in their
// names; the Electron security checklist is in desktop-security.e2e.ts.
import { existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { CHANNELS, events } from '../engine/api/channels.ts'
import { argNames, argSchemas } from '../engine/api/schemas.ts'
import { pgAvailableForTests, startPg } from '../engine/testing/pg.ts'
import { HistoryPage, LivePage, Nav } from './pages/pages.ts'
import { ARTIFACTS } from './support/app.ts'
import {
  answerSaveDialog,
  bridgeCall,
  buildElectronBundle,
  desktopCall,
  describeDesktop,
  installMainStubs,
  mainCalls,
  quickRun,
  runMainToExit,
} from './support/desktop.ts'
import type { DesktopApp } from './support/electron-standin/driver.ts'

buildElectronBundle()

/** A demo run from the empty history page's button, followed live to its end; its run id. */
async function demoRunFromUi(app: DesktopApp): Promise<number> {
  await new HistoryPage(app.page).runDemo()
  const live = new LivePage(app.page)
  await live.root.waitFor()
  expect(await live.waitForEnd()).toBe('done')
  return live.runId()
}

describeDesktop('desktop app', 'runs the desktop checks', (backend, session) => {
  const standIn = backend.kind === 'stand-in'

  it('opens the app from app://cannonade with the preload bridge, one function per Api operation', async () => {
    const app = await session().launch()
    const url = await app.evaluate((e) =>
      (e.BrowserWindow as { getAllWindows(): { webContents: { getURL(): string } }[] })
        .getAllWindows()[0]!
        .webContents.getURL(),
    )
    expect(url).toBe('app://cannonade/index.html')
    const shape = await app.page.evaluate(() => {
      const g = globalThis as unknown as {
        cannonade: Record<string, Record<string, unknown>>
        cannonadeDesktop: Record<string, unknown>
      }
      const fns = Object.entries(g.cannonade).flatMap(([d, ops]) =>
        Object.entries(ops).map(([name, f]) => `${d}.${name}:${typeof f}`),
      )
      return { fns: fns.sort(), desktop: Object.keys(g.cannonadeDesktop).sort() }
    })
    const expected = [
      ...CHANNELS.map((c) => `${c.replace(':', '.')}:function`),
      ...Object.entries(events).flatMap(([d, evs]) => Object.keys(evs).map((on) => `${d}.${on}:function`)),
    ].sort()
    expect(shape.fns).toEqual(expected)
    expect(shape.desktop).toEqual(['files', 'onNavigate', 'platform', 'secrets'])
    mkdirSync(ARTIFACTS, { recursive: true })
    await app.page.screenshot({ path: join(ARTIFACTS, `desktop-${backend.kind}-history.png`) })
  })

  it("every Api operation crosses the preload and main's IPC handler, which parses its arguments", async () => {
    const app = await session().launch()
    for (const channel of CHANNELS) {
      // One argument more than the channel takes, each of the wrong type: refused wherever it is parsed.
      const length = (argSchemas[channel] as unknown as { _zod: { def: { items: unknown[] } } })._zod.def
        .items.length
      const reply = await bridgeCall(
        app,
        channel,
        Array.from({ length: length + 1 }, () => ({ bogus: true })),
      )
      expect(reply, channel).toMatchObject({ ok: false, error: { code: 'bad-input' } })
      expect(reply.ok ? '' : reply.error.message, channel).toMatch(
        new RegExp(
          `^${channel}: (the arguments|${[...(argNames[channel] ?? []), 'argument \\d+'].join('|')})[ .[]`,
        ),
      )
    }
    // And well-formed calls reach the engine in its utility process and come back.
    expect(await bridgeCall(app, 'settings:get', [])).toMatchObject({
      ok: true,
      result: { dataDir: app.dataDir },
    })
    expect(await bridgeCall(app, 'runs:list', [{ limit: 5 }])).toMatchObject({
      ok: true,
      result: { total: 0 },
    })
    expect(await bridgeCall(app, 'runs:stop', [999])).toMatchObject({
      ok: false,
      error: { code: 'not-found' },
    })
    const templates = await bridgeCall(app, 'studies:templates', [])
    expect(templates.ok && Array.isArray(templates.result) && templates.result.length).toBeGreaterThan(0)
    // Desktop channels: arguments parsed too.
    expect(await desktopCall(app, 'secrets.set', ['NOT_A_SECRET', 'x'])).toMatchObject({
      ok: false,
      error: { code: 'bad-input' },
    })
    expect(await desktopCall(app, 'files.open', [''])).toMatchObject({
      ok: false,
      error: { code: 'bad-input' },
    })
    expect(await desktopCall(app, 'files.saveAs', [42])).toMatchObject({
      ok: false,
      error: { code: 'bad-input' },
    })
    if (standIn) {
      // [stand-in records] each call reached main's handler from the app's frame.
      const ipc = await app.records('ipc')
      const fromApp = new Set(
        ipc.filter((r) => r.frameUrl === 'app://cannonade/index.html').map((r) => r.channel),
      )
      for (const channel of CHANNELS) expect(fromApp, channel).toContain(channel)
    }
  })

  it('runs the demo from the UI, live to done, and writes a PDF report through the print path with its stages shown', async () => {
    const app = await session().launch()
    const runId = await demoRunFromUi(app)
    await new Nav(app.page).go('history')
    const history = new HistoryPage(app.page)
    await history.row(runId).waitFor()
    expect(await history.status(runId)).toBe('done')
    await history.select(runId)
    const report = history.report
    const result = await report.create()
    const stages = await report.stagesShown()
    expect(stages).toContain('rendering pdf')
    const order = ['loading data', 'building html', 'rendering pdf', 'done']
    expect(stages.map((s) => order.indexOf(s))).toEqual(
      [...stages.map((s) => order.indexOf(s))].sort((a, b) => a - b),
    )
    const path = (await result.getAttribute('data-path')) ?? ''
    expect(path.startsWith(join(app.dataDir, 'reports'))).toBe(true)
    expect(path).toMatch(/\.pdf$/)
    expect(readFileSync(path).subarray(0, 5).toString('latin1')).toBe('%PDF-')
    await app.page.screenshot({ path: join(ARTIFACTS, `desktop-${backend.kind}-report.png`) })
    if (standIn) {
      // [stand-in records] printed by main with CDP Page.printToPDF, in the print partition.
      const printed = await app.records('print-to-pdf')
      expect(printed).toEqual([
        expect.objectContaining({
          partition: 'cannonade-print',
          url: expect.stringMatching(/^file:.*\.html$/),
        }),
      ])
      const filters = await app.records('web-request-listener')
      expect(filters.map((f) => f.partition)).toEqual(['cannonade-print'])
    }
  })

  it('opens, shows and saves a copy of files only inside the data folder; the save dialog remembers its folder', async () => {
    const s = session()
    const app = await s.launch()
    await installMainStubs(app)
    const runId = await quickRun(app)
    const exported = await bridgeCall(app, 'exports:json', [[runId]])
    const file = exported.ok ? (exported.result as { path: string }).path : ''
    expect(file.startsWith(join(app.dataDir, 'exports'))).toBe(true)
    expect(await desktopCall(app, 'files.open', [file])).toEqual({ ok: true, result: null })
    expect(await desktopCall(app, 'files.reveal', [file])).toEqual({ ok: true, result: null })
    // Outside the data folder's exports/ and reports/: refused before the shell sees it.
    const link = join(app.dataDir, 'exports', 'escape.json')
    symlinkSync('/etc/hostname', link)
    for (const outside of [
      '/etc/hostname',
      join(app.dataDir, 'cannonade.db'),
      link,
      `${app.dataDir}/exports/../cannonade.db`,
    ])
      expect(await desktopCall(app, 'files.open', [outside]), outside).toMatchObject({
        ok: false,
        error: { code: 'bad-input' },
      })
    expect(await desktopCall(app, 'files.saveAs', ['/etc/hostname'])).toMatchObject({
      ok: false,
      error: { code: 'bad-input' },
    })
    let calls = await mainCalls(app)
    expect(calls.opened).toEqual([file])
    expect(calls.revealed).toEqual([file])

    // Save as…: the dialog's answer gets a copy; cancelling writes nothing.
    const chosen = join(s.base, 'chosen')
    mkdirSync(chosen)
    await answerSaveDialog(app, join(chosen, 'copy.json'))
    expect(await desktopCall(app, 'files.saveAs', [file])).toEqual({
      ok: true,
      result: { path: join(chosen, 'copy.json') },
    })
    expect(readFileSync(join(chosen, 'copy.json'))).toEqual(readFileSync(file))
    expect(await desktopCall(app, 'files.saveAs', [file])).toEqual({ ok: true, result: null })
    calls = await mainCalls(app)
    const name = file.split('/').pop()!
    // First in the documents folder, then where the last copy went.
    expect(calls.saveDialogs.map((d) => d.defaultPath)).toEqual([
      expect.stringMatching(new RegExp(`/${name}$`)),
      join(chosen, name),
    ])
    expect(calls.saveDialogs[0]?.defaultPath?.startsWith(chosen)).toBe(false)
    await app.close()
    // Remembered across launches too.
    const again = await s.launch()
    await installMainStubs(again)
    expect(await desktopCall(again, 'files.saveAs', [file])).toEqual({ ok: true, result: null })
    expect((await mainCalls(again)).saveDialogs[0]?.defaultPath).toBe(join(chosen, name))
  })

  it('keeps secrets with safeStorage: never plain on disk, not in the engine process environment, sent to it by message', async () => {
    const s = session()
    const secret = `pw-${Math.random().toString(36).slice(2)}-secret`
    // A secret in main's own environment must not reach the engine's environment either.
    const app = await s.launch({ env: { CF_TOKEN: 'cf-token-from-env-123' } })
    const available = await desktopCall(app, 'secrets.available', [])
    if (!standIn && available === false) {
      // A real Electron on a machine without a keychain (basic_text): nothing may be stored.
      console.log(`on ${backend.label}: no OS encryption here; checking that secrets are refused, not stored`)
      expect(await desktopCall(app, 'secrets.set', ['PGPASSWORD', secret])).toMatchObject({ ok: false })
      expect(existsSync(join(app.dataDir, 'secrets.json'))).toBe(false)
      return
    }
    expect(available).toBe(true)
    const pg = pgAvailableForTests() ? await startPg({ durable: false }) : null
    try {
      const url = pg ? pg.url.replace(`:${pg.password}@`, '@') : 'postgres://postgres@127.0.0.1:1/postgres'
      const value = pg ? pg.password : secret
      expect(await desktopCall(app, 'secrets.set', ['PGPASSWORD', value])).toEqual({
        ok: true,
        result: null,
      })
      expect(await desktopCall(app, 'secrets.list', [])).toEqual(['PGPASSWORD'])
      const stored = readFileSync(join(app.dataDir, 'secrets.json'), 'utf8')
      expect(stored).toContain('PGPASSWORD')
      expect(stored).not.toContain(value)
      expect(stored).not.toContain(Buffer.from(value).toString('base64'))
      if (standIn) {
        // [stand-in records] the engine's utility process got a minimal environment without secrets.
        const started = await app.records('utility-process')
        expect(started.length).toBeGreaterThan(0)
        for (const u of started) {
          const names = u.envNames as string[]
          expect(names).not.toContain('PGPASSWORD')
          expect(names).not.toContain('CF_TOKEN')
          expect(names).toContain('PATH')
          expect(names.every((n) => !/PASS|TOKEN|SECRET/.test(n))).toBe(true)
          expect(
            (u.envValues as string[]).some((v) => v.includes(value) || v.includes('cf-token-from-env-123')),
          ).toBe(false)
        }
      }
      const log = () => readFileSync(join(app.dataDir, 'logs', 'cannonade.log'), 'utf8')
      if (pg) {
        // The engine has the password (by message): a URL without one logs in.
        expect(await bridgeCall(app, 'exports:pgTest', [{ url }])).toMatchObject({
          ok: true,
          result: { ok: true },
        })
        await app.close()
        // Decrypted again after a restart, and forgotten on request.
        const again = await s.launch()
        expect(await bridgeCall(again, 'exports:pgTest', [{ url }])).toMatchObject({
          ok: true,
          result: { ok: true },
        })
        expect(await desktopCall(again, 'secrets.delete', ['PGPASSWORD'])).toEqual({
          ok: true,
          result: null,
        })
        expect(await bridgeCall(again, 'exports:pgTest', [{ url }])).toMatchObject({
          ok: true,
          result: { ok: false },
        })
      } else {
        console.log('PostgreSQL not available: the engine-side use of the secret is not exercised here')
      }
      expect(log()).not.toContain(value)
      expect(log()).not.toContain('cf-token-from-env-123')
    } finally {
      await pg?.stop()
    }
  })

  it('one instance per data folder: a second launch wakes the first and quits', async () => {
    const s = session()
    const app = await s.launch()
    await installMainStubs(app)
    const second = await runMainToExit(backend, s)
    expect(second.code, second.output).toBe(0)
    await expect.poll(async () => (await mainCalls(app)).secondInstances, { timeout: 15_000 }).toBe(1)
    // The first one is untouched: still answering.
    expect(await bridgeCall(app, 'runs:active', [])).toEqual({ ok: true, result: [] })
  })

  it('reaches the data folder, the log file and an About box with versions from the menu', async () => {
    const app = await session().launch()
    await installMainStubs(app)
    const click = (label: string) =>
      app.evaluate((e, l) => {
        type Item = { label: string; click(): void; submenu?: { items: Item[] } }
        const find = (items: Item[]): Item | undefined => {
          for (const i of items) {
            if (i.label === l) return i
            const inner = i.submenu ? find(i.submenu.items) : undefined
            if (inner) return inner
          }
          return undefined
        }
        const menu = (e.Menu as { getApplicationMenu(): { items: Item[] } }).getApplicationMenu()
        const item = find(menu.items)
        if (!item) throw new Error(`no menu item ${l}`)
        item.click()
      }, label)
    await click('Open Data Folder')
    await click('Open Log File')
    await click('About Cannonade')
    await expect.poll(async () => (await mainCalls(app)).messageBoxes.length).toBe(1)
    const calls = await mainCalls(app)
    const logFile = join(app.dataDir, 'logs', 'cannonade.log')
    expect(calls.opened).toEqual([app.dataDir, logFile])
    expect(readFileSync(logFile, 'utf8')).toMatch(/Cannonade \S+ starting/)
    const about = calls.messageBoxes[0]!
    expect(about.message).toMatch(/^Cannonade \d+\.\d+\.\d+/)
    expect(about.detail).toMatch(/Electron \S+\nChromium \S+\nNode\.js \d+\.\d+\.\d+\nV8 \S+/)
    expect(about.detail).toContain(`Data folder: ${app.dataDir}`)
    expect(about.detail).toContain(`Log file: ${logFile}`)
  })

  it("remembers the window's place and size across launches", async () => {
    const s = session()
    const app = await s.launch()
    const bounds = { x: 40, y: 30, width: 1000, height: 700 }
    await app.evaluate((e, b) => {
      const win = (
        e.BrowserWindow as { getAllWindows(): { setBounds(b: object): void }[] }
      ).getAllWindows()[0]!
      win.setBounds(b)
    }, bounds)
    const code = await app.close()
    expect(code, app.output()).toBe(0)
    expect(existsSync(join(app.dataDir, 'desktop.json'))).toBe(true)
    const again = await s.launch()
    const restored = await again.evaluate((e) =>
      (e.BrowserWindow as { getAllWindows(): { getBounds(): object }[] }).getAllWindows()[0]!.getBounds(),
    )
    expect(restored).toEqual(bounds)
    if (standIn) {
      // [stand-in] the page is laid out at that size (its viewport follows the window's bounds).
      const size = await again.page.evaluate(() => {
        const g = globalThis as unknown as { innerWidth: number; innerHeight: number }
        return [g.innerWidth, g.innerHeight]
      })
      expect(size).toEqual([1000, 700])
    }
  })
})

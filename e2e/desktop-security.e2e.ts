// Electron's security checklist (electron/README.md lists every item and where it is checked),
// run against the app's real built main and preload: on the ELECTRON STAND-IN always (not
// Electron: e2e/support/electron-standin), on a real Electron when a binary exists. Checks that
// only the stand-in can make (it can raise a permission request as Chromium would, and call IPC
// from a frame that is not the app's) say so, and the Electron suite prints why it skips them.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { CSP, CSP_META } from '../engine/api/csp.ts'
import { Nav } from './pages/pages.ts'
import { ROOT } from './support/app.ts'
import {
  bridgeCall,
  buildElectronBundle,
  describeDesktop,
  installMainStubs,
  mainCalls,
  quickRun,
  runMainToExit,
} from './support/desktop.ts'

buildElectronBundle()

type Win = { id: number; webContents: { getLastWebPreferences(): Record<string, unknown>; getURL(): string } }

describeDesktop('Electron security checklist', 'runs the security checks', (backend, session) => {
  const standIn = backend.kind === 'stand-in'

  it('#2-4, 6, 8-12: the window runs isolated and sandboxed, without Node, web security on, no insecure content, experimental or Blink features, no <webview>', async () => {
    const app = await session().launch()
    const prefs = await app.evaluate((e) =>
      (e.BrowserWindow as { getAllWindows(): Win[] })
        .getAllWindows()
        .map((w) => w.webContents.getLastWebPreferences()),
    )
    expect(prefs).toHaveLength(1)
    for (const p of prefs) {
      expect(p).toMatchObject({
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        nodeIntegrationInWorker: false,
        nodeIntegrationInSubFrames: false,
        webSecurity: true,
        allowRunningInsecureContent: false,
        experimentalFeatures: false,
        webviewTag: false,
      })
      expect(p.enableBlinkFeatures ?? '').toBe('')
    }
    if (standIn) {
      // [stand-in records] every window ever made, the print window included, after a PDF report.
      const runId = await quickRun(app)
      const reportOf = await bridgeCall(app, 'reports:create', [[runId]])
      expect(reportOf).toMatchObject({ ok: true })
      const windows = await app.records('browser-window')
      expect(windows).toHaveLength(2)
      for (const w of windows) {
        const p = (w.options as { webPreferences: Record<string, unknown> }).webPreferences
        expect(p).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false })
        expect(p.webSecurity).not.toBe(false)
        expect(p.allowRunningInsecureContent).not.toBe(true)
      }
    }
  })

  it('#5: every permission request is refused', async () => {
    const app = await session().launch()
    if (standIn) {
      // [stand-in] raise requests as Chromium would and read the app's decision.
      for (const permission of [
        'notifications',
        'media',
        'geolocation',
        'clipboard-read',
        'openExternal',
        'fullscreen',
        'midi',
      ])
        expect(
          await app.evaluate((e, p) => e.__standin!.requestPermission(1, p), permission),
          permission,
        ).toBe(false)
      const handlers = await app.records('permission-request-handler')
      expect(handlers.map((h) => h.partition).sort()).toEqual([''])
    } else {
      const state = await app.page.evaluate(() =>
        (
          globalThis as unknown as { Notification: { requestPermission(): Promise<string> } }
        ).Notification.requestPermission(),
      )
      expect(state).toBe('denied')
      console.log(`on ${backend.label}: the print session's handler is checked on the stand-in only`)
    }
  })

  it('#7: a Content-Security-Policy on every page: header, meta tag, and inline script and eval refused', async () => {
    const app = await session().launch()
    const seen = await app.page.evaluate(async () => {
      const g = globalThis as unknown as {
        fetch(u: string): Promise<{ headers: { get(n: string): string | null } }>
        document: {
          querySelector(s: string): { getAttribute(n: string): string | null } | null
          createElement(t: string): { textContent: string }
          head: { append(n: unknown): void }
          addEventListener(t: string, cb: (e: { violatedDirective: string }) => void): void
        }
        __inlineRan?: boolean
        eval(s: string): unknown
      }
      const header = (await g.fetch('/index.html')).headers.get('content-security-policy')
      const meta =
        g.document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content') ??
        null
      const violation = new Promise<string>((resolve) =>
        g.document.addEventListener('securitypolicyviolation', (e) => resolve(e.violatedDirective)),
      )
      const script = g.document.createElement('script')
      script.textContent = 'globalThis.__inlineRan = true'
      g.document.head.append(script)
      let evalRefused = false
      try {
        g.eval('1 + 1')
      } catch {
        evalRefused = true
      }
      return { header, meta, directive: await violation, inlineRan: g.__inlineRan === true, evalRefused }
    })
    expect(seen.header).toBe(CSP)
    expect(seen.meta).toBe(CSP_META)
    expect(seen.directive).toMatch(/^script-src/)
    expect(seen.inlineRan).toBe(false)
    expect(seen.evalRefused).toBe(true)
  })

  it('#13: navigation away from the app is refused', async () => {
    const app = await session().launch()
    await installMainStubs(app)
    for (const url of ['https://example.com/', 'http://127.0.0.1:1/']) {
      await app.page.evaluate((u) => {
        ;(globalThis as unknown as { location: { href: string } }).location.href = u
      }, url)
      await expect
        .poll(async () => (await mainCalls(app)).navigations.find((n) => n.url === url), {
          timeout: 15_000,
        })
        .toEqual({ url, prevented: true })
    }
    expect(
      await app.evaluate((e) =>
        (e.BrowserWindow as { getAllWindows(): Win[] }).getAllWindows()[0]!.webContents.getURL(),
      ),
    ).toBe('app://cannonade/index.html')
    await new Nav(app.page).ready()
  })

  it('#14-15: new windows are refused; a web link goes to the browser, and only a web link', async () => {
    const app = await session().launch()
    await installMainStubs(app)
    await app.page.evaluate(() => {
      const g = globalThis as unknown as { open(u: string): unknown }
      g.open('https://example.com/docs')
    })
    await expect
      .poll(async () => (await mainCalls(app)).external, { timeout: 15_000 })
      .toEqual(['https://example.com/docs'])
    // A link that asks for a new window: the same answer.
    await app.page.evaluate(() => {
      const d = (
        globalThis as unknown as {
          document: {
            createElement(t: string): {
              href: string
              target: string
              textContent: string
              id: string
              click(): void
            }
            body: { append(n: unknown): void }
          }
        }
      ).document
      const a = d.createElement('a')
      a.href = 'https://example.com/link'
      a.target = '_blank'
      a.textContent = 'out'
      d.body.append(a)
      a.click()
    })
    await expect
      .poll(async () => (await mainCalls(app)).external, { timeout: 15_000 })
      .toEqual(['https://example.com/docs', 'https://example.com/link'])
    expect(
      await app.evaluate((e) => (e.BrowserWindow as { getAllWindows(): Win[] }).getAllWindows().length),
    ).toBe(1)
    if (standIn) {
      const opened = await app.records('window-open')
      expect(opened.map((o) => [o.url, o.action])).toEqual([
        ['https://example.com/docs', 'deny'],
        ['https://example.com/link', 'deny'],
      ])
      // Nothing was fetched from the internet on the way.
      expect(
        (await app.records('request-blocked')).filter((r) => String(r.url).includes('example.com')),
      ).toEqual([])
    }
    // Non-web schemes never reach shell.openExternal (electron/security.test.ts, externalLink).
  })

  it('#17: IPC from a frame that is not the app page is refused', async (ctx) => {
    const app = await session().launch()
    if (!standIn) {
      console.log(
        `skipped on ${backend.label}: a foreign frame cannot reach the preload's ipcRenderer there (the preload runs in the main frame only); checked on the stand-in`,
      )
      ctx.skip()
      return
    }
    // [stand-in] a srcdoc frame calls the IPC binding directly: main sees about:srcdoc as the sender.
    await app.page.evaluate(() => {
      const d = (
        globalThis as unknown as {
          document: {
            createElement(t: string): { srcdoc: string; id: string }
            body: { append(n: unknown): void }
          }
        }
      ).document
      const frame = d.createElement('iframe')
      frame.id = 'foreign'
      frame.srcdoc = '<p>not the app</p>'
      d.body.append(frame)
    })
    const frame = await app.page.waitForSelector('#foreign').then((h) => h.contentFrame())
    if (!frame) throw new Error('no frame')
    await frame.waitForLoadState()
    const call = (channel: string) =>
      frame.evaluate(
        (c) =>
          (globalThis as unknown as Record<string, (m: unknown) => Promise<unknown>>).__electronStandinIpc!({
            kind: 'invoke',
            channel: c,
            args: [],
          }),
        channel,
      )
    expect(await call('settings:get')).toEqual({
      value: {
        ok: false,
        error: { code: 'bad-input', message: 'refused: the call did not come from the Cannonade window' },
      },
    })
    expect(await call('desktop:secrets-list')).toEqual({ value: [] })
    expect(await call('desktop:secrets-available')).toEqual({ value: false })
    const ipc = await app.records('ipc')
    expect(ipc.filter((r) => r.frameUrl === 'about:srcdoc').map((r) => r.channel)).toEqual([
      'settings:get',
      'desktop:secrets-list',
      'desktop:secrets-available',
    ])
  })

  it('#13, #17: a dev server URL that is not loopback http stops the app before it starts (exit 2)', async () => {
    const s = session()
    for (const devUrl of [
      'http://localhost:5173.evil.example/',
      'https://example.com/',
      'http://192.168.1.5:5173/',
    ]) {
      const run = await runMainToExit(backend, s, { CANNONADE_DEV_URL: devUrl })
      expect(run.code, run.output).toBe(2)
      // Said plainly, naming the value: not a URL, or not a loopback http one.
      expect(run.output).toMatch(
        /Cannonade: CANNONADE_DEV_URL (must be http:\/\/localhost\|127\.0\.0\.1\|\[::1\]:PORT\/, not|is not a URL:) /,
      )
      expect(run.output).toContain(devUrl)
    }
  })

  it('#18, #20: app:// not file://, and the page gets no Node.js, no Electron API, no generic invoke', async () => {
    const app = await session().launch()
    const globals = await app.page.evaluate(() => {
      const g = globalThis as unknown as Record<string, unknown> & {
        cannonade: Record<string, Record<string, unknown>>
        cannonadeDesktop: { secrets: Record<string, unknown> }
      }
      return {
        node: [
          'require',
          'process',
          'module',
          'Buffer',
          '__dirname',
          'global',
          'electron',
          'ipcRenderer',
        ].filter((k) => typeof g[k] !== 'undefined'),
        enumerable: Object.keys(g).filter((k) => /ipc|electron|remote/i.test(k)),
        generic: Object.keys(g.cannonade).filter((k) => typeof g.cannonade[k] === 'function'),
        secretsReadable: Object.keys(g.cannonadeDesktop.secrets).filter((k) => /get|read|value/i.test(k)),
        frozen: Object.isFrozen(g.cannonade) && Object.isFrozen(g.cannonade.runs),
        protocol: (g.location as { protocol: string }).protocol,
      }
    })
    expect(globals.node).toEqual([])
    expect(globals.enumerable).toEqual([])
    expect(globals.generic).toEqual([])
    expect(globals.secretsReadable).toEqual([])
    expect(globals.frozen).toBe(true)
    // The stand-in serves app:// as https://…invalid (see state.ts); Electron shows app:.
    expect(globals.protocol).toBe(standIn ? 'https:' : 'app:')
    // No remote module anywhere: not a dependency, not enabled.
    const pkg = readFileSync(join(ROOT, 'package.json'), 'utf8')
    expect(pkg).not.toContain('@electron/remote')
    const main = readFileSync(join(ROOT, 'dist-electron/main.js'), 'utf8')
    expect(main).not.toMatch(/enableRemoteModule|@electron\/remote/)
  })
})

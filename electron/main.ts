// Electron main: window, menu, single instance, lifecycle. Thin glue (CONTRIBUTING.md, Process
// model): the engine runs in a utility process, the page reaches it only through the typed preload
// bridge, and the app's files are served from an app:// origin with a strict CSP. The security rules
// applied here are listed item by item in electron/README.md.
import {
  app,
  BrowserWindow,
  Menu,
  net,
  protocol,
  screen,
  session,
  shell,
  type IpcMainInvokeEvent,
} from 'electron'
import { existsSync } from 'node:fs'
import { dirname, join, normalize, sep } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { APP_NAME, dataDir, defaultDbPath } from '../engine/paths.ts'
import { CSP } from '../engine/api/csp.ts'
import type { ReportProgressEvent } from '../engine/api/types.ts'
import { registerDesktopIpc } from './desktop-ipc.ts'
import { engineEnv, secretsFromEnv } from './engine-env.ts'
import { startEngineProcess, type EngineProcess } from './engine-process.ts'
import { registerApiIpc } from './api-ipc.ts'
import { openLog } from './log.ts'
import { buildMenu, showAbout } from './menu.ts'
import { openPrefs } from './prefs.ts'
import { PdfReports } from './report-progress.ts'
import { desktopChannels } from './protocol.ts'
import { openSecretStore } from './secrets.ts'
import { APP_ORIGIN, externalLink, isTrustedUrl, trustedOrigins, type TrustedOrigins } from './security.ts'
import { restoreBounds, trackWindowState, MIN_SIZE } from './window-state.ts'

const HERE = dirname(fileURLToPath(import.meta.url))
const RENDERER_DIR = join(app.getAppPath(), 'dist', 'renderer')
// Exact origins (security.ts). A CANNONADE_DEV_URL that is not a loopback http URL stops the app
// with exit code 2 before anything starts: that page would get the preload bridge.
const ORIGINS = ((): TrustedOrigins | null => {
  try {
    return trustedOrigins(process.env.CANNONADE_DEV_URL)
  } catch (err) {
    console.error(`Cannonade: ${err instanceof Error ? err.message : String(err)}`)
    return null
  }
})()
const START_URL = ORIGINS?.dev ? `${ORIGINS.dev}/` : `${APP_ORIGIN}/index.html`

// Same folder as the CLI (engine/paths.ts), so both see the same runs; logs in its logs/ folder.
app.setName(APP_NAME)
app.setPath('userData', dataDir())
app.setAppLogsPath(join(dataDir(), 'logs'))
protocol.registerSchemesAsPrivileged([
  { scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } },
])

if (ORIGINS === null) {
  app.exit(2)
} else if (!app.requestSingleInstanceLock()) {
  // Another Cannonade has the data folder: it comes to the front ('second-instance'), this one ends.
  app.quit()
} else {
  const log = openLog(app.getPath('logs'))
  const prefs = openPrefs(app.getPath('userData'))
  const reports = new PdfReports()
  let win: BrowserWindow | null = null
  let engine: EngineProcess | null = null

  const isTrusted = (event: IpcMainInvokeEvent): boolean =>
    isTrustedUrl(event.senderFrame?.url ?? '', ORIGINS)

  /** Events for the app's page, from the engine or from main itself; never to another page. */
  const emit = (event: string, payload: unknown) => {
    for (const w of BrowserWindow.getAllWindows())
      if (isTrustedUrl(w.webContents.getURL(), ORIGINS)) w.webContents.send(event, payload)
  }

  const serveApp = () => {
    protocol.handle('app', async (request) => {
      const { pathname } = new URL(request.url)
      const file = normalize(
        join(RENDERER_DIR, decodeURIComponent(pathname === '/' ? '/index.html' : pathname)),
      )
      if (!file.startsWith(RENDERER_DIR + sep) || !existsSync(file))
        return new Response('not found', { status: 404 })
      const response = await net.fetch(pathToFileURL(file).toString())
      const headers = new Headers(response.headers)
      if (file.endsWith('.html')) headers.set('content-security-policy', CSP)
      return new Response(response.body, { status: response.status, headers })
    })
  }

  const createWindow = () => {
    const workAreas = screen.getAllDisplays().map((d) => d.workArea)
    const bounds = restoreBounds(prefs.read().window, workAreas)
    win = new BrowserWindow({
      ...(bounds.x !== undefined && bounds.y !== undefined ? { x: bounds.x, y: bounds.y } : {}),
      width: bounds.width,
      height: bounds.height,
      minWidth: MIN_SIZE.width,
      minHeight: MIN_SIZE.height,
      title: APP_NAME,
      show: false,
      icon: join(app.getAppPath(), 'resources', 'icon.png'),
      webPreferences: {
        preload: join(HERE, 'preload.cjs'),
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        nodeIntegrationInWorker: false,
        nodeIntegrationInSubFrames: false,
        webSecurity: true,
        allowRunningInsecureContent: false,
        experimentalFeatures: false,
        webviewTag: false,
        spellcheck: false,
      },
    })
    if (bounds.maximized) win.maximize()
    trackWindowState(win, (state) => prefs.update({ window: state }))
    win.once('ready-to-show', () => win?.show())
    win.on('closed', () => (win = null))
    void win.loadURL(START_URL)
  }

  app.on('second-instance', () => {
    if (!win) return
    if (win.isMinimized()) win.restore()
    win.show()
    win.focus()
  })

  // Every page: no new windows (web links open in the browser), no navigation away from the app's
  // origin, no <webview>.
  app.on('web-contents-created', (_e, contents) => {
    contents.setWindowOpenHandler(({ url }) => {
      const external = externalLink(url)
      if (external) void shell.openExternal(external)
      return { action: 'deny' }
    })
    contents.on('will-navigate', (event, url) => {
      if (!isTrustedUrl(url, ORIGINS)) event.preventDefault()
    })
    contents.on('will-attach-webview', (event) => event.preventDefault())
  })

  const openInShell = (path: string) =>
    void shell.openPath(path).then((failure) => failure && log.line(`could not open ${path}: ${failure}`))

  app
    .whenReady()
    .then(() => {
      // No page of ours needs a permission (camera, notifications, clipboard read …).
      session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false))
      session.defaultSession.setPermissionCheckHandler(() => false)
      serveApp()
      log.line(
        `Cannonade ${app.getVersion()} starting (Electron ${process.versions.electron ?? 'none: not running on Electron'})`,
      )
      const secrets = openSecretStore(app.getPath('userData'))
      const dbPath = defaultDbPath()
      engine = startEngineProcess({
        entry: join(HERE, 'engine-host.cjs'),
        dbPath,
        env: engineEnv(process.env),
        // Stored secrets win over ones main was started with.
        secrets: () => ({ ...secretsFromEnv(process.env), ...secrets.values() }),
        log: (line) => log.line(line),
        output: (stream) => log.sink(`engine ${stream}`),
        onEvent: (event, payload) => {
          if (event !== 'reports:progress') return emit(event, payload)
          const shown = reports.translate(payload as ReportProgressEvent)
          if (shown) emit(event, shown)
        },
      })
      registerApiIpc({ engine, isTrusted, emit, reports })
      registerDesktopIpc({
        engine,
        secrets,
        isTrusted,
        dataDir: dirname(dbPath),
        prefs,
        window: () => win,
      })
      Menu.setApplicationMenu(
        buildMenu({
          go: (route) => win?.webContents.send(desktopChannels.navigate, route),
          openDataFolder: () => openInShell(app.getPath('userData')),
          openLogFile: () => openInShell(log.file),
          about: () =>
            void showAbout(win, {
              name: APP_NAME,
              version: app.getVersion(),
              versions: process.versions,
              platform: process.platform,
              arch: process.arch,
              dataDir: app.getPath('userData'),
              logFile: log.file,
            }),
        }),
      )
      createWindow()
      app.on('activate', () => {
        if (BrowserWindow.getAllWindows().length === 0) createWindow()
      })
    })
    .catch((err: unknown) => {
      log.line(
        `Cannonade failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
      )
      app.exit(1)
    })

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit()
  })

  // Stop the engine before quitting: active runs are aborted and kept, the database is closed.
  let quitting = false
  app.on('before-quit', (event) => {
    if (quitting || !engine) return
    event.preventDefault()
    quitting = true
    engine
      .stop()
      .catch(() => {})
      .finally(() => app.quit())
  })
}

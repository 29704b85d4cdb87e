// Electron main: window, menu, single instance, lifecycle. Thin glue (CONTRIBUTING.md, Process
// model): the engine runs in a utility process, the page reaches it only through the typed preload
// bridge, and the app's files are served from an app:// origin with a strict CSP.
import { app, BrowserWindow, Menu, net, protocol, session, shell, type IpcMainInvokeEvent } from 'electron'
import { existsSync } from 'node:fs'
import { dirname, join, normalize, sep } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { APP_NAME, dataDir, defaultDbPath } from '../engine/paths.ts'
import { CSP } from '../engine/api/csp.ts'
import { startEngineProcess, type EngineProcess } from './engine-process.ts'
import { registerIpc } from './ipc.ts'
import { buildMenu } from './menu.ts'
import { desktopChannels } from './protocol.ts'
import { openSecretStore } from './secrets.ts'

const HERE = dirname(fileURLToPath(import.meta.url))
const RENDERER_DIR = join(app.getAppPath(), 'dist', 'renderer')
const APP_ORIGIN = 'app://cannonade'
const DEV_URL = process.env.CANNONADE_DEV_URL ?? null

// Same folder as the CLI (engine/paths.ts), so both see the same runs.
app.setName(APP_NAME)
app.setPath('userData', dataDir())
protocol.registerSchemesAsPrivileged([
  { scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } },
])

if (!app.requestSingleInstanceLock()) {
  app.quit()
} else {
  let win: BrowserWindow | null = null
  let engine: EngineProcess | null = null

  const isTrusted = (event: IpcMainInvokeEvent): boolean => {
    const url = event.senderFrame?.url ?? ''
    return url.startsWith(`${APP_ORIGIN}/`) || (DEV_URL !== null && url.startsWith(DEV_URL))
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
    win = new BrowserWindow({
      width: 1360,
      height: 900,
      minWidth: 900,
      minHeight: 600,
      title: APP_NAME,
      show: false,
      icon: join(app.getAppPath(), 'resources', 'icon.png'),
      webPreferences: {
        preload: join(HERE, 'preload.cjs'),
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        webSecurity: true,
        spellcheck: false,
      },
    })
    win.once('ready-to-show', () => win?.show())
    win.on('closed', () => (win = null))
    void win.loadURL(DEV_URL ?? `${APP_ORIGIN}/index.html`)
  }

  app.on('second-instance', () => {
    if (!win) return
    if (win.isMinimized()) win.restore()
    win.focus()
  })

  // Every page: no new windows (links open in the browser), no navigation away, no permissions.
  app.on('web-contents-created', (_e, contents) => {
    contents.setWindowOpenHandler(({ url }) => {
      if (url.startsWith('https://') || url.startsWith('http://')) void shell.openExternal(url)
      return { action: 'deny' }
    })
    contents.on('will-navigate', (event, url) => {
      if (!url.startsWith(`${APP_ORIGIN}/`) && !(DEV_URL && url.startsWith(DEV_URL))) event.preventDefault()
    })
  })

  app
    .whenReady()
    .then(() => {
      session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false))
      serveApp()
      const secrets = openSecretStore(app.getPath('userData'))
      engine = startEngineProcess({
        entry: join(HERE, 'engine-host.cjs'),
        dbPath: defaultDbPath(),
        secrets: () => secrets.values(),
        log: (line) => console.error(line),
        onEvent: (event, payload) => {
          for (const w of BrowserWindow.getAllWindows()) w.webContents.send(event, payload)
        },
      })
      registerIpc({ engine, secrets, isTrusted, dataDir: dirname(defaultDbPath()) })
      Menu.setApplicationMenu(buildMenu((route) => win?.webContents.send(desktopChannels.navigate, route)))
      createWindow()
      app.on('activate', () => {
        if (BrowserWindow.getAllWindows().length === 0) createWindow()
      })
    })
    .catch((err: unknown) => {
      console.error('Cannonade failed to start:', err)
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

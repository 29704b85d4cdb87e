// ELECTRON STAND-IN (test harness, not Electron): what `import … from 'electron'` resolves to when
// boot.ts runs the app's real built main process (dist-electron/main.js) under plain Node. It
// offers the parts of Electron's main-process API the app uses, backed by Chromium over CDP (pages,
// printing, requests) and Node child processes (utilityProcess); see README.md for what is and is
// not reproduced. `__standin` is not Electron's: the tests read the stand-in's records through it.
import { app } from './app.ts'
import { ipcMain } from './ipc.ts'
import { Menu, MenuItem } from './menu.ts'
import { clipboard, dialog, net, protocol, safeStorage, screen, shell } from './os.ts'
import { session } from './session.ts'
import { chromiumRunning, dialogAnswers, records } from './state.ts'
import { utilityProcess } from './utility.ts'
import { BrowserWindow } from './window.ts'

export const nativeTheme = { shouldUseDarkColors: false, themeSource: 'system' }

export {
  app,
  BrowserWindow,
  clipboard,
  dialog,
  ipcMain,
  Menu,
  MenuItem,
  net,
  protocol,
  safeStorage,
  screen,
  session,
  shell,
  utilityProcess,
}

/** Stand-in only (never on Electron): records, dialog answers, and a permission request as Chromium would make it. */
export const __standin = {
  isStandIn: true as const,
  records,
  dialogAnswers,
  chromium: () => {
    const c = chromiumRunning()
    return c ? { endpoint: c.endpoint, pid: c.pid, profile: c.profile } : null
  },
  /** A page of this window asks for a permission: what the app's session handler decides. */
  async requestPermission(windowId: number, permission: string): Promise<boolean> {
    const win = BrowserWindow.getAllWindows().find((w) => w.id === windowId)
    if (!win) throw new Error(`no window ${windowId}`)
    return win.webContents.session.requestPermission(win.webContents, permission, win.webContents.getURL())
  },
}

export default {
  app,
  BrowserWindow,
  clipboard,
  dialog,
  ipcMain,
  Menu,
  MenuItem,
  nativeTheme,
  net,
  protocol,
  safeStorage,
  screen,
  session,
  shell,
  utilityProcess,
  __standin,
}

// The application menu: the usual roles, shortcuts to the app's views, and Help with the data
// folder, the log file and the About box (main.ts supplies what each does).
import { clipboard, dialog, Menu, type BrowserWindow, type MenuItemConstructorOptions } from 'electron'
import { aboutText, type AboutInfo } from './about.ts'

export interface MenuActions {
  /** Show a route of the page ("/new", "/runs"). */
  go(route: string): void
  openDataFolder(): void
  openLogFile(): void
  about(): void
}

export function buildMenu(actions: MenuActions): Menu {
  const isMac = process.platform === 'darwin'
  const view = (label: string, route: string, accelerator?: string): MenuItemConstructorOptions => ({
    label,
    click: () => actions.go(route),
    ...(accelerator ? { accelerator } : {}),
  })
  const about: MenuItemConstructorOptions = { label: 'About Cannonade', click: () => actions.about() }
  const template: MenuItemConstructorOptions[] = [
    ...(isMac
      ? [
          {
            label: 'Cannonade',
            submenu: [
              about,
              { type: 'separator' as const },
              { role: 'services' as const },
              { type: 'separator' as const },
              { role: 'hide' as const },
              { role: 'hideOthers' as const },
              { role: 'unhide' as const },
              { type: 'separator' as const },
              { role: 'quit' as const },
            ],
          },
        ]
      : []),
    {
      label: 'File',
      submenu: [
        view('New Run…', '/new', 'CmdOrCtrl+N'),
        view('Run History', '/runs', 'CmdOrCtrl+H'),
        { type: 'separator' },
        isMac ? { role: 'close' } : { role: 'quit' },
      ],
    },
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [
        view('Live Run', '/live', 'CmdOrCtrl+1'),
        view('History', '/runs', 'CmdOrCtrl+2'),
        view('Compare', '/compare', 'CmdOrCtrl+3'),
        view('Stacks', '/stacks', 'CmdOrCtrl+4'),
        view('Settings', '/settings', 'CmdOrCtrl+,'),
        { type: 'separator' },
        { role: 'reload' },
        { role: 'toggleDevTools' },
        { type: 'separator' },
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { role: 'togglefullscreen' },
      ],
    },
    { role: 'windowMenu' },
    {
      role: 'help',
      submenu: [
        // The CLI reads the same database: `cannonade runs list` shows these runs.
        { label: 'Open Data Folder', click: () => actions.openDataFolder() },
        { label: 'Open Log File', click: () => actions.openLogFile() },
        ...(isMac ? [] : [{ type: 'separator' as const }, about]),
      ],
    },
  ]
  return Menu.buildFromTemplate(template)
}

/** The About box (about.ts has its text). */
export async function showAbout(win: BrowserWindow | null, info: AboutInfo): Promise<void> {
  const { message, detail } = aboutText(info)
  const options = {
    type: 'info' as const,
    title: `About ${info.name}`,
    message,
    detail,
    buttons: ['OK', 'Copy'],
    defaultId: 0,
    cancelId: 0,
    noLink: true,
  }
  const { response } = win ? await dialog.showMessageBox(win, options) : await dialog.showMessageBox(options)
  if (response === 1) void clipboard.writeText(`${message}\n${detail}`)
}

// The application menu: the usual roles plus shortcuts to the app's views.
import { app, Menu, shell, type MenuItemConstructorOptions } from 'electron'

export function buildMenu(go: (route: string) => void): Menu {
  const isMac = process.platform === 'darwin'
  const view = (label: string, route: string, accelerator?: string): MenuItemConstructorOptions => ({
    label,
    click: () => go(route),
    ...(accelerator ? { accelerator } : {}),
  })
  const template: MenuItemConstructorOptions[] = [
    ...(isMac ? [{ role: 'appMenu' as const }] : []),
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
        { label: 'Open Data Folder', click: () => void shell.openPath(app.getPath('userData')) },
        { label: `Version ${app.getVersion()}`, enabled: false },
      ],
    },
  ]
  return Menu.buildFromTemplate(template)
}

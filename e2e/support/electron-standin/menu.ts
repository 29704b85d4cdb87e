// ELECTRON STAND-IN (test harness, not Electron): `Menu` and `MenuItem`, as data. There is no menu
// bar to click; tests find an item by label (Menu.getApplicationMenu().items …) and call its
// click(), as they would on Electron. Role items (copy, reload…) do nothing here.
import { record } from './state.ts'

type Template = Record<string, unknown> & {
  label?: string
  role?: string
  type?: string
  enabled?: boolean
  accelerator?: string
  submenu?: Template[] | Menu
  click?: (item: MenuItem, window: unknown, event: unknown) => void
}

export class MenuItem {
  readonly label: string
  readonly role: string | undefined
  readonly type: string
  readonly enabled: boolean
  readonly accelerator: string | undefined
  readonly submenu: Menu | undefined
  readonly #click: Template['click']

  constructor(t: Template) {
    this.role = t.role
    this.label = t.label ?? t.role ?? ''
    this.type = t.type ?? (t.submenu ? 'submenu' : 'normal')
    this.enabled = t.enabled !== false
    this.accelerator = t.accelerator
    this.submenu =
      t.submenu instanceof Menu ? t.submenu : t.submenu ? Menu.buildFromTemplate(t.submenu) : undefined
    this.#click = t.click
  }

  click(): void {
    record('menu-click', { label: this.label, role: this.role })
    if (this.enabled) this.#click?.(this, null, {})
  }
}

let applicationMenu: Menu | null = null

export class Menu {
  readonly items: MenuItem[] = []

  static buildFromTemplate(template: Template[]): Menu {
    const menu = new Menu()
    for (const t of template) menu.items.push(new MenuItem(t))
    return menu
  }
  static setApplicationMenu(menu: Menu | null): void {
    applicationMenu = menu
    record('application-menu', { labels: menu?.items.map((i) => i.label) ?? [] })
  }
  static getApplicationMenu(): Menu | null {
    return applicationMenu
  }
  append(item: MenuItem): void {
    this.items.push(item)
  }
}

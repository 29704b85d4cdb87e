// ELECTRON STAND-IN (test harness, not Electron): `session`. A session is a Chromium browser
// context reached over CDP (the default session is the browser's default context, a partition a
// new one). Every request of its pages passes one interception point that does what Electron's
// network stack would: will-navigate for navigations the page started, the webRequest
// onBeforeRequest listener, the session's protocol handlers (app://), and nothing else goes out:
// only local files and loopback addresses are let through (a dev server, the engine's own),
// everything else is refused and recorded, so no test ever touches the internet.
import { EventEmitter } from 'node:events'
import type { BrowserContext, Page, Route } from 'playwright-core'
import { browser, customSchemes, log, record, toElectronUrl } from './state.ts'

/** What a session needs from the window that owns a page (window.ts). */
export interface PageOwner {
  readonly id: number
  /** True (once) when loadURL asked for this navigation: no will-navigate for it. */
  takeProgrammatic(url: string): boolean
  /** Emit will-navigate; true when the app prevented it. */
  willNavigate(url: string): boolean
  /** A popup asked for `url`: the window open handler decides (the stand-in never opens one). */
  openWindow(url: string): void
}

export const pageOwners = new WeakMap<Page, PageOwner>()

/** Who answers for a popup whose opener Chromium does not name (window.ts sets it). */
export const popups = { owner: (): PageOwner | null => null }

type ProtocolHandler = (request: Request) => Response | Promise<Response>
type BeforeRequestListener = (
  details: { id: number; url: string; method: string; resourceType: string; webContentsId?: number },
  callback: (response: { cancel?: boolean }) => void,
) => void
type PermissionHandler = (
  webContents: unknown,
  permission: string,
  callback: (granted: boolean) => void,
  details: { requestingUrl: string },
) => void

function matchPattern(pattern: string, url: string): boolean {
  if (pattern === '<all_urls>') return true
  const re = new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`)
  return re.test(url)
}

function isLoopback(url: string): boolean {
  try {
    const { hostname, protocol } = new URL(url)
    const loop = hostname === '127.0.0.1' || hostname === 'localhost' || hostname === '[::1]'
    return loop && (protocol === 'http:' || protocol === 'ws:')
  } catch {
    return false
  }
}

let requestIds = 0

export class Session extends EventEmitter {
  readonly partition: string
  readonly #handlers = new Map<string, ProtocolHandler>()
  #beforeRequest: { urls: string[]; listener: BeforeRequestListener } | null = null
  #permissionRequest: PermissionHandler | null = null
  #permissionCheck: ((...args: unknown[]) => boolean) | null = null
  #context: Promise<BrowserContext> | null = null

  constructor(partition: string) {
    super()
    this.partition = partition
  }

  readonly protocol = {
    handle: (scheme: string, handler: ProtocolHandler) => {
      this.#handlers.set(scheme, handler)
      customSchemes.add(scheme)
      record('protocol-handle', { scheme, partition: this.partition })
    },
    unhandle: (scheme: string) => void this.#handlers.delete(scheme),
    isProtocolHandled: (scheme: string) => this.#handlers.has(scheme),
  }

  readonly webRequest = {
    // Electron keeps one listener per event: a new one replaces the last (null removes it).
    onBeforeRequest: (
      filterOrListener: { urls?: string[] } | BeforeRequestListener | null,
      maybeListener?: BeforeRequestListener | null,
    ) => {
      const listener = typeof filterOrListener === 'function' ? filterOrListener : (maybeListener ?? null)
      const urls = typeof filterOrListener === 'function' ? [] : (filterOrListener?.urls ?? [])
      this.#beforeRequest = listener ? { urls, listener } : null
      record('web-request-listener', { partition: this.partition, urls, set: listener !== null })
    },
  }

  setPermissionRequestHandler(handler: PermissionHandler | null): void {
    this.#permissionRequest = handler
    record('permission-request-handler', { partition: this.partition, set: handler !== null })
  }

  setPermissionCheckHandler(handler: ((...args: unknown[]) => boolean) | null): void {
    this.#permissionCheck = handler
    record('permission-check-handler', { partition: this.partition, set: handler !== null })
  }

  /**
   * Stand-in only: what Chromium would do when a page of this session asks for a permission
   * (headless Chromium has no prompt to intercept). Without a handler Electron grants it.
   */
  async requestPermission(webContents: unknown, permission: string, requestingUrl: string): Promise<boolean> {
    const handler = this.#permissionRequest
    const granted = handler
      ? await new Promise<boolean>((resolve) => handler(webContents, permission, resolve, { requestingUrl }))
      : true
    const checked = this.#permissionCheck
      ? this.#permissionCheck(webContents, permission, requestingUrl, {})
      : true
    record('permission-request', { partition: this.partition, permission, granted, checked })
    return granted
  }

  /** The Chromium context behind this session, made on first use (after app ready). */
  context(): Promise<BrowserContext> {
    this.#context ??= (async () => {
      const b = browser()
      const context = this.partition === '' ? b.contexts()[0] : await b.newContext({ viewport: null })
      if (!context) throw new Error('electron stand-in: Chromium has no default context')
      await context.route('**/*', (route) => this.#route(route))
      // Popups are never kept (their window open handler was asked in #route or via window.open).
      context.on('page', (p) => {
        void p.opener().then((opener) => opener && p.close().catch(() => undefined))
      })
      return context
    })()
    return this.#context
  }

  async #route(route: Route): Promise<void> {
    const request = route.request()
    const url = toElectronUrl(request.url())
    let page: Page | null = null
    try {
      page = request.frame().page()
    } catch {
      // No frame yet: a popup's first navigation (a link with target=_blank), or a service worker.
      if (request.isNavigationRequest()) {
        const owner = popups.owner()
        if (owner) owner.openWindow(url)
        else record('popup-without-opener', { url })
      }
      await route.abort('blockedbyclient')
      return
    }
    const owner = page ? pageOwners.get(page) : undefined
    if (page && !owner) {
      // A page no BrowserWindow made: Chromium opened a popup (window.open, target=_blank). Electron
      // asks the opener's window open handler before creating anything; here the popup exists for a
      // moment, loads nothing, and is closed whatever the handler said.
      if (request.isNavigationRequest()) {
        const opener = await page.opener()
        const openerOwner = opener ? pageOwners.get(opener) : undefined
        if (openerOwner) openerOwner.openWindow(url)
        else record('popup-without-opener', { url })
      }
      await route.abort('blockedbyclient')
      void page.close().catch(() => undefined)
      return
    }
    if (page && owner && request.isNavigationRequest() && request.frame() === page.mainFrame()) {
      if (!owner.takeProgrammatic(url) && owner.willNavigate(url)) {
        record('navigation-prevented', { url, webContentsId: owner.id })
        await route.abort('aborted')
        return
      }
    }
    const filter = this.#beforeRequest
    if (filter && (filter.urls.length === 0 || filter.urls.some((p) => matchPattern(p, url)))) {
      const verdict = await new Promise<{ cancel?: boolean }>((resolve) =>
        filter.listener(
          {
            id: ++requestIds,
            url,
            method: request.method(),
            resourceType: request.resourceType(),
            webContentsId: owner?.id,
          },
          resolve,
        ),
      )
      if (verdict.cancel) {
        record('request-cancelled', { url, partition: this.partition })
        await route.abort('blockedbyclient')
        return
      }
    }
    const scheme = /^([a-z][a-z0-9+.-]*):/.exec(url)?.[1] ?? ''
    const handler = this.#handlers.get(scheme)
    if (handler) {
      try {
        const response = await handler(new Request(url, { method: request.method() }))
        await route.fulfill({
          status: response.status,
          headers: Object.fromEntries(response.headers.entries()),
          body: Buffer.from(await response.arrayBuffer()),
        })
      } catch (err) {
        log(`protocol handler for ${scheme}: failed on ${url}: ${String(err)}`)
        await route.abort('failed')
      }
      return
    }
    // Local files load as in Electron (the print window loads the report's HTML this way).
    if (isLoopback(request.url()) || url.startsWith('file:')) {
      await route.continue()
      return
    }
    record('request-blocked', { url, partition: this.partition })
    await route.abort('blockedbyclient')
  }
}

const partitions = new Map<string, Session>()
const defaultSession = new Session('')

export const session = {
  get defaultSession(): Session {
    return defaultSession
  },
  fromPartition(partition: string): Session {
    if (!partition) return defaultSession
    let s = partitions.get(partition)
    if (!s) {
      s = new Session(partition)
      partitions.set(partition, s)
      record('session-created', { partition })
    }
    return s
  },
}

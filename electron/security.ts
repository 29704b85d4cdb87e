// Which URLs the desktop shell trusts, decided by exact origin (never a string prefix:
// `startsWith('http://localhost:5173')` would let `http://localhost:51730` or
// `http://localhost:5173.evil.example` through). Pure: main.ts and api-ipc.ts call it, and
// electron/security.test.ts checks it without Electron.

/** The app's own pages (served by main's app:// protocol handler). */
export const APP_ORIGIN = 'app://cannonade'

/**
 * `scheme://host[:port]` of a URL, or null when it has none. Node's URL gives "null" as the origin
 * of schemes it does not know as special (app:), so it is built from the parts.
 */
export function originOf(url: string): string | null {
  let u: URL
  try {
    u = new URL(url)
  } catch {
    return null
  }
  if (!u.host) return null
  return `${u.protocol}//${u.host}`
}

/**
 * The dev server URL (`npm run dev` sets CANNONADE_DEV_URL), accepted only on a loopback host over
 * http: a page from anywhere else would get the preload bridge. Null when unset; an error when set
 * to anything else, so a mistake is loud instead of silently trusted.
 */
export function devOrigin(devUrl: string | undefined): string | null {
  if (!devUrl) return null
  let u: URL
  try {
    u = new URL(devUrl)
  } catch {
    throw new Error(`CANNONADE_DEV_URL is not a URL: ${devUrl}`)
  }
  const loopback = u.hostname === 'localhost' || u.hostname === '127.0.0.1' || u.hostname === '[::1]'
  if (u.protocol !== 'http:' || !loopback)
    throw new Error(`CANNONADE_DEV_URL must be http://localhost|127.0.0.1|[::1]:PORT/, not ${devUrl}`)
  return u.origin
}

export interface TrustedOrigins {
  app: string
  dev: string | null
}

export function trustedOrigins(devUrl: string | undefined): TrustedOrigins {
  return { app: APP_ORIGIN, dev: devOrigin(devUrl) }
}

/** A page main may talk to (IPC sender) or stay on (navigation): exactly the app's origin or the dev server's. */
export function isTrustedUrl(url: string, origins: TrustedOrigins): boolean {
  const origin = originOf(url)
  return origin !== null && (origin === origins.app || (origins.dev !== null && origin === origins.dev))
}

/**
 * Links the page asks to open in a new window go to the user's browser, and only web links: a
 * `file:`, `smb:` or custom-scheme URL handed to the OS could run a program (Electron's checklist,
 * shell.openExternal with untrusted content).
 */
export function externalLink(url: string): string | null {
  try {
    const u = new URL(url)
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.toString() : null
  } catch {
    return null
  }
}

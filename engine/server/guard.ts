// What `cannonade serve` checks before a request reaches a route (`admit`: the request target,
// HTTP/1, Host, and for the API Origin and the token), and how it refuses one: nothing a client
// sends (a request target that is no URL, a bad %-escape, a foreign Origin, a broken upgrade, bytes
// that are not HTTP) may throw out of a handler, because one uncaught throw ends the process and
// every run it supervises. Each refusal is a 4xx and one log line.
import { timingSafeEqual } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'

const BASE = 'http://127.0.0.1'
const TOKEN_HEADER_NAME = 'x-cannonade-token'

/**
 * The request target as a URL, or null when it is not origin-form (`/path?query`). An absolute
 * form (`http://[`), `*` or anything else is refused: the web UI never sends one, and `new URL`
 * throws on many of them.
 */
export function requestTarget(raw: string | undefined): URL | null {
  if (raw === undefined || !raw.startsWith('/') || raw.startsWith('//')) return null
  try {
    return new URL(raw, BASE)
  } catch {
    return null
  }
}

/** decodeURIComponent, or null for a malformed escape (`%E0%A4%A`, `%zz`). */
export function decodePath(text: string): string | null {
  try {
    return decodeURIComponent(text)
  } catch {
    return null
  }
}

/** Fields a request may carry once: Node keeps the first of two, which two proxies may read differently. */
const ONCE = new Set(['host', 'origin', TOKEN_HEADER_NAME, 'authorization', 'content-length', 'content-type'])

/** The first field `req` repeats of those it may send once (RFC 9112 asks a 400 for two Hosts), or null. */
export function repeatedField(req: Pick<IncomingMessage, 'rawHeaders'>): string | null {
  const seen = new Set<string>()
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!.toLowerCase()
    if (!ONCE.has(name)) continue
    if (seen.has(name)) return name
    seen.add(name)
  }
  return null
}

/** DNS rebinding guard: a page served from evil.example resolving to 127.0.0.1 sends its own Host. */
export function hostAllowed(req: IncomingMessage, port: number): boolean {
  const host = req.headers.host
  return host === `127.0.0.1:${port}` || host === `localhost:${port}`
}

/**
 * A browser names the page a request comes from in Origin (every POST, every WebSocket). Only
 * our own page may call the API: a token leaked to another page (a log, a screenshot, a shared
 * link) must not work from there. Requests without Origin (curl, the CLI, navigations) pass; the
 * token guards those. Call after hostAllowed, so Host is one of ours.
 */
export function originAllowed(req: IncomingMessage): boolean {
  const origin = req.headers.origin
  if (origin === undefined) return true
  return origin === `http://${req.headers.host}`
}

export const TOKEN_HEADER = TOKEN_HEADER_NAME

function sameToken(given: string | null | undefined, token: string): boolean {
  if (!given) return false
  const a = Buffer.from(given)
  const b = Buffer.from(token)
  return a.length === b.length && timingSafeEqual(a, b)
}

function tokenOf(req: IncomingMessage, url: URL): string | null {
  const header = req.headers[TOKEN_HEADER]
  if (typeof header === 'string') return header
  const auth = req.headers.authorization
  if (auth?.startsWith('Bearer ')) return auth.slice('Bearer '.length)
  return url.searchParams.get('token')
}

export type Gate = { ok: true; url: URL } | { ok: false; status: number; message: string }

/**
 * The checks every request and upgrade passes, in this order, before any route runs: the server
 * listens on `port`; `/api/` also needs our own page's Origin (or none) and the launch's `token`.
 */
export function admit(req: IncomingMessage, port: number, token: string): Gate {
  const url = requestTarget(req.url)
  if (url === null) return { ok: false, status: 400, message: 'the request target is not a path' }
  if (req.httpVersionMajor !== 1) return { ok: false, status: 400, message: 'only HTTP/1.x is spoken here' }
  const twice = repeatedField(req)
  if (twice !== null)
    return { ok: false, status: 400, message: `the ${twice} header is given more than once` }
  if (!hostAllowed(req, port)) return { ok: false, status: 421, message: 'unexpected Host header' }
  if (!url.pathname.startsWith('/api/')) return { ok: true, url }
  if (!originAllowed(req))
    return { ok: false, status: 403, message: 'the API answers only pages this server sent' }
  if (!sameToken(tokenOf(req, url), token))
    return {
      ok: false,
      status: 401,
      message: 'missing or wrong token: open the URL `cannonade serve` printed',
    }
  return { ok: true, url }
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  413: 'Content Too Large',
  421: 'Misdirected Request',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
}

/** A whole response written on a raw socket (upgrades and parser errors have no ServerResponse). */
export function rawReply(socket: Duplex, status: number, message: string): void {
  if (socket.destroyed) return
  const body = JSON.stringify({ error: { code: status >= 500 ? 'internal' : 'bad-input', message } })
  try {
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? 'Error'}\r\nconnection: close\r\n` +
        `content-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    )
  } catch {
    socket.destroy()
  }
}

/**
 * One log line about a refused request: printable ASCII only (a request target may carry CR/LF or
 * escape sequences meant for the terminal), the query dropped (it may carry the token), capped.
 */
export function describeRequest(req: Pick<IncomingMessage, 'method' | 'url'>): string {
  const target = (req.url ?? '').split('?')[0] ?? ''
  const clean = (s: string) => s.replace(/[^\x20-\x7e]/g, '?').slice(0, 120)
  return `${clean(req.method ?? '?')} ${clean(target)}`
}

/** Node's parser errors (the request is not HTTP) as the status a client is told. */
export function clientErrorStatus(err: NodeJS.ErrnoException): number | null {
  switch (err.code) {
    case 'ECONNRESET':
    case 'EPIPE':
      return null // the client is gone: nothing to answer
    case 'HPE_HEADER_OVERFLOW':
      return 431
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return 408
    default:
      return 400
  }
}

// The embedded demo target: a small HTTP server with the stacks' API shape, on 127.0.0.1, so a new
// user's first run (`cannonade run --demo`, the app's "Run the demo") needs nothing else.
import http from 'node:http'
import { createHash, pbkdf2Sync } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import { DEFAULT_CORRELATION_HEADER } from '../config/schema.ts'

export interface DemoServer {
  url: string
  port: number
  close(): Promise<void>
}

const ADS = Array.from({ length: 10_000 }, (_, i) => ({
  id: i + 1,
  title: `Ad ${i + 1}`,
  body: `A demo advertisement number ${i + 1}.`,
  price: ((i * 7919) % 100_000) / 100,
}))

// Users and tokens for the marketplace scenario (register → login → browse → post), in memory.
const users = new Map<string, string>()
const tokens = new Map<string, string>()

function readJson(req: http.IncomingMessage, cb: (value: Record<string, unknown> | null) => void): void {
  let body = ''
  req.setEncoding('utf8')
  req.on('data', (c: string) => (body += c.length + body.length > 1_000_000 ? '' : c))
  req.on('end', () => {
    try {
      const v: unknown = JSON.parse(body)
      cb(v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null)
    } catch {
      cb(null)
    }
  })
}

/** One request as a route sees it: its URL, a reply that times itself, and a bounded number from the query. */
interface Exchange {
  req: http.IncomingMessage
  url: URL
  reply: (status: number, body: string | Buffer, type?: string) => void
  /** The query parameter `name` (or `dflt`) when a whole number from 0 to `max`, else null. */
  int: (name: string, dflt: number, max: number) => number | null
}

const bearer = (req: http.IncomingMessage) => (req.headers.authorization ?? '').replace(/^Bearer /, '')
const digest = (password: string, username: string) =>
  pbkdf2Sync(password, username, 1000, 32, 'sha256').toString('hex')

/** POST /users registers, POST /login gives a token for a registered user. */
function account({ url, reply }: Exchange, body: Record<string, unknown> | null): void {
  const username = typeof body?.username === 'string' ? body.username : null
  const password = typeof body?.password === 'string' ? body.password : null
  if (!username || !password) return reply(400, '{"error":"username and password are required"}')
  if (url.pathname === '/users') {
    if (users.has(username)) return reply(409, '{"error":"user exists"}')
    users.set(username, digest(password, username))
    return reply(201, JSON.stringify({ username }))
  }
  if (users.get(username) !== digest(password, username))
    return reply(401, '{"error":"wrong username or password"}')
  const token = `t-${username}-${tokens.size}`
  tokens.set(token, username)
  reply(200, JSON.stringify({ token }))
}

/** POST /ads: an ad posted with a token (not kept: the list stays the same for every run). */
function postAd({ req, reply }: Exchange, body: Record<string, unknown> | null): void {
  if (!tokens.has(bearer(req))) return reply(401, '{"error":"a bearer token is required"}')
  if (typeof body?.title !== 'string') return reply(400, '{"error":"title is required"}')
  reply(
    201,
    JSON.stringify({ id: ADS.length + 1, title: body.title, body: body.body ?? '', price: body.price ?? 0 }),
  )
}

function me({ req, reply }: Exchange): void {
  const user = tokens.get(bearer(req))
  if (user) reply(200, JSON.stringify({ username: user }))
  else reply(401, '{"error":"a bearer token is required"}')
}

function listAds({ reply, int }: Exchange): void {
  const limit = int('limit', 20, 1000)
  const offset = int('offset', 0, ADS.length)
  if (limit === null || offset === null)
    return reply(400, '{"error":"limit and offset must be whole numbers"}')
  reply(200, JSON.stringify(ADS.slice(offset, offset + limit)))
}

function getAd({ url, reply }: Exchange): void {
  const ad = ADS[Number(url.pathname.slice('/ads/'.length)) - 1]
  if (ad) reply(200, JSON.stringify(ad))
  else reply(404, '{"error":"no such ad"}')
}

function compute({ reply, int }: Exchange): void {
  const n = int('iterations', 1000, 10_000_000)
  if (n === null || n < 1) return reply(400, '{"error":"iterations must be a whole number ≥ 1"}')
  reply(200, JSON.stringify({ hash: pbkdf2Sync('cannonade', 'salt', n, 32, 'sha256').toString('hex') }))
}

/** What arrived, as the stacks answer it: its size and SHA-256 (a request payload's study). */
function receivePayload({ req, reply }: Exchange): void {
  const hash = createHash('sha256')
  let bytes = 0
  req.on('data', (c: Buffer) => {
    bytes += c.length
    hash.update(c)
  })
  req.on('end', () => {
    const kind = (req.headers['content-type'] ?? '').startsWith('application/json') ? 'json' : 'text'
    reply(200, JSON.stringify({ bytes, sha256: hash.digest('hex'), kind }))
  })
}

function sendPayload({ reply, int }: Exchange): void {
  const n = int('bytes', 1024, 50_000_000)
  if (n === null) return reply(400, '{"error":"bytes must be a whole number"}')
  reply(200, Buffer.alloc(n, 120), 'application/octet-stream')
}

function slow({ reply, int }: Exchange): void {
  const ms = int('ms', 100, 60_000) ?? 100
  setTimeout(() => reply(200, '{"slept":' + ms + '}'), ms)
}

/** A route with a JSON body, read first. */
const withBody =
  (serve: (x: Exchange, body: Record<string, unknown> | null) => void) =>
  (x: Exchange): void =>
    readJson(x.req, (body) => serve(x, body))

/** The routes, first match wins; a path none takes is a 404. */
const ROUTES: { method?: string; path: string | RegExp; serve: (x: Exchange) => void }[] = [
  { path: '/health', serve: ({ reply }) => reply(200, '{"status":"ok"}') },
  { method: 'POST', path: '/users', serve: withBody(account) },
  { method: 'POST', path: '/login', serve: withBody(account) },
  { method: 'POST', path: '/ads', serve: withBody(postAd) },
  { path: '/me', serve: me },
  { path: '/ads', serve: listAds },
  { path: /^\/ads\/\d+$/, serve: getAd },
  { path: '/compute', serve: compute },
  { method: 'POST', path: '/payload', serve: receivePayload },
  { path: '/payload', serve: sendPayload },
  { path: '/slow', serve: slow },
]

/** The demo's answers, for node:http (and, through its compatibility API, node:http2 in tests). */
export function handle(req: http.IncomingMessage, res: http.ServerResponse): void {
  const started = performance.now()
  const url = new URL(req.url ?? '/', 'http://demo')
  const id = req.headers[DEFAULT_CORRELATION_HEADER]
  if (typeof id === 'string') res.setHeader(DEFAULT_CORRELATION_HEADER, id)
  const reply = (status: number, body: string | Buffer, type = 'application/json') => {
    res.statusCode = status
    res.setHeader('content-type', type)
    res.setHeader('server-timing', `app;dur=${(performance.now() - started).toFixed(3)}, db;dur=0`)
    res.end(body)
  }
  const int = (name: string, dflt: number, max: number) => {
    const v = Number(url.searchParams.get(name) ?? dflt)
    return Number.isInteger(v) && v >= 0 && v <= max ? v : null
  }
  const route = ROUTES.find(
    (r) =>
      (r.method === undefined || r.method === req.method) &&
      (typeof r.path === 'string' ? r.path === url.pathname : r.path.test(url.pathname)),
  )
  if (route) route.serve({ req, url, reply, int })
  else reply(404, '{"error":"not found"}')
}

export async function startDemoServer(port = 0): Promise<DemoServer> {
  const server = http.createServer(handle)
  server.keepAliveTimeout = 60_000
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', resolve)
  })
  const actual = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${actual}`,
    port: actual,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

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

function handle(req: http.IncomingMessage, res: http.ServerResponse): void {
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
  if (url.pathname === '/health') return reply(200, '{"status":"ok"}')
  if (
    req.method === 'POST' &&
    (url.pathname === '/users' || url.pathname === '/login' || url.pathname === '/ads')
  ) {
    return readJson(req, (body) => {
      const username = typeof body?.username === 'string' ? body.username : null
      const password = typeof body?.password === 'string' ? body.password : null
      if (url.pathname === '/ads') {
        if (!tokens.has((req.headers.authorization ?? '').replace(/^Bearer /, '')))
          return reply(401, '{"error":"a bearer token is required"}')
        if (typeof body?.title !== 'string') return reply(400, '{"error":"title is required"}')
        return reply(
          201,
          JSON.stringify({
            id: ADS.length + 1,
            title: body.title,
            body: body.body ?? '',
            price: body.price ?? 0,
          }),
        )
      }
      if (!username || !password) return reply(400, '{"error":"username and password are required"}')
      if (url.pathname === '/users') {
        if (users.has(username)) return reply(409, '{"error":"user exists"}')
        users.set(username, pbkdf2Sync(password, username, 1000, 32, 'sha256').toString('hex'))
        return reply(201, JSON.stringify({ username }))
      }
      if (users.get(username) !== pbkdf2Sync(password, username, 1000, 32, 'sha256').toString('hex'))
        return reply(401, '{"error":"wrong username or password"}')
      const token = `t-${username}-${tokens.size}`
      tokens.set(token, username)
      return reply(200, JSON.stringify({ token }))
    })
  }
  if (url.pathname === '/me') {
    const user = tokens.get((req.headers.authorization ?? '').replace(/^Bearer /, ''))
    return user
      ? reply(200, JSON.stringify({ username: user }))
      : reply(401, '{"error":"a bearer token is required"}')
  }
  if (url.pathname === '/ads') {
    const limit = int('limit', 20, 1000)
    const offset = int('offset', 0, ADS.length)
    if (limit === null || offset === null)
      return reply(400, '{"error":"limit and offset must be whole numbers"}')
    return reply(200, JSON.stringify(ADS.slice(offset, offset + limit)))
  }
  const m = /^\/ads\/(\d+)$/.exec(url.pathname)
  if (m) {
    const ad = ADS[Number(m[1]) - 1]
    return ad ? reply(200, JSON.stringify(ad)) : reply(404, '{"error":"no such ad"}')
  }
  if (url.pathname === '/compute') {
    const n = int('iterations', 1000, 10_000_000)
    if (n === null || n < 1) return reply(400, '{"error":"iterations must be a whole number ≥ 1"}')
    return reply(
      200,
      JSON.stringify({ hash: pbkdf2Sync('cannonade', 'salt', n, 32, 'sha256').toString('hex') }),
    )
  }
  if (url.pathname === '/payload' && req.method === 'POST') {
    // What arrived, as the stacks answer it: its size and SHA-256 (a request payload's study).
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
    return
  }
  if (url.pathname === '/payload') {
    const n = int('bytes', 1024, 50_000_000)
    if (n === null) return reply(400, '{"error":"bytes must be a whole number"}')
    return reply(200, Buffer.alloc(n, 120), 'application/octet-stream')
  }
  if (url.pathname === '/slow') {
    const ms = int('ms', 100, 60_000) ?? 100
    setTimeout(() => reply(200, '{"slept":' + ms + '}'), ms)
    return
  }
  reply(404, '{"error":"not found"}')
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

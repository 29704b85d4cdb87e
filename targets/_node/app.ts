// The Cannonade sample API on node:http + pg, no framework. One module serves both Node stacks:
// server.ts runs it in one process (node-http), cluster.ts in WORKERS processes (node-cluster).
// Plain TypeScript with erasable syntax only: Node >= 22.18 runs it as is (type stripping).
import http from 'node:http'
import crypto from 'node:crypto'
import { performance } from 'node:perf_hooks'
import { promisify } from 'node:util'
import pg from 'pg'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'

const pbkdf2 = promisify(crypto.pbkdf2)

export interface Config {
  port: number
  host: string
  databaseUrl: string
  poolSize: number
  hashIterations: number
}

/** Reads PORT, HOST, DATABASE_URL, POOL_SIZE and HASH_ITERATIONS; throws on a malformed value. */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env): Config {
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = env[name]
    if (raw === undefined || raw === '') return fallback
    if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
      throw new Error(`${name} must be an integer between ${min} and ${max}, got ${JSON.stringify(raw)}`)
    }
    return Number(raw)
  }
  return {
    port: int('PORT', 8080, 0, 65535),
    host: env['HOST'] || '0.0.0.0',
    databaseUrl: env['DATABASE_URL'] || 'postgres://cannonade:cannonade@127.0.0.1:5432/cannonade',
    poolSize: int('POOL_SIZE', 10, 1, 1000),
    hashIterations: int('HASH_ITERATIONS', 1000, 1, 10_000_000),
  }
}

// Limits shared with the Java stacks (targets/_java/common/.../Api.java): keep them equal.
export const MAX_BODY_BYTES = 1 << 20
export const MAX_PAYLOAD_BYTES = 10 << 20
export const MAX_COMPUTE_ITERATIONS = 1_000_000
export const MAX_LIMIT = 1000
export const COMPUTE_PASSWORD = 'cannonade'
export const COMPUTE_SALT = 'cannonade-salt'

const AD_COLUMNS = `id, title, body, price::text AS price,
  to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at`

interface AdRow {
  id: number
  title: string
  body: string
  price: string
  created_at: string
}

interface Reply {
  status: number
  type: string
  body: string | Buffer
  headers?: Record<string, string>
}

/** Time spent on one request: `start` of the handler and milliseconds inside database calls. */
interface Timing {
  start: number
  db: number
}

class HttpError extends Error {
  status: number
  headers: Record<string, string> | undefined
  constructor(status: number, message: string, headers?: Record<string, string>) {
    super(message)
    this.status = status
    this.headers = headers
  }
}

const json = (status: number, value: unknown, headers?: Record<string, string>): Reply => ({
  status,
  type: 'application/json',
  body: JSON.stringify(value),
  ...(headers ? { headers } : {}),
})

const adJson = (row: AdRow) => ({
  id: row.id,
  title: row.title,
  body: row.body,
  price: Number(row.price),
  created_at: row.created_at,
})

// Allocated once at start (as the Java stacks do): /payload measures sending, not allocating.
const payloadBuffer = Buffer.alloc(MAX_PAYLOAD_BYTES, 'x')
const payload = (bytes: number): Buffer => payloadBuffer.subarray(0, bytes)

function intParam(params: URLSearchParams, name: string, fallback: number, min: number, max: number): number {
  const raw = params.get(name)
  if (raw === null) return fallback
  if (!/^\d{1,10}$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new HttpError(400, `${name} must be an integer between ${min} and ${max}`)
  }
  return Number(raw)
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > MAX_BODY_BYTES) throw new HttpError(413, `request body larger than ${MAX_BODY_BYTES} bytes`)
    chunks.push(chunk)
  }
  let value: unknown
  try {
    value = JSON.parse(Buffer.concat(chunks).toString('utf8'))
  } catch {
    throw new HttpError(400, 'request body must be valid JSON')
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new HttpError(400, 'request body must be a JSON object')
  }
  return value as Record<string, unknown>
}

function stringField(body: Record<string, unknown>, name: string, min: number, max: number): string {
  const value = body[name]
  if (typeof value !== 'string' || value.length < min || value.length > max) {
    throw new HttpError(400, `${name} must be a string of ${min} to ${max} characters`)
  }
  return value
}

const USERNAME = /^[A-Za-z0-9_.-]{1,64}$/
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/

/** Stored as `pbkdf2_sha256$<iterations>$<salt hex>$<hash hex>`, the same format as the Java stacks. */
async function hashPassword(password: string, iterations: number): Promise<string> {
  const salt = crypto.randomBytes(16)
  const hash = await pbkdf2(password, salt, iterations, 32, 'sha256')
  return `pbkdf2_sha256$${iterations}$${salt.toString('hex')}$${hash.toString('hex')}`
}

async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, iter, saltHex, hashHex] = stored.split('$')
  if (scheme !== 'pbkdf2_sha256' || !iter || !saltHex || !hashHex) return false
  const expected = Buffer.from(hashHex, 'hex')
  const actual = await pbkdf2(password, Buffer.from(saltHex, 'hex'), Number(iter), expected.length, 'sha256')
  return crypto.timingSafeEqual(actual, expected)
}

export interface App {
  server: Server
  pool: pg.Pool
  close(): Promise<void>
}

export function createApp(config: Config): App {
  const pool = new pg.Pool({ connectionString: config.databaseUrl, max: config.poolSize })
  pool.on('error', (err) => console.error(`[db] idle client error: ${err.message}`))

  async function query<R extends pg.QueryResultRow>(
    t: Timing,
    name: string,
    text: string,
    values: unknown[],
  ): Promise<pg.QueryResult<R>> {
    const began = performance.now()
    try {
      return await pool.query<R>({ name, text, values })
    } finally {
      t.db += performance.now() - began
    }
  }

  async function route(req: IncomingMessage, t: Timing): Promise<Reply> {
    const url = req.url ?? '/'
    const q = url.indexOf('?')
    const path = q < 0 ? url : url.slice(0, q)
    const params = new URLSearchParams(q < 0 ? '' : url.slice(q + 1))
    const method = req.method ?? 'GET'
    const only = (allowed: string) => {
      if (method !== allowed) throw new HttpError(405, 'method not allowed', { allow: allowed })
    }

    if (path === '/health') {
      only('GET')
      try {
        await query(t, 'health', 'SELECT 1', [])
        return json(200, { status: 'ok' })
      } catch (err) {
        return json(503, { status: 'unavailable', error: (err as Error).message })
      }
    }
    if (path === '/ads') {
      if (method === 'GET') {
        const limit = intParam(params, 'limit', 20, 1, MAX_LIMIT)
        const offset = intParam(params, 'offset', 0, 0, 2_000_000_000)
        const format = params.get('format') ?? 'json'
        if (format !== 'json' && format !== 'text') throw new HttpError(400, 'format must be json or text')
        const { rows } = await query<AdRow>(
          t,
          'ads_list',
          `SELECT ${AD_COLUMNS} FROM ads ORDER BY id LIMIT $1 OFFSET $2`,
          [limit, offset],
        )
        if (format === 'text') {
          let text = ''
          for (const r of rows) text += `${r.id}\t${r.title}\t${r.price}\n`
          return { status: 200, type: 'text/plain; charset=utf-8', body: text }
        }
        return json(200, rows.map(adJson))
      }
      if (method === 'POST') {
        const body = await readJson(req)
        const title = stringField(body, 'title', 1, 200)
        if (CONTROL.test(title) || title.trim() === '') {
          throw new HttpError(400, 'title must be non-blank and without control characters')
        }
        const text = stringField(body, 'body', 0, 10_000)
        const price = body['price']
        if (typeof price !== 'number' || !Number.isFinite(price) || price < 0 || price >= 1e10) {
          throw new HttpError(400, 'price must be a number between 0 and 9999999999.99')
        }
        const { rows } = await query<AdRow>(
          t,
          'ads_insert',
          `INSERT INTO ads (title, body, price) VALUES ($1, $2, round($3::numeric, 2)) RETURNING ${AD_COLUMNS}`,
          [title, text, price],
        )
        const row = rows[0] as AdRow
        return json(201, adJson(row), { location: `/ads/${row.id}` })
      }
      throw new HttpError(405, 'method not allowed', { allow: 'GET, POST' })
    }
    if (path.startsWith('/ads/')) {
      only('GET')
      const raw = path.slice(5)
      if (!/^\d{1,10}$/.test(raw) || Number(raw) < 1 || Number(raw) > 2_147_483_647) {
        throw new HttpError(400, 'id must be a positive integer')
      }
      const { rows } = await query<AdRow>(t, 'ads_get', `SELECT ${AD_COLUMNS} FROM ads WHERE id = $1`, [
        Number(raw),
      ])
      const row = rows[0]
      if (!row) throw new HttpError(404, `ad ${raw} not found`)
      return json(200, adJson(row))
    }
    if (path === '/compute') {
      only('GET')
      const iterations = intParam(params, 'iterations', 1000, 1, MAX_COMPUTE_ITERATIONS)
      // Synchronous on purpose: the CPU-bound task runs on the event loop, as in the studies
      // comparing one Node process with a cluster (see targets/README.md).
      const hash = crypto.pbkdf2Sync(COMPUTE_PASSWORD, COMPUTE_SALT, iterations, 32, 'sha256')
      return json(200, { iterations, hash: hash.toString('hex') })
    }
    if (path === '/payload') {
      only('GET')
      const bytes = intParam(params, 'bytes', 1024, 0, MAX_PAYLOAD_BYTES)
      return { status: 200, type: 'application/octet-stream', body: payload(bytes) }
    }
    if (path === '/users') {
      only('POST')
      const body = await readJson(req)
      const username = body['username']
      if (typeof username !== 'string' || !USERNAME.test(username)) {
        throw new HttpError(400, 'username must be 1 to 64 characters of A-Z a-z 0-9 _ . -')
      }
      const password = stringField(body, 'password', 1, 1024)
      const hash = await hashPassword(password, config.hashIterations)
      const { rows } = await query<{ id: number }>(
        t,
        'users_insert',
        'INSERT INTO users (username, password_hash) VALUES ($1, $2) ON CONFLICT (username) DO NOTHING RETURNING id',
        [username, hash],
      )
      const row = rows[0]
      if (!row) throw new HttpError(409, `user ${username} already exists`)
      return json(201, { id: row.id, username })
    }
    if (path === '/login') {
      only('POST')
      const body = await readJson(req)
      const username = stringField(body, 'username', 1, 64)
      const password = stringField(body, 'password', 1, 1024)
      const { rows } = await query<{ id: number; password_hash: string }>(
        t,
        'users_by_name',
        'SELECT id, password_hash FROM users WHERE username = $1',
        [username],
      )
      const user = rows[0]
      if (!user || !(await verifyPassword(password, user.password_hash))) {
        throw new HttpError(401, 'invalid username or password')
      }
      const token = crypto.randomBytes(32).toString('hex')
      await query(t, 'sessions_insert', 'INSERT INTO sessions (token, user_id) VALUES ($1, $2)', [
        token,
        user.id,
      ])
      return json(200, { token })
    }
    if (path === '/me') {
      only('GET')
      const match = /^Bearer\s+([A-Za-z0-9._~+/=-]+)\s*$/i.exec(req.headers.authorization ?? '')
      const unauthorized = new HttpError(401, 'a valid bearer token is required', {
        'www-authenticate': 'Bearer',
      })
      if (!match) throw unauthorized
      const { rows } = await query<{ username: string }>(
        t,
        'sessions_user',
        'SELECT u.username FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token = $1',
        [match[1]],
      )
      const row = rows[0]
      if (!row) throw unauthorized
      return json(200, { username: row.username })
    }
    throw new HttpError(404, `no route for ${path}`)
  }

  function send(req: IncomingMessage, res: ServerResponse, t: Timing, reply: Reply): void {
    const body = reply.body
    const headers: Record<string, string | number> = {
      'content-type': reply.type,
      'content-length': typeof body === 'string' ? Buffer.byteLength(body) : body.length,
      'server-timing': `app;dur=${(performance.now() - t.start).toFixed(3)}, db;dur=${t.db.toFixed(3)}`,
      ...reply.headers,
    }
    const correlation = req.headers['x-correlation-id']
    if (correlation !== undefined) {
      headers['x-correlation-id'] = Array.isArray(correlation) ? correlation.join(', ') : correlation
    }
    res.writeHead(reply.status, headers)
    res.end(body)
  }

  const server = http.createServer((req, res) => {
    const t: Timing = { start: performance.now(), db: 0 }
    route(req, t).then(
      (reply) => send(req, res, t, reply),
      (err: unknown) => {
        if (err instanceof HttpError) {
          if (err.status === 413) res.shouldKeepAlive = false
          send(req, res, t, json(err.status, { error: err.message }, err.headers))
        } else {
          console.error(`[app] ${req.method} ${req.url}: ${(err as Error).stack ?? String(err)}`)
          send(req, res, t, json(500, { error: 'internal server error' }))
        }
      },
    )
  })
  // Longer than a load generator's pauses between phases, so kept-alive connections survive them.
  server.keepAliveTimeout = 30_000
  server.headersTimeout = 35_000

  return {
    server,
    pool,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeIdleConnections()
      })
      await pool.end()
    },
  }
}

/** Creates the app from the environment, listens, and stops cleanly on SIGTERM / SIGINT. */
export async function start(env: NodeJS.ProcessEnv = process.env): Promise<App> {
  const config = configFromEnv(env)
  const app = createApp(config)
  await new Promise<void>((resolve, reject) => {
    app.server.once('error', reject)
    app.server.listen(config.port, config.host, () => resolve())
  })
  const address = app.server.address()
  const port = typeof address === 'object' && address ? address.port : config.port
  console.log(`[app] pid ${process.pid} listening on ${config.host}:${port} (pool ${config.poolSize})`)
  let stopping = false
  const stop = (signal: string) => {
    if (stopping) return
    stopping = true
    console.log(`[app] pid ${process.pid} ${signal}: closing`)
    setTimeout(() => process.exit(0), 3000).unref()
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    )
  }
  process.on('SIGTERM', () => stop('SIGTERM'))
  process.on('SIGINT', () => stop('SIGINT'))
  return app
}

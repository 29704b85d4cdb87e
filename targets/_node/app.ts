// The Cannonade sample API on node:http + pg, no framework. One module serves both Node stacks:
// server.ts runs it in one process (node-http), cluster.ts in WORKERS processes (node-cluster).
// Plain TypeScript with erasable syntax only: Node >= 22.18 runs it as is (type stripping).
import http from 'node:http'
import crypto from 'node:crypto'
import { performance } from 'node:perf_hooks'
import { promisify } from 'node:util'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import { ChainError, createChain } from './chain.ts'
import type { Chain } from './chain.ts'
import { computeHash, joinParts, localSplit, partIterations } from './compute.ts'
import type { SplitRunner } from './compute.ts'
import { configFromEnv, MAX_COMPUTE_ITERATIONS, MAX_LIMIT, MAX_PAYLOAD_BYTES, MAX_SPLIT } from './config.ts'
import type { Config } from './config.ts'
import { createDb } from './db.ts'
import { createListeners } from './listen.ts'
import type { Handler, Listeners } from './listen.ts'
import type { Db, Session, Timing } from './db.ts'
import { HttpError, intParam, readBody, readJson, receivePayload, stringField } from './request.ts'
import { CONTENT_TYPE, createMetrics, render } from './metrics.ts'
import type { Metrics, Snapshot } from './metrics.ts'

const pbkdf2 = promisify(crypto.pbkdf2)

export { configFromEnv } from './config.ts'
export type { Config } from './config.ts'

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
  /** More Server-Timing entries (the hops of a chain). */
  timing?: string
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
  /** The HTTP/1.1 server; what listens on PORT and TLS_PORT is `listeners` (listen.ts). */
  server: Server
  listeners: Listeners
  db: Db
  /** What GET /metrics reports for this process. */
  metrics: Metrics
  close(): Promise<void>
}

export interface AppOptions {
  /** Who computes the parts of /compute?split=K (node-cluster: the primary's workers). */
  split?: SplitRunner
  /** Every process's figures for GET /metrics (node-cluster: the primary gathers its workers'). */
  gather?: () => Promise<Snapshot[]>
}

const pathOf = (url: string | undefined): string => {
  const q = (url ?? '/').indexOf('?')
  return q < 0 ? (url ?? '/') : (url ?? '/').slice(0, q)
}

export function createApp(config: Config, opts: AppOptions = {}): App {
  const db = createDb(config.databaseUrl, config.poolSize)
  const split = opts.split ?? localSplit
  const metrics = createMetrics()
  const gather = opts.gather ?? (async () => [metrics.snapshot()])
  let selfUrl = `http://127.0.0.1:${config.port}`
  const chain: Chain | null =
    config.chainDepth > 0 ? createChain(config.chainDepth, () => config.chainUrl ?? selfUrl) : null

  async function route(req: IncomingMessage, t: Timing, sql: Session): Promise<Reply> {
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
        await sql.query('health', 'SELECT 1', [])
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
        const { rows } = await sql.query<AdRow>(
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
        const { rows } = await sql.query<AdRow>(
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
      const { rows } = await sql.query<AdRow>('ads_get', `SELECT ${AD_COLUMNS} FROM ads WHERE id = $1`, [
        Number(raw),
      ])
      const row = rows[0]
      if (!row) throw new HttpError(404, `ad ${raw} not found`)
      return json(200, adJson(row))
    }
    if (path === '/compute') {
      only('GET')
      const iterations = intParam(params, 'iterations', 1000, 1, MAX_COMPUTE_ITERATIONS)
      if (!params.has('split')) return json(200, { iterations, hash: computeHash(iterations) })
      const parts = intParam(params, 'split', 1, 1, Math.min(MAX_SPLIT, iterations))
      const results = await split(partIterations(iterations, parts))
      return json(200, {
        iterations,
        split: parts,
        hash: joinParts(results),
        workers: results.map((r) => r.worker),
      })
    }
    if (path === '/payload') {
      if (method === 'GET') {
        const bytes = intParam(params, 'bytes', 1024, 0, MAX_PAYLOAD_BYTES)
        return { status: 200, type: 'application/octet-stream', body: payload(bytes) }
      }
      if (method === 'POST') return json(200, await receivePayload(req, MAX_PAYLOAD_BYTES))
      throw new HttpError(405, 'method not allowed', { allow: 'GET, POST' })
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
      const { rows } = await sql.query<{ id: number }>(
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
      const { rows } = await sql.query<{ id: number; password_hash: string }>(
        'users_by_name',
        'SELECT id, password_hash FROM users WHERE username = $1',
        [username],
      )
      const user = rows[0]
      if (!user || !(await verifyPassword(password, user.password_hash))) {
        throw new HttpError(401, 'invalid username or password')
      }
      const token = crypto.randomBytes(32).toString('hex')
      await sql.query('sessions_insert', 'INSERT INTO sessions (token, user_id) VALUES ($1, $2)', [
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
      const { rows } = await sql.query<{ username: string }>(
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

  /** A chained request goes on to the next hop; the last hop (or any request without a chain) is routed here. */
  async function handle(req: IncomingMessage, t: Timing): Promise<Reply> {
    // This server's own figures: never passed down a chain, no database.
    if (pathOf(req.url) === '/metrics') {
      if (req.method !== 'GET') throw new HttpError(405, 'method not allowed', { allow: 'GET' })
      return { status: 200, type: CONTENT_TYPE, body: render(await gather()) }
    }
    if (chain && !(req.url ?? '/').startsWith('/health')) {
      const hop = chain.hopOf(req)
      if (hop < chain.depth) {
        const body = await readBody(req, MAX_PAYLOAD_BYTES)
        const r = await chain.forward(req, body.length > 0 ? body : null, hop + 1)
        t.db += r.db
        return { status: r.status, type: r.type, body: r.body, headers: r.headers, timing: r.timing }
      }
    }
    const sql = db.session(t)
    try {
      return await route(req, t, sql)
    } finally {
      await sql.release()
    }
  }

  function send(req: IncomingMessage, res: ServerResponse, t: Timing, reply: Reply): void {
    const body = reply.body
    const timing = `app;dur=${(performance.now() - t.start).toFixed(3)}, db;dur=${t.db.toFixed(3)}`
    const headers: Record<string, string | number> = {
      'content-type': reply.type,
      'content-length': typeof body === 'string' ? Buffer.byteLength(body) : body.length,
      'server-timing': reply.timing ? `${timing}, ${reply.timing}` : timing,
      ...reply.headers,
    }
    const correlation = req.headers['x-correlation-id']
    if (correlation !== undefined) {
      headers['x-correlation-id'] = Array.isArray(correlation) ? correlation.join(', ') : correlation
    }
    res.writeHead(reply.status, headers)
    res.end(body)
    metrics.record(req.method ?? 'GET', pathOf(req.url), reply.status, (performance.now() - t.start) / 1000)
  }

  const handler: Handler = (req, res) => {
    const t: Timing = { start: performance.now(), db: 0 }
    handle(req, t).then(
      (reply) => send(req, res, t, reply),
      (err: unknown) => {
        if (err instanceof HttpError) {
          if (err.status === 413) res.shouldKeepAlive = false
          send(req, res, t, json(err.status, { error: err.message }, err.headers))
        } else if (err instanceof ChainError) {
          send(req, res, t, json(err.status, { error: err.message }))
        } else {
          console.error(`[app] ${req.method} ${req.url}: ${(err as Error).stack ?? String(err)}`)
          send(req, res, t, json(500, { error: 'internal server error' }))
        }
      },
    )
  }
  const server = http.createServer(handler)
  // HTTP/2 by prior knowledge beside HTTP/1.1, and TLS, when asked (listen.ts); keep-alive of 30 s.
  const listeners = createListeners(server, handler, config)
  listeners.plain.on('listening', () => {
    const address = listeners.plain.address()
    if (typeof address === 'object' && address) selfUrl = `http://127.0.0.1:${address.port}`
  })

  return {
    server,
    listeners,
    db,
    metrics,
    async close() {
      await listeners.close()
      chain?.close()
      await db.close()
    },
  }
}

/** Creates the app from the environment, listens, and stops cleanly on SIGTERM / SIGINT. */
export async function start(env: NodeJS.ProcessEnv = process.env, opts: AppOptions = {}): Promise<App> {
  const config = configFromEnv(env)
  const app = createApp(config, opts)
  const listen = (server: Listeners['plain'], port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(port, config.host, () => resolve())
    })
  // TLS first: once PORT answers /health, every port the stack serves does.
  if (app.listeners.tls) await listen(app.listeners.tls, config.tlsPort)
  await listen(app.listeners.plain, config.port)
  const address = app.listeners.plain.address()
  const port = typeof address === 'object' && address ? address.port : config.port
  const pool = config.poolSize === 0 ? 'no pool: a connection per request' : `pool ${config.poolSize}`
  const chained =
    config.chainDepth > 0 ? `, chain ${config.chainDepth} hops to ${config.chainUrl ?? 'itself'}` : ''
  const tlsAddress = app.listeners.tls?.address()
  const served = [
    config.http2 ? 'HTTP/1.1 and h2c' : 'HTTP/1.1',
    ...(typeof tlsAddress === 'object' && tlsAddress
      ? [`TLS (${config.http2 ? 'h2, http/1.1' : 'http/1.1'}) on ${tlsAddress.port}`]
      : []),
  ].join(', ')
  console.log(`[app] pid ${process.pid} listening on ${config.host}:${port}, ${served} (${pool}${chained})`)
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

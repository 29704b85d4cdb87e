// Web mode (`cannonade serve`): the built renderer and the Api over HTTP + WebSocket, on 127.0.0.1
// only. Every API call and the event socket need the per-launch token the printed URL carries:
// any page in the user's browser can reach 127.0.0.1, only the one we opened knows the token.
//   POST /api/<channel>   body: JSON array of arguments → 200 JSON result | 4xx/5xx {error}
//   GET  /api/events      WebSocket: {event, payload} messages (runs:progress 1 Hz, runs:ended, …)
//   GET  /api/download?path=…   a file an export or report wrote (only under the data dir's
//                               exports/ and reports/ folders), as an attachment
import { randomBytes, timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Duplex } from 'node:stream'
import { WebSocketServer, type WebSocket } from 'ws'
import type { Api } from '../api/api.ts'
import { isChannel } from '../api/channels.ts'
import { subscribeAll } from '../api/client.ts'
import { dispatch } from '../api/dispatch.ts'
import { HTTP_STATUS, toErrorBody, type ErrorBody } from '../api/errors.ts'
import { serveDownload } from './download.ts'
import { serveStatic } from './static.ts'

export interface StartServerOptions {
  host: Api
  /** 0 or absent: any free port. */
  port?: number
  /** The renderer build (vite outDir). */
  staticDir: string
  /** Fixed token for tests; normally a fresh random one per launch. */
  token?: string
  /** The engine's data folder (dirname of its database): downloads come from its exports/ and reports/. */
  dataDir?: string
}

export interface RunningServer {
  /** Open this: `http://127.0.0.1:PORT/?token=…`. */
  url: string
  origin: string
  port: number
  token: string
  close(): Promise<void>
}

const MAX_BODY = 4 * 1024 * 1024
// A client that cannot keep up with 1 Hz snapshots is gone; don't buffer for it forever.
const MAX_BUFFERED = 8 * 1024 * 1024
const HEARTBEAT_MS = 30_000
export const TOKEN_HEADER = 'x-cannonade-token'

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body === undefined ? null : body)
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  })
  res.end(text)
}

function sendError(res: ServerResponse, status: number, error: ErrorBody): void {
  sendJson(res, status, { error })
}

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

/** DNS rebinding guard: a page served from evil.example resolving to 127.0.0.1 sends its own Host. */
function hostAllowed(req: IncomingMessage, port: number): boolean {
  const host = req.headers.host
  return host === `127.0.0.1:${port}` || host === `localhost:${port}`
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    const buf = chunk as Buffer
    size += buf.length
    if (size > MAX_BODY) throw new RangeError('body too large')
    chunks.push(buf)
  }
  return Buffer.concat(chunks).toString('utf8')
}

async function handleApi(api: Api, req: IncomingMessage, res: ServerResponse, name: string): Promise<void> {
  if (!isChannel(name)) {
    sendError(res, 404, { code: 'not-found', message: `no such channel: ${name}` })
    return
  }
  if (req.method !== 'POST') {
    res.setHeader('allow', 'POST')
    sendError(res, 405, { code: 'bad-input', message: `${name}: use POST with a JSON array of arguments` })
    return
  }
  let args: unknown
  try {
    const text = await readBody(req)
    args = text.trim() === '' ? [] : JSON.parse(text)
  } catch (err) {
    const tooLarge = err instanceof RangeError
    sendError(res, tooLarge ? 413 : 400, {
      code: 'bad-input',
      message: tooLarge ? `${name}: request body over ${MAX_BODY} bytes` : `${name}: body is not valid JSON`,
    })
    return
  }
  try {
    sendJson(res, 200, await dispatch(api, name, args))
  } catch (err) {
    const body = toErrorBody(err)
    sendError(res, HTTP_STATUS[body.code], body)
  }
}

export async function startServer(opts: StartServerOptions): Promise<RunningServer> {
  const token = opts.token ?? randomBytes(24).toString('base64url')
  let port = 0
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 })

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    if (!hostAllowed(req, port)) {
      sendError(res, 421, { code: 'bad-input', message: 'unexpected Host header' })
      return
    }
    if (url.pathname.startsWith('/api/')) {
      if (!sameToken(tokenOf(req, url), token)) {
        sendError(res, 401, {
          code: 'bad-input',
          message: 'missing or wrong token: open the URL `cannonade serve` printed',
        })
        return
      }
      if (url.pathname === '/api/download') {
        serveDownload(opts.dataDir, req, res, url).catch((err: unknown) => {
          if (!res.headersSent) sendError(res, 500, toErrorBody(err))
          else res.destroy()
        })
        return
      }
      handleApi(opts.host, req, res, decodeURIComponent(url.pathname.slice('/api/'.length))).catch(
        (err: unknown) => {
          if (!res.headersSent) sendError(res, 500, toErrorBody(err))
          else res.destroy()
        },
      )
      return
    }
    serveStatic(opts.staticDir, req, res, url.pathname).catch((err: unknown) => {
      if (!res.headersSent) sendError(res, 500, toErrorBody(err))
      else res.destroy()
    })
  })

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    const reject = (status: number, text: string) => {
      socket.end(`HTTP/1.1 ${status} ${text}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`)
    }
    if (url.pathname !== '/api/events') return reject(404, 'Not Found')
    if (!hostAllowed(req, port)) return reject(421, 'Misdirected Request')
    if (!sameToken(tokenOf(req, url), token)) return reject(401, 'Unauthorized')
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req))
  })

  const alive = new WeakMap<WebSocket, boolean>()
  wss.on('connection', (ws: WebSocket) => {
    alive.set(ws, true)
    ws.on('pong', () => alive.set(ws, true))
    // The socket is one-way (server → page); anything the page sends is ignored.
    ws.on('error', () => ws.terminate())
  })
  const heartbeat = setInterval(() => {
    for (const ws of wss.clients) {
      if (alive.get(ws) === false) {
        ws.terminate()
        continue
      }
      alive.set(ws, false)
      ws.ping()
    }
  }, HEARTBEAT_MS)
  heartbeat.unref()

  const unsubscribe = subscribeAll(opts.host, (event, payload) => {
    if (wss.clients.size === 0) return
    const message = JSON.stringify({ event, payload })
    for (const ws of wss.clients) {
      if (ws.readyState !== ws.OPEN) continue
      if (ws.bufferedAmount > MAX_BUFFERED) ws.terminate()
      else ws.send(message)
    }
  })

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(opts.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })
  port = (server.address() as AddressInfo).port
  const origin = `http://127.0.0.1:${port}`

  let closing: Promise<void> | null = null
  return {
    url: `${origin}/?token=${encodeURIComponent(token)}`,
    origin,
    port,
    token,
    close() {
      closing ??= (async () => {
        clearInterval(heartbeat)
        unsubscribe()
        for (const ws of wss.clients) ws.close(1001, 'server shutting down')
        await new Promise<void>((resolve) => wss.close(() => resolve()))
        server.closeIdleConnections()
        const closed = new Promise<void>((resolve) => server.close(() => resolve()))
        // Give in-flight calls a moment, then cut what is left (a long poll, a stuck client).
        const timer = setTimeout(() => server.closeAllConnections(), 2000)
        await closed
        clearTimeout(timer)
        for (const ws of wss.clients) ws.terminate()
      })()
      return closing
    },
  }
}

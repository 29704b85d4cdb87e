// Web mode (`cannonade serve`): the built renderer and the Api over HTTP + WebSocket, on 127.0.0.1
// only. Every API call and the event socket need the per-launch token the printed URL carries:
// any page in the user's browser can reach 127.0.0.1, only the one we opened knows the token, and a
// request another page sends (its Origin) is refused even with the token. No request, however
// malformed, throws out of a handler (guard.ts): it gets a 4xx and a log line.
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
import { subscribeAll } from '../api/transport/client.ts'
import { dispatch } from '../api/transport/dispatch.ts'
import { HTTP_STATUS, toErrorBody, type ErrorBody } from '../api/errors.ts'
import { serveDownload } from './download.ts'
import {
  clientErrorStatus,
  decodePath,
  describeRequest,
  hostAllowed,
  originAllowed,
  rawReply,
  requestTarget,
} from './guard.ts'
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
  /** One line per refused or failed request (serve prints them on stderr). */
  log?: (line: string) => void
}

type Gate = { ok: true; url: URL } | { ok: false; status: number; message: string }

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

/**
 * The body as text, or null once it passes MAX_BODY (declared or sent): the caller answers 413 and
 * closes the connection, so the rest of a huge body is never read.
 */
function readBody(req: IncomingMessage): Promise<string | null> {
  const declared = Number(req.headers['content-length'] ?? 0)
  if (declared > MAX_BODY) return Promise.resolve(null)
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size <= MAX_BODY) return void chunks.push(chunk)
      req.off('data', onData)
      req.off('end', onEnd)
      resolve(null)
    }
    const onEnd = () => resolve(Buffer.concat(chunks).toString('utf8'))
    req.on('data', onData)
    req.on('end', onEnd)
    req.on('error', reject)
  })
}

/**
 * 413, then close: a client still sending a huge body would otherwise keep the connection half
 * read. The close lingers: what the client sends after the answer is read and dropped until it
 * closes (a second at most), because closing a socket with unread bytes resets the connection, and
 * a reset can discard the 413 before the client reads it. Node closes a `Connection: close`
 * response's socket with destroySoon when it has one and with end() otherwise (resOnFinish in
 * Node's _http_server.js); end() is the half-close wanted here.
 */
function refuseTooLarge(req: IncomingMessage, res: ServerResponse, what: string): void {
  const socket = req.socket
  Object.defineProperty(socket, 'destroySoon', { value: undefined, configurable: true })
  res.shouldKeepAlive = false
  sendError(res, 413, { code: 'bad-input', message: `${what}: request body over ${MAX_BODY} bytes` })
  req.resume()
  socket.resume()
  const timer = setTimeout(() => socket.destroy(), 1000)
  timer.unref()
  socket.once('close', () => clearTimeout(timer))
}

async function handleApi(
  api: Api,
  req: IncomingMessage,
  res: ServerResponse,
  name: string,
  log: (line: string) => void,
): Promise<void> {
  if (!isChannel(name)) {
    sendError(res, 404, { code: 'not-found', message: `no such channel: ${name.slice(0, 100)}` })
    return
  }
  if (req.method !== 'POST') {
    res.setHeader('allow', 'POST')
    sendError(res, 405, { code: 'bad-input', message: `${name}: use POST with a JSON array of arguments` })
    return
  }
  const text = await readBody(req)
  if (text === null) {
    log(`413 ${describeRequest(req)}: body over ${MAX_BODY} bytes`)
    refuseTooLarge(req, res, name)
    return
  }
  let args: unknown
  try {
    args = text.trim() === '' ? [] : JSON.parse(text)
  } catch {
    sendError(res, 400, { code: 'bad-input', message: `${name}: body is not valid JSON` })
    return
  }
  try {
    sendJson(res, 200, await dispatch(api, name, args))
  } catch (err) {
    const body = toErrorBody(err)
    sendError(res, HTTP_STATUS[body.code], body)
  }
}

/** A route's failure after it started: a 500 if nothing was sent yet, else the connection is cut. */
function failed(req: IncomingMessage, res: ServerResponse, log: (line: string) => void) {
  return (err: unknown) => {
    log(`500 ${describeRequest(req)}: ${err instanceof Error ? err.message : String(err)}`)
    if (!res.headersSent) sendError(res, 500, toErrorBody(err))
    else res.destroy()
  }
}

export async function startServer(opts: StartServerOptions): Promise<RunningServer> {
  const token = opts.token ?? randomBytes(24).toString('base64url')
  let port = 0
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 })

  const log = opts.log ?? (() => {})
  const refuse = (req: IncomingMessage, status: number, message: string) =>
    log(`${status} ${describeRequest(req)}: ${message}`)

  /** The checks every request and upgrade passes, in this order, before any route runs. */
  const admit = (req: IncomingMessage): Gate => {
    const url = requestTarget(req.url)
    if (url === null) return { ok: false, status: 400, message: 'the request target is not a path' }
    if (req.httpVersionMajor !== 1) return { ok: false, status: 400, message: 'only HTTP/1.x is spoken here' }
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

  const route = (req: IncomingMessage, res: ServerResponse): void => {
    const gate = admit(req)
    if (!gate.ok) {
      refuse(req, gate.status, gate.message)
      if (gate.status === 400) res.shouldKeepAlive = false
      sendError(res, gate.status, { code: 'bad-input', message: gate.message })
      return
    }
    const { url } = gate
    if (url.pathname === '/api/download') {
      serveDownload(opts.dataDir, req, res, url).catch(failed(req, res, log))
      return
    }
    if (url.pathname.startsWith('/api/')) {
      const name = decodePath(url.pathname.slice('/api/'.length))
      if (name === null) {
        refuse(req, 400, 'malformed %-escape in the channel name')
        sendError(res, 400, { code: 'bad-input', message: 'malformed %-escape in the channel name' })
        return
      }
      handleApi(opts.host, req, res, name, log).catch(failed(req, res, log))
      return
    }
    serveStatic(opts.staticDir, req, res, url.pathname).catch(failed(req, res, log))
  }

  const server = createServer((req, res) => {
    try {
      route(req, res)
    } catch (err) {
      failed(req, res, log)(err)
    }
  })

  // Bytes that are not HTTP never reach a route: Node's parser rejects them here.
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    const status = clientErrorStatus(err)
    // A response already under way on this keep-alive socket cannot be followed by another.
    const started = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage
    if (status === null || !socket.writable || started?.headersSent) {
      socket.destroy()
      return
    }
    log(`${status} malformed request (${err.code ?? err.message})`)
    rawReply(socket, status, 'malformed HTTP request')
  })

  // CONNECT (a proxy request) has no route; without a listener Node drops it without a word.
  server.on('connect', (req: IncomingMessage, socket: Duplex) => {
    socket.on('error', () => socket.destroy())
    refuse(req, 405, 'CONNECT is not served')
    rawReply(socket, 405, 'CONNECT is not served')
  })

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // After an upgrade Node no longer watches the socket: a reset client must not throw.
    socket.on('error', () => socket.destroy())
    try {
      const gate = admit(req)
      if (!gate.ok) {
        refuse(req, gate.status, gate.message)
        rawReply(socket, gate.status, gate.message)
        return
      }
      if (gate.url.pathname !== '/api/events') {
        refuse(req, 404, 'no WebSocket here')
        rawReply(socket, 404, 'the event socket is /api/events')
        return
      }
      // ws answers a malformed handshake (version, key, method) with a 400 itself.
      wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req))
    } catch (err) {
      refuse(req, 500, err instanceof Error ? err.message : String(err))
      rawReply(socket, 500, 'internal error')
    }
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

// Web mode (`cannonade serve`): the built renderer and the Api over HTTP + WebSocket, on 127.0.0.1
// only. Every API call and the event socket need the per-launch token the printed URL carries:
// any page in the user's browser can reach 127.0.0.1, only the one we opened knows the token, and a
// request another page sends (its Origin) is refused even with the token (guard.ts, `admit`). No
// request, however malformed, throws out of a handler: it gets a 4xx and a log line.
//
// What a request that passed the gate gets is the route table below, first match wins:
//   GET  /api/download?path=…   a file an export or report wrote (only under the data dir's
//                               exports/ and reports/ folders), as an attachment (download.ts)
//   POST /api/<channel>   body: JSON array of arguments → 200 JSON result | 4xx/5xx {error} (api-route.ts)
//   GET  /…               the renderer's files (static.ts)
// and the one upgrade: GET /api/events, a WebSocket of {event, payload} messages (events.ts).
import { randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Duplex } from 'node:stream'
import type { Api } from '../api/api.ts'
import { serveApi } from './api-route.ts'
import { serveDownload } from './download.ts'
import { eventSocket, type EventSocket } from './events.ts'
import { admit, clientErrorStatus, rawReply, type Gate } from './guard.ts'
import { failed, logRefusal, sendError, type Log } from './reply.ts'
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

export interface RunningServer {
  /** Open this: `http://127.0.0.1:PORT/?token=…`. */
  url: string
  origin: string
  port: number
  token: string
  close(): Promise<void>
}

/** A route: the paths it takes, and how it answers a request the gate admitted. */
interface Route {
  matches(pathname: string): boolean
  serve(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void>
}

function routeTable(opts: StartServerOptions, log: Log): Route[] {
  return [
    {
      matches: (path) => path === '/api/download',
      serve: (req, res, url) => serveDownload(opts.dataDir, req, res, url),
    },
    {
      matches: (path) => path.startsWith('/api/'),
      serve: (req, res, url) => serveApi(opts.host, req, res, url, log),
    },
    {
      matches: () => true,
      serve: (req, res, url) => serveStatic(opts.staticDir, req, res, url.pathname),
    },
  ]
}

/** Every request: the gate, then the first route that takes its path; nothing throws out. */
function requestHandler(routes: Route[], gate: (req: IncomingMessage) => Gate, log: Log) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    try {
      const g = gate(req)
      if (!g.ok) {
        logRefusal(log, req, g.status, g.message)
        if (g.status === 400) res.shouldKeepAlive = false
        sendError(res, g.status, { code: 'bad-input', message: g.message })
        return
      }
      const route = routes.find((r) => r.matches(g.url.pathname))!
      route.serve(req, res, g.url).catch(failed(req, res, log))
    } catch (err) {
      failed(req, res, log)(err)
    }
  }
}

/** Upgrades: the gate, then only the event socket; a reset client must not throw. */
function upgradeHandler(events: EventSocket, gate: (req: IncomingMessage) => Gate, log: Log) {
  return (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    // After an upgrade Node no longer watches the socket: a reset client must not throw.
    socket.on('error', () => socket.destroy())
    try {
      const g = gate(req)
      if (!g.ok) {
        logRefusal(log, req, g.status, g.message)
        rawReply(socket, g.status, g.message)
        return
      }
      if (g.url.pathname !== '/api/events') {
        logRefusal(log, req, 404, 'no WebSocket here')
        rawReply(socket, 404, 'the event socket is /api/events')
        return
      }
      events.upgrade(req, socket, head)
    } catch (err) {
      logRefusal(log, req, 500, err instanceof Error ? err.message : String(err))
      rawReply(socket, 500, 'internal error')
    }
  }
}

/** What never reaches a route: bytes that are not HTTP (Node's parser rejects them), and CONNECT. */
function refuseNonRequests(server: Server, log: Log): void {
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
    logRefusal(log, req, 405, 'CONNECT is not served')
    rawReply(socket, 405, 'CONNECT is not served')
  })
}

async function closeServer(server: Server, events: EventSocket): Promise<void> {
  await events.close()
  server.closeIdleConnections()
  const closed = new Promise<void>((resolve) => server.close(() => resolve()))
  // Give in-flight calls a moment, then cut what is left (a long poll, a stuck client).
  const timer = setTimeout(() => server.closeAllConnections(), 2000)
  await closed
  clearTimeout(timer)
  events.terminate()
}

export async function startServer(opts: StartServerOptions): Promise<RunningServer> {
  const token = opts.token ?? randomBytes(24).toString('base64url')
  const log = opts.log ?? (() => {})
  // Host must name the port listened on, known once listening.
  let port = 0
  const gate = (req: IncomingMessage) => admit(req, port, token)
  const events = eventSocket(opts.host)
  const server = createServer(requestHandler(routeTable(opts, log), gate, log))
  refuseNonRequests(server, log)
  server.on('upgrade', upgradeHandler(events, gate, log))

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
    close: () => (closing ??= closeServer(server, events)),
  }
}

// HTTP/2 targets for the load client's conformance suite (issue 31, item 3): Node's own HTTP/2
// server (nghttp2, a real implementation) made to do one behaviour each (a stream limit, a
// 1-byte window, GOAWAY after N requests, a reset every Nth stream, a push, a PING), and a raw
// TCP relay in front of it that holds the server's first bytes (its SETTINGS) back. Each counts
// what it received and answered: the truth a run is checked against.
import http2 from 'node:http2'
import net from 'node:net'
import { selfSigned } from './tls.ts'

export interface H2Target {
  url: string
  /** Requests (streams) received, and answered whole (the response's last byte handed to the session). */
  received: number
  answered: number
  /** Streams the server reset (any code), and request body bytes it read. */
  reset: number
  bodyBytes: number
  /** Requests whose body ended short of their content-length. */
  bodyShort: number
  /** Sessions opened; the most streams open at once on one session. */
  sessions: number
  maxConcurrent: number
  /** PINGs the server sent that the client answered. */
  pingsAnswered: number
  /** Pushes the server promised that the client refused. */
  pushesRefused: number
  zero(): void
  close(): Promise<void>
}

/**
 * Closes an HTTP/2 server for good: its sessions and every socket it accepted, a TLS handshake or a
 * preface still pending included (`server.close` alone waits for those for ever). `open()` counts
 * the sockets still open, so a caller can say what was left.
 */
export function closer(server: http2.Http2Server | http2.Http2SecureServer): (() => Promise<void>) & {
  open(): number
} {
  const sockets = new Set<net.Socket>()
  const sessions = new Set<http2.ServerHttp2Session>()
  server.on('connection', (socket: net.Socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  server.on('session', (session: http2.ServerHttp2Session) => {
    sessions.add(session)
    session.on('close', () => sessions.delete(session))
  })
  const close = async () => {
    for (const s of sessions) s.destroy()
    for (const s of sockets) s.destroy()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }
  return Object.assign(close, { open: () => sockets.size })
}

/** What the target does with the nth stream of a session (from 1); return false to answer as usual. */
export type H2Behaviour = (
  stream: http2.ServerHttp2Stream,
  nth: number,
  t: H2Target,
  session: http2.ServerHttp2Session,
) => boolean

export interface H2TargetOptions {
  settings?: http2.Settings
  behaviour?: H2Behaviour
  /** TLS with a throwaway self-signed certificate (h2 by ALPN), else cleartext (h2c). */
  tls?: boolean
  /** Hold the server's first bytes (its SETTINGS) back this long: a relay in front of it. */
  lateSettingsMs?: number
  /** Response body bytes (default 2: "ok"). */
  bodyBytes?: number
  /** The server sends a PING on every new session. */
  ping?: boolean
}

/** Answer 200 with `bytes` of body, counting it once the body's end is handed to the session. */
export function answer(stream: http2.ServerHttp2Stream, t: H2Target, bytes = 2): void {
  if (stream.destroyed) return
  stream.respond({ ':status': 200, 'content-type': 'text/plain' })
  const chunk = Buffer.alloc(Math.min(bytes, 1 << 20), 'o')
  let left = bytes
  const more = (): void => {
    while (left > 0 && !stream.destroyed) {
      const n = Math.min(left, chunk.length)
      left -= n
      if (left === 0) return void stream.end(chunk.subarray(0, n), () => t.answered++)
      if (!stream.write(chunk.subarray(0, n))) return void stream.once('drain', more)
    }
  }
  if (bytes === 0) stream.end(() => t.answered++)
  else more()
}

export async function startH2Target(o: H2TargetOptions = {}): Promise<H2Target> {
  const t: H2Target = {
    url: '',
    received: 0,
    answered: 0,
    reset: 0,
    bodyBytes: 0,
    bodyShort: 0,
    sessions: 0,
    maxConcurrent: 0,
    pingsAnswered: 0,
    pushesRefused: 0,
    zero: () => {
      for (const k of [
        'received',
        'answered',
        'reset',
        'bodyBytes',
        'bodyShort',
        'sessions',
        'maxConcurrent',
        'pingsAnswered',
        'pushesRefused',
      ] as const)
        t[k] = 0
    },
    close: async () => {},
  }
  const cert = o.tls ? selfSigned() : null
  const server = cert
    ? http2.createSecureServer({ key: cert.key, cert: cert.cert, settings: o.settings ?? {} })
    : http2.createServer({ settings: o.settings ?? {} })
  const closeAll = closer(server)
  server.on('session', (session) => {
    t.sessions++
    session.on('error', () => {})
    let open = 0
    let nth = 0
    session.on('stream', (stream, headers) => {
      t.received++
      open++
      if (open > t.maxConcurrent) t.maxConcurrent = open
      stream.on('close', () => {
        open--
        if (stream.rstCode !== 0) t.reset++
      })
      stream.on('error', () => {})
      let got = 0
      stream.on('data', (d: Buffer) => {
        t.bodyBytes += d.length
        got += d.length
      })
      const n = ++nth
      // The request's body (if any) is read whole before the answer.
      stream.on('end', () => {
        if (got !== Number(headers['content-length'] ?? 0)) t.bodyShort++
        if (!o.behaviour?.(stream, n, t, session)) answer(stream, t, o.bodyBytes)
      })
    })
    if (o.ping) session.once('remoteSettings', () => session.ping((err) => !err && t.pingsAnswered++))
  })
  server.on('error', () => {})
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  let port = (server.address() as net.AddressInfo).port
  const relay = o.lateSettingsMs ? await lateRelay(port, o.lateSettingsMs) : null
  if (relay) port = relay.port
  t.url = `${cert ? 'https' : 'http'}://127.0.0.1:${port}`
  t.close = async () => {
    relay?.close()
    await closeAll()
  }
  return t
}

/** A TCP relay to `port` that holds the server's first bytes back `ms` (its SETTINGS arrive late). */
async function lateRelay(port: number, ms: number): Promise<{ port: number; close(): void }> {
  const sockets = new Set<net.Socket>()
  const relay = net.createServer((client) => {
    const server = net.connect(port, '127.0.0.1')
    sockets.add(client).add(server)
    client.pipe(server)
    client.on('error', () => server.destroy())
    server.on('error', () => client.destroy())
    server.pause()
    setTimeout(() => server.pipe(client), ms)
  })
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve))
  return {
    port: (relay.address() as net.AddressInfo).port,
    close: () => {
      for (const s of sockets) s.destroy()
      relay.close()
    },
  }
}

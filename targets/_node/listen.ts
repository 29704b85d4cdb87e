// How the API is served (targets/README.md, "HTTP/2 and TLS"). By default HTTP/1.1 on PORT, as
// ever. HTTP2=on: PORT takes HTTP/2 by prior knowledge (h2c) too, told apart from HTTP/1.1 by a
// connection's first bytes (HTTP/2's preface begins `PRI * HTTP/2.0`, a method the API has not).
// TLS=on: TLS_PORT serves HTTPS with a self-signed certificate made at start-up (openssl: an EC
// P-256 key for 127.0.0.1 and localhost, read into memory from a private temporary folder that is
// removed at once; no key is ever kept in the repository or an image), offering h2 by ALPN when
// HTTP2=on, and http/1.1.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import http2 from 'node:http2'
import https from 'node:https'
import net from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http'

/** The API's request handler: node:http's, and through the compatibility API node:http2's. */
export type Handler = (req: IncomingMessage, res: ServerResponse) => void

export interface Listeners {
  /** What listens on PORT. */
  plain: net.Server
  /** What listens on TLS_PORT (TLS=on), else null. */
  tls: net.Server | null
  close(): Promise<void>
}

const PREFACE = Buffer.from('PRI * HTTP/2.0')
/** Longer than a load generator's pauses between phases, so kept-alive connections survive them. */
const KEEP_ALIVE = { keepAliveTimeout: 30_000, headersTimeout: 35_000 }

/** A self-signed certificate for 127.0.0.1 and localhost, valid for 30 days, as PEM text. */
export function selfSignedCertificate(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'cannonade-tls-'))
  try {
    const [key, cert] = [join(dir, 'key.pem'), join(dir, 'cert.pem')]
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', key]
        .concat(['-out', cert, '-days', '30', '-subj', '/CN=127.0.0.1'])
        .concat(['-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost']),
      { stdio: 'ignore', timeout: 30_000 },
    )
    return { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** PORT's server for HTTP/1.1 and h2c: each connection goes to one by its first bytes. */
function sniffing(h1: HttpServer, h2c: http2.Http2Server): net.Server {
  return net.createServer({ noDelay: true }, (socket) => {
    let head: Buffer = Buffer.alloc(0)
    const early = () => socket.destroy()
    const onData = (chunk: Buffer) => {
      head = head.length === 0 ? chunk : Buffer.concat([head, chunk])
      // Too short to tell yet (a preface cut by the network): wait for the rest of it.
      if (head.length < PREFACE.length && PREFACE.subarray(0, head.length).equals(head)) return
      socket.removeListener('data', onData)
      socket.removeListener('error', early)
      socket.setTimeout(0)
      socket.pause()
      socket.unshift(head)
      const h2 = head.length >= PREFACE.length && head.subarray(0, PREFACE.length).equals(PREFACE)
      // HTTP/2's session reads what was put back itself; node:http needs the socket flowing.
      ;(h2 ? h2c : h1).emit('connection', socket)
      if (!h2) socket.resume()
    }
    socket.on('data', onData)
    socket.on('error', early)
    socket.setTimeout(KEEP_ALIVE.headersTimeout, early)
  })
}

/** Sessions an HTTP/2 server holds, closed with it. */
function tracked(server: http2.Http2Server | http2.Http2SecureServer): Set<http2.ServerHttp2Session> {
  const sessions = new Set<http2.ServerHttp2Session>()
  server.on('session', (s: http2.ServerHttp2Session) => {
    sessions.add(s)
    s.once('close', () => sessions.delete(s))
  })
  return sessions
}

const closed = (s: net.Server) =>
  new Promise<void>((resolve) => (s.listening ? s.close(() => resolve()) : resolve()))

/** The servers `o` asks for around the app's HTTP/1.1 server `h1` (its handler `handler`). */
export function createListeners(
  h1: HttpServer,
  handler: Handler,
  o: { http2: boolean; tls: boolean },
): Listeners {
  Object.assign(h1, KEEP_ALIVE)
  const sessions: Set<http2.ServerHttp2Session>[] = []
  const h2Handler = handler as unknown as (
    req: http2.Http2ServerRequest,
    res: http2.Http2ServerResponse,
  ) => void
  let plain: net.Server = h1
  if (o.http2) {
    const h2c = http2.createServer({}, h2Handler)
    sessions.push(tracked(h2c))
    plain = sniffing(h1, h2c)
  }
  let tls: net.Server | null = null
  if (o.tls) {
    const pem = selfSignedCertificate()
    if (o.http2) {
      const h2 = http2.createSecureServer({ ...pem, allowHTTP1: true }, h2Handler)
      sessions.push(tracked(h2))
      tls = Object.assign(h2, KEEP_ALIVE)
    } else tls = Object.assign(https.createServer(pem, handler), KEEP_ALIVE)
  }
  return {
    plain,
    tls,
    async close() {
      for (const set of sessions) for (const s of set) s.close()
      h1.closeIdleConnections()
      if (tls instanceof https.Server) tls.closeIdleConnections()
      await Promise.all([closed(plain), ...(tls ? [closed(tls)] : []), ...(plain !== h1 ? [closed(h1)] : [])])
    },
  }
}

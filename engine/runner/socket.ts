// The sockets of load connections (connection.ts): autocannon's client class as that module drives
// it, socket errors by kind, and opening a socket. Plain sockets read into one static buffer (net's
// `onread`): no Buffer per read and no stream 'data' event, about 5 µs of CPU per response less
// (bench/RESULTS.md); the parser copies the little it keeps across reads. TLS sockets read the
// same way (tls.connect takes `onread` too): their decrypted bytes land in the same buffer.
import { createRequire } from 'node:module'
import net from 'node:net'
import tls from 'node:tls'
import type { EventEmitter } from 'node:events'
import { ERROR_KINDS, type ErrorKind } from '../api/types.ts'

const require = createRequire(import.meta.url)
// autocannon's connection class is internal API (lib/httpClient.js, not in its typings), so package.json
// pins autocannon to an exact version: any release may change the fields connection.ts touches.
export const AutocannonClient = require('autocannon/lib/httpClient.js') as new (
  opts: Record<string, unknown>,
) => AcClient

/** The parts of autocannon's Client connection.ts relies on. */
export interface AcClient extends EventEmitter {
  conn: net.Socket
  timeoutTicker: { reschedule(ms: number): void; clear(): void }
  destroyed: boolean
  secure: boolean
  _connect(): void
  _doRequest(): void
  _destroyConnection(): void
  destroy(): void
}

export function errorKindOf(err: NodeJS.ErrnoException): number {
  const code = err.code ?? ''
  let kind: ErrorKind = 'other'
  if (code === 'ECONNREFUSED') kind = 'refused'
  else if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'ECONNABORTED') kind = 'reset'
  else if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') kind = 'dns'
  else if (code === 'ETIMEDOUT') kind = 'timeout'
  else if (/^ERR_TLS|^ERR_SSL|CERT|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code)) kind = 'tls'
  return ERROR_KINDS.indexOf(kind)
}

/**
 * What every plain connection of this process reads into. One is enough: a read's callback runs to
 * its end before the next read, and the parser keeps nothing of it after (it copies).
 */
const READ_BUFFER = Buffer.allocUnsafe(64 * 1024)

/** How a socket to the target is opened. */
export interface SocketOptions {
  secure: boolean
  hostname: string
  port: number
  /** Accept a certificate that does not verify (`insecure: true`: self-signed test servers). */
  insecure: boolean
  /** TLS: the protocols offered by ALPN (`['h2']` for HTTP/2 over TLS). */
  alpn?: string[]
  /** TLS session resumption (`tls: { resume: true }`): the ticket kept from an earlier handshake. */
  resume?: TlsSessions
}

/** The TLS session tickets of one target's connections, kept for resumption. */
export interface TlsSessions {
  session: Buffer | undefined
}

/**
 * A socket to the target, its bytes handed to `onRead` as they arrive (a plain socket's `buffer`
 * is the shared read buffer: read it before returning). TLS is verified unless `insecure`; the
 * server name (SNI) is the URL's host name unless it is an IP address, as browsers and curl send it.
 */
export function openSocket(o: SocketOptions, onRead: (buffer: Buffer, n: number) => void): net.Socket {
  if (o.secure) {
    // tls.connect takes net's `onread` (Node's typings leave it out).
    const options: tls.ConnectionOptions & { onread: net.OnReadOpts } = {
      port: o.port,
      host: o.hostname,
      rejectUnauthorized: !o.insecure,
      servername: net.isIP(o.hostname) ? undefined : o.hostname,
      ...(o.alpn ? { ALPNProtocols: o.alpn } : {}),
      ...(o.resume?.session ? { session: o.resume.session } : {}),
      onread: staticRead(onRead),
    }
    const socket = tls.connect(options)
    const resume = o.resume
    if (resume) socket.on('session', (session: Buffer) => (resume.session = session))
    return socket
  }
  return net.connect({ port: o.port, host: o.hostname, onread: staticRead(onRead) })
}

/** Reads into the shared buffer, handed to `onRead` (TLS sockets too: their decrypted bytes). */
function staticRead(onRead: (buffer: Buffer, n: number) => void): net.OnReadOpts {
  return {
    buffer: READ_BUFFER,
    // true: go on reading (false would pause the socket).
    callback: (n: number) => {
      onRead(READ_BUFFER, n)
      return true
    },
  }
}

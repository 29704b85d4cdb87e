// Raw TCP for tests that send what no HTTP client would (a request target that is no URL, bytes
// that are not HTTP), a target that answers what no HTTP server would and logs when each request
// arrived, and a seeded PRNG so a generated case that fails is the same case next time.
import net from 'node:net'
import tls from 'node:tls'

export interface RawReply {
  /** The status of the first response, null when the server closed without one. */
  status: number | null
  /** What the server sent: the first response, or everything before it closed. */
  text: string
  /** The exchange ended (a whole response, or the server closed); false: nothing within limitMs. */
  done: boolean
}

/** Length of the first response in `buf` once it is complete, else null. */
function responseLength(buf: string, head: boolean): number | null {
  const end = buf.indexOf('\r\n\r\n')
  if (end < 0) return null
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(buf)?.[1] ?? 0)
  const length = /\r\ncontent-length: *(\d+)/i.exec(buf.slice(0, end))
  if (head || (status >= 100 && status < 200) || status === 204 || status === 304) return end + 4
  // Without a length the body ends with the connection.
  return length ? end + 4 + Number(length[1]) : null
}

/**
 * Send `bytes` and read the first response (or up to the server's close). `end` half-closes after
 * writing, for a request that is incomplete on purpose: the server sees the end of the stream.
 * (Node's server drops a request still being answered when its client half-closes, so a complete
 * one is sent without.) Nothing within `limitMs`: done=false, so a test can name the case.
 */
export function rawExchange(
  port: number,
  bytes: string | Buffer,
  opts: { end?: boolean; head?: boolean; limitMs?: number } = {},
): Promise<RawReply> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    const socket = net.connect(port, '127.0.0.1')
    const finish = (done: boolean) => {
      clearTimeout(timer)
      socket.destroy()
      const text = Buffer.concat(chunks).toString('latin1')
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(text)
      resolve({ status: m ? Number(m[1]) : null, text, done })
    }
    const timer = setTimeout(() => finish(false), opts.limitMs ?? 10_000)
    socket.on('connect', () => {
      socket.write(typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : bytes)
      if (opts.end) socket.end()
    })
    socket.on('data', (c: Buffer) => {
      chunks.push(c)
      const length = responseLength(Buffer.concat(chunks).toString('latin1'), opts.head ?? false)
      if (length !== null && Buffer.concat(chunks).length >= length) finish(true)
    })
    // A reset after the answer still leaves the answer readable.
    socket.on('error', () => finish(true))
    socket.on('close', () => finish(true))
  })
}

/** The seeded PRNG the synthetic fixtures use too (mulberry32, uniform in [0, 1)). */
export { seededRandom as prng } from '../metrics/random.ts'

/** Helpers over a PRNG: a whole number below n, one of a list, a string from an alphabet. */
export function picker(random: () => number) {
  const int = (n: number) => Math.floor(random() * n)
  const one = <T>(list: readonly T[]): T => list[int(list.length)]!
  const text = (alphabet: readonly string[], max: number) =>
    Array.from({ length: 1 + int(max) }, () => one(alphabet)).join('')
  return { int, one, text }
}

export interface RawTargetOptions {
  /** Hold every request that arrives in [fromMs, toMs) after the first one until toMs. */
  stall?: { fromMs: number; toMs: number }
  /** The whole response to send, as is (default: a 200 "ok"). */
  response?: string
  /** Serve TLS with this key and certificate, and begin each handshake this many ms late. */
  tls?: { key: string; cert: string; handshakeDelayMs?: number }
  correlationHeader?: string
}

export interface Arrival {
  /** The request's correlation id ('' without one). */
  id: string
  /** Epoch ms with µs precision (preciseNow()), read as the request's bytes came off the socket. */
  at: number
  /** Which connection (0, 1, … in the order they were accepted). */
  socket: number
}

export interface RawTarget {
  port: number
  url: string
  /** Every request as the bytes that arrived, head and body, in order. */
  requests: Buffer[]
  arrivals: Arrival[]
  /** Connections accepted. */
  sockets: number
  /** When the stall's held answers were written (a timer fires a few ms early or late). */
  releasedAt: number | null
  close(): Promise<void>
}

/**
 * The clock of a run's start times (performance.timeOrigin + performance.now()), to the µs and
 * the same in every process of the machine: arrivals compare with intended send times on it.
 */
export const preciseNow = (): number => performance.timeOrigin + performance.now()

/**
 * A target on a raw TCP socket, with no HTTP library in between: it logs each request's exact
 * bytes (what a config put on the wire, byte for byte) and when it arrived, and answers 200 "ok"
 * or the raw `response` (a malformed status line, an invalid Content-Length). It can hold the
 * requests of a stall, and hold each TLS handshake back (a connect time the test knows).
 * Requests are framed by Content-Length; answers leave in request order; keep-alive as the
 * client asks.
 */
export async function startRawTarget(opts: RawTargetOptions = {}): Promise<RawTarget> {
  const idHeader = (opts.correlationHeader ?? 'x-correlation-id').toLowerCase() + ':'
  const sockets = new Set<net.Socket>()
  const timers = new Set<NodeJS.Timeout>()
  const later = (ms: number, fn: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t)
      fn()
    }, ms)
    timers.add(t)
  }
  const state: RawTarget = {
    port: 0,
    url: '',
    requests: [],
    arrivals: [],
    sockets: 0,
    releasedAt: null,
    close: async () => {},
  }
  let first = 0
  const serve = (socket: net.Socket, index: number) => {
    let buf = Buffer.alloc(0)
    let answered = Promise.resolve()
    socket.on('data', (chunk: Buffer) => {
      const at = preciseNow()
      buf = Buffer.concat([buf, chunk])
      for (;;) {
        const end = buf.indexOf('\r\n\r\n')
        if (end < 0) return
        const head = buf.subarray(0, end).toString('latin1')
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0)
        const total = end + 4 + length
        if (buf.length < total) return
        state.requests.push(Buffer.from(buf.subarray(0, total)))
        buf = buf.subarray(total)
        const idLine = head.split('\r\n').find((l) => l.toLowerCase().startsWith(idHeader))
        state.arrivals.push({ id: idLine?.slice(idHeader.length).trim() ?? '', at, socket: index })
        first ||= at
        const close = /\r\nconnection: *close/i.test(head)
        const response =
          opts.response ??
          `HTTP/1.1 200 OK\r\ncontent-length: 2\r\n${close ? 'connection: close\r\n' : ''}\r\nok`
        const rel = at - first
        const hold =
          opts.stall && rel >= opts.stall.fromMs && rel < opts.stall.toMs ? opts.stall.toMs - rel : 0
        const previous = answered
        answered = new Promise((resolve) => {
          const answer = () =>
            void previous.then(() => {
              if (!socket.destroyed) {
                socket.write(response)
                if (close) socket.end()
              }
              resolve()
            })
          if (hold === 0) return answer()
          later(hold, () => {
            state.releasedAt ??= preciseNow()
            answer()
          })
        })
      }
    })
  }
  const tlsContext = opts.tls ? tls.createSecureContext({ key: opts.tls.key, cert: opts.tls.cert }) : null
  const server = net.createServer((socket) => {
    const index = state.sockets++
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => socket.destroy())
    if (!tlsContext) return serve(socket, index)
    later(opts.tls?.handshakeDelayMs ?? 0, () => {
      if (socket.destroyed) return
      const secure = new tls.TLSSocket(socket, { isServer: true, secureContext: tlsContext })
      secure.on('error', () => socket.destroy())
      serve(secure, index)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  state.port = (server.address() as net.AddressInfo).port
  state.url = `${opts.tls ? 'https' : 'http'}://127.0.0.1:${state.port}`
  state.close = () =>
    new Promise<void>((resolve) => {
      for (const t of timers) clearTimeout(t)
      for (const s of sockets) s.destroy()
      server.close(() => resolve())
    })
  return state
}

/**
 * The arrival rate (per second) in each of the first `seconds` whole seconds after `from` (epoch
 * ms): the median of the second's ten 100 ms counts, × 10. A pause of the load generator (a
 * loaded machine) moves the requests it delays into the next 100 ms, so it changes a second's
 * figure only if it lasts half of it; a sender that stops for the whole second shows as ~0.
 */
export function arrivalRates(arrivals: readonly Arrival[], from: number, seconds: number): number[] {
  const buckets = new Array<number>(seconds * 10).fill(0)
  for (const a of arrivals) {
    const b = Math.floor((a.at - from) / 100)
    if (b >= 0 && b < buckets.length) buckets[b]!++
  }
  return Array.from({ length: seconds }, (_, s) => {
    const tenth = buckets.slice(s * 10, s * 10 + 10).sort((x, y) => x - y)
    return ((tenth[4]! + tenth[5]!) / 2) * 10
  })
}

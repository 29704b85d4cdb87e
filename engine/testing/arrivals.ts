// A test target that logs when each request arrived, on the clock the runner's start times use
// (performance.timeOrigin + performance.now(), to the µs, the same in every process of the
// machine), read as the request's bytes come off the socket. Written on `net` rather than `http`,
// so nothing between the socket and the log adds time, and so it can answer what `http` cannot:
// a raw response (a malformed status line, an invalid Content-Length), and a TLS handshake it
// holds back (a connect time the test knows).
import net from 'node:net'
import tls from 'node:tls'
import type { AddressInfo } from 'node:net'

export interface ArrivalOptions {
  /** Hold every request that arrives in [fromMs, toMs) after the first one until toMs. */
  stall?: { fromMs: number; toMs: number }
  /** The whole response to send, as is (default: a 200 with a 2-byte body). */
  response?: string
  /** Serve TLS with this key and certificate, and begin each handshake this many ms late. */
  tls?: { key: string; cert: string; handshakeDelayMs?: number }
  correlationHeader?: string
}

export interface Arrival {
  id: string
  /** Epoch ms with µs precision (performance.timeOrigin + performance.now()). */
  at: number
  /** Which connection (0, 1, … in the order they were accepted). */
  socket: number
}

export interface ArrivalTarget {
  url: string
  arrivals: Arrival[]
  /** When the stall's held answers were actually written (a late timer makes the stall longer). */
  releasedAt: number | null
  sockets: number
  close(): Promise<void>
}

const OK = 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok'

export const preciseNow = (): number => performance.timeOrigin + performance.now()

export async function startArrivalTarget(opts: ArrivalOptions = {}): Promise<ArrivalTarget> {
  const header = (opts.correlationHeader ?? 'x-correlation-id').toLowerCase() + ':'
  const response = opts.response ?? OK
  const open = new Set<net.Socket>()
  const timers = new Set<NodeJS.Timeout>()
  const state: ArrivalTarget = {
    url: '',
    arrivals: [],
    releasedAt: null,
    sockets: 0,
    close: async () => {},
  }
  let first = 0

  const later = (ms: number, fn: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t)
      fn()
    }, ms)
    timers.add(t)
  }

  const serve = (socket: net.Socket, index: number) => {
    let buffered = ''
    // Responses leave in request order even when one is held by the stall.
    let ready = Promise.resolve()
    socket.on('data', (chunk: Buffer) => {
      const at = preciseNow()
      buffered += chunk.toString('latin1')
      for (let end = buffered.indexOf('\r\n\r\n'); end >= 0; end = buffered.indexOf('\r\n\r\n')) {
        const head = buffered.slice(0, end)
        const length = /\r\ncontent-length:\s*(\d+)/i.exec(head)
        const bodyLength = length ? Number(length[1]) : 0
        if (buffered.length < end + 4 + bodyLength) break
        buffered = buffered.slice(end + 4 + bodyLength)
        const lines = head.split('\r\n')
        const idLine = lines.find((l) => l.toLowerCase().startsWith(header))
        const id = idLine ? idLine.slice(header.length).trim() : ''
        const close = lines.some((l) => /^connection:\s*close/i.test(l))
        if (first === 0) first = at
        state.arrivals.push({ id, at, socket: index })
        const rel = at - first
        const hold =
          opts.stall && rel >= opts.stall.fromMs && rel < opts.stall.toMs ? opts.stall.toMs - rel : 0
        const previous = ready
        ready = new Promise((resolve) => {
          const answer = () =>
            void previous.then(() => {
              if (!socket.destroyed) {
                socket.write(response)
                if (close) socket.end()
              }
              resolve()
            })
          if (hold > 0)
            later(hold, () => {
              state.releasedAt ??= preciseNow()
              answer()
            })
          else answer()
        })
      }
    })
    socket.on('error', () => {})
  }

  const tlsContext = opts.tls ? tls.createSecureContext({ key: opts.tls.key, cert: opts.tls.cert }) : null
  const server = net.createServer((raw) => {
    const index = state.sockets++
    open.add(raw)
    raw.on('close', () => open.delete(raw))
    raw.on('error', () => {})
    if (!tlsContext) return serve(raw, index)
    later(opts.tls?.handshakeDelayMs ?? 0, () => {
      if (raw.destroyed) return
      const secure = new tls.TLSSocket(raw, { isServer: true, secureContext: tlsContext })
      secure.on('error', () => {})
      serve(secure, index)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  state.url = `${opts.tls ? 'https' : 'http'}://127.0.0.1:${port}`
  state.close = () =>
    new Promise<void>((resolve) => {
      for (const t of timers) clearTimeout(t)
      for (const s of open) s.destroy()
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

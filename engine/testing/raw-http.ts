// Raw TCP for tests that send what no HTTP client would (a request target that is no URL, bytes
// that are not HTTP), and a seeded PRNG so a generated case that fails is the same case next time.
import net from 'node:net'

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

/** mulberry32: a small seeded PRNG (uniform in [0, 1)). */
export function prng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Helpers over a PRNG: a whole number below n, one of a list, a string from an alphabet. */
export function picker(random: () => number) {
  const int = (n: number) => Math.floor(random() * n)
  const one = <T>(list: readonly T[]): T => list[int(list.length)]!
  const text = (alphabet: readonly string[], max: number) =>
    Array.from({ length: 1 + int(max) }, () => one(alphabet)).join('')
  return { int, one, text }
}

export interface RawTarget {
  port: number
  /** Every request as the bytes that arrived, head and body, in order. */
  requests: Buffer[]
  close(): Promise<void>
}

/**
 * A target on a raw TCP socket that logs each request's exact bytes (what a config put on the
 * wire, byte for byte: no HTTP library in between to normalise it) and answers 200 "ok".
 * Requests are framed by Content-Length; keep-alive as the client asks.
 */
export async function startRawTarget(): Promise<RawTarget> {
  const requests: Buffer[] = []
  const sockets = new Set<net.Socket>()
  const server = net.createServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => socket.destroy())
    let buf = Buffer.alloc(0)
    socket.on('data', (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk])
      for (;;) {
        const end = buf.indexOf('\r\n\r\n')
        if (end < 0) return
        const head = buf.subarray(0, end).toString('latin1')
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0)
        const total = end + 4 + length
        if (buf.length < total) return
        requests.push(Buffer.from(buf.subarray(0, total)))
        buf = buf.subarray(total)
        const close = /\r\nconnection: *close/i.test(head)
        socket.write(`HTTP/1.1 200 OK\r\ncontent-length: 2\r\n${close ? 'connection: close\r\n' : ''}\r\nok`)
        if (close) socket.end()
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as net.AddressInfo).port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy()
        server.close(() => resolve())
      }),
  }
}

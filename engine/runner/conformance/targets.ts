// Raw HTTP/1.1 targets for the load client's conformance suite (issue 18): each one does one
// thing real servers do (close after N requests, answer 103 before 200, stream a 1 GB body, ...)
// on a plain TCP socket, and counts what it received and answered: the truth a run is checked
// against.
import net from 'node:net'

export interface ConformanceTarget {
  url: string
  /** Requests received (whole request heads). */
  received: number
  /** Final responses written whole. */
  answered: number
  /** Connections accepted. */
  sockets: number
  /** Connections that carried a request (wrk, for one, opens one without a request first). */
  served: number
  /** Reset the counts (between a Cannonade run and a wrk run on the same target). */
  zero(): void
  close(): Promise<void>
}

/** What a behaviour does with one request: `nth` counts the requests of its socket from 1. */
export type Answer = (socket: net.Socket, nth: number, request: string, t: ConformanceTarget) => void

/** Write `bytes`, counting one answered response once they left (the server wrote them whole). */
export function reply(
  socket: net.Socket,
  t: ConformanceTarget,
  bytes: string | Buffer,
  after?: () => void,
): void {
  if (socket.destroyed) return
  socket.write(bytes, (err) => {
    if (err) return
    t.answered++
    after?.()
  })
}

/**
 * Serve `answer` for every request on 127.0.0.1. Requests are read by their blank line (the load
 * client's requests here carry no body). `halfOpen`: the server's sockets stay readable after it
 * ends its side.
 */
export async function startConformanceTarget(answer: Answer, halfOpen = false): Promise<ConformanceTarget> {
  const sockets = new Set<net.Socket>()
  const t: ConformanceTarget = {
    url: '',
    received: 0,
    answered: 0,
    sockets: 0,
    served: 0,
    zero: () => {
      t.received = 0
      t.answered = 0
      t.sockets = 0
      t.served = 0
    },
    close: async () => {},
  }
  const server = net.createServer({ allowHalfOpen: halfOpen }, (socket) => {
    t.sockets++
    sockets.add(socket)
    socket.setNoDelay(true)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => {})
    let buf = ''
    let nth = 0
    socket.on('data', (chunk: Buffer) => {
      buf += chunk.toString('latin1')
      for (let end = buf.indexOf('\r\n\r\n'); end >= 0; end = buf.indexOf('\r\n\r\n')) {
        const request = buf.slice(0, end + 4)
        buf = buf.slice(end + 4)
        t.received++
        if (nth === 0) t.served++
        answer(socket, ++nth, request, t)
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`
  t.close = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy()
      server.close(() => resolve())
    })
  return t
}

export const OK = 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok'

/** Write `bytes` one byte per event-loop turn (every split a reader can meet), then count it answered. */
export function bytewise(socket: net.Socket, t: ConformanceTarget, bytes: string, done?: () => void): void {
  let i = 0
  const next = () => {
    if (socket.destroyed) return
    if (i === bytes.length - 1) return reply(socket, t, bytes.slice(i), done)
    socket.write(bytes[i++]!, 'latin1')
    setImmediate(next)
  }
  next()
}

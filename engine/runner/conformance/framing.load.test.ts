// The load client reading responses framed as RFC 9112 says (issue 18, Musts 2 and 3): 1xx before
// the final answer, bodies a HEAD, 204 or 304 does not send, a body ending at close, chunked with
// extensions and trailers, Transfer-Encoding with Content-Length, bare LF, an unsolicited extra
// response, a 1 GB body, and responses and header blocks split anywhere. No timeouts that did not
// happen, no response taken for the answer to a request sent after it, the right error kinds.
// Where wrk is installed, it counts the same target as a reference (engine/testing/conformance.ts). Connections the
// server ends: connections.load.test.ts; docs/http-conformance.md is the table.
import type net from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { minLatencyUs } from '../../testing/run-config.ts'
import { errorsBut, expectAnswered, expectWrkCount, hasWrk, run, wrk } from '../../testing/conformance.ts'
import {
  bytewise,
  OK,
  reply,
  startConformanceTarget,
  type Answer,
  type ConformanceTarget,
} from './targets.ts'

let target: ConformanceTarget | null = null
afterEach(async () => {
  await target?.close()
  target = null
})

describe('responses framed as RFC 9112 says (Must 2)', () => {
  it('103 Early Hints and 100 Continue before a 200 sent 20 ms later: latency ends at the 200', async () => {
    const answer: Answer = (socket, _nth, _req, t) => {
      socket.write(
        'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </s.css>; rel=preload\r\n\r\n',
      )
      setTimeout(() => reply(socket, t, OK), 20)
    }
    target = await startConformanceTarget(answer)
    const { r, run: done } = await run(target.url)
    expect(errorsBut(r)).toEqual({})
    expectAnswered(r, target)
    expect(minLatencyUs(done)).toBeGreaterThanOrEqual(19_000)
    // 2 connections, ≥ 20 ms each: at most ~100 in 1 s (taken as final, the 103 gave thousands).
    expect(r.ok).toBeLessThanOrEqual(110)
  })

  it('HEAD: the Content-Length of the body not sent is no reason to wait', async () => {
    target = await startConformanceTarget((socket, _n, _r, t) =>
      reply(socket, t, 'HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n'),
    )
    const { r } = await run(target.url, {}, 'HEAD')
    expect(errorsBut(r)).toEqual({})
    expectAnswered(r, target)
  })

  it('204 and 304 with a Content-Length: no body, no timeout, both successes (200–399)', async () => {
    target = await startConformanceTarget((socket, nth, _r, t) =>
      reply(
        socket,
        t,
        `HTTP/1.1 ${nth % 2 ? '204 No Content' : '304 Not Modified'}\r\nContent-Length: 7\r\n\r\n`,
      ),
    )
    const { r } = await run(target.url)
    expect(errorsBut(r)).toEqual({})
    expectAnswered(r, target)
    expect(r.connect!.count).toBe(2)
  })

  it('HTTP/1.0 with the body ending at close: a success, the connection reopened', async () => {
    target = await startConformanceTarget((socket, _n, _r, t) =>
      reply(socket, t, 'HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\nbody until close', () =>
        socket.end(),
      ),
    )
    const { r } = await run(target.url)
    expect(errorsBut(r)).toEqual({})
    expectAnswered(r, target)
    if (!hasWrk) return console.log('wrk is not installed: its reference count is not taken')
    const w = await wrk(target)
    // wrk counts each answer and also a read error for the close that ends its body (its way: the
    // server's count is the truth both are held to).
    expect(w.errors).toBe(true)
    expectWrkCount(w.requests, target.answered)
  })

  it('chunked with extensions and trailers', async () => {
    const body = '4;a=1;b="x y"\r\nabcd\r\n2\r\nef\r\n0\r\nX-Trailer: 1\r\nY-Trailer: 2\r\n\r\n'
    target = await startConformanceTarget((socket, _n, _r, t) =>
      reply(socket, t, `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nTrailer: X-Trailer\r\n\r\n${body}`),
    )
    const { r } = await run(target.url)
    expect(errorsBut(r)).toEqual({})
    expectAnswered(r, target)
    expect(target.sockets).toBe(2)
  })

  it('Transfer-Encoding with Content-Length: chunked wins, the connection is not reused', async () => {
    target = await startConformanceTarget((socket, _n, _r, t) =>
      reply(
        socket,
        t,
        'HTTP/1.1 200 OK\r\nContent-Length: 100\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n',
      ),
    )
    const { r } = await run(target.url)
    expect(errorsBut(r)).toEqual({})
    expectAnswered(r, target)
    expect(target.sockets).toBeGreaterThanOrEqual(r.ok)
  })

  it('bare LF line endings', async () => {
    target = await startConformanceTarget((socket, _n, _r, t) =>
      reply(socket, t, 'HTTP/1.1 200 OK\nContent-Length: 2\nX-A: b\n\nok'),
    )
    const { r } = await run(target.url)
    expect(errorsBut(r)).toEqual({})
    expectAnswered(r, target)
  })

  it('an unsolicited extra response is a parse error, never the answer to the next request', async () => {
    target = await startConformanceTarget((socket, _n, _r, t) => reply(socket, t, OK + OK))
    const { r } = await run(target.url)
    expect(errorsBut(r, 'parse')).toEqual({})
    expect(r.errors.parse ?? 0).toBeGreaterThan(0)
    // Every success answers a request the server received (taken as answers, the extra ones gave 2×).
    expect(r.ok).toBeGreaterThan(0)
    expect(r.ok).toBeLessThanOrEqual(target.received)
  })

  it("a 1 GB body is counted as it streams, the runner's memory flat", async () => {
    const GB = 1024 ** 3
    const piece = Buffer.alloc(1024 * 1024, 120)
    target = await startConformanceTarget((socket, nth, _r, t) => {
      if (nth > 1) return reply(socket, t, OK)
      socket.write(`HTTP/1.1 200 OK\r\nContent-Length: ${GB}\r\n\r\n`)
      let left = GB / piece.length
      const pump = () => {
        while (left > 0 && !socket.destroyed) {
          left--
          if (left === 0) return reply(socket, t, piece)
          if (!socket.write(piece)) return socket.once('drain', pump)
        }
      }
      pump()
    })
    const { r, run: done } = await run(target.url, { connections: 1, duration: 3, timeoutMs: 60_000 })
    expect(done.summary.status).not.toBe('failed')
    expect(errorsBut(r)).toEqual({})
    const rss = done.db
      .prepare("SELECT max(memory_bytes) FROM resource_samples WHERE run_id = ? AND source = 'generator'")
      .pluck()
      .get(done.summary.runId) as number | null
    if (rss !== null) expect(rss).toBeLessThan(400 * 1024 * 1024)
    const big = done.db
      .prepare('SELECT max(bytes) FROM samples WHERE run_id = ?')
      .pluck()
      .get(done.summary.runId) as number | null
    // The streamed body either came whole within the window (counted to the byte) or was in flight.
    if (target.answered > 0 && (r.errors.inflight ?? 0) === 0) expect(big).toBeGreaterThan(GB)
  })
})

describe('responses split anywhere (Must 3)', () => {
  it('pipelined responses written one byte at a time', async () => {
    const queue = new WeakMap<net.Socket, Promise<void>>()
    target = await startConformanceTarget((socket, _n, _r, t) => {
      const prev = queue.get(socket) ?? Promise.resolve()
      queue.set(
        socket,
        prev.then(() => new Promise<void>((done) => bytewise(socket, t, OK, done))),
      )
    })
    const { r } = await run(target.url, { pipelining: 4 })
    expect(errorsBut(r)).toEqual({})
    expectAnswered(r, target)
  })

  it('a header block split across packets, and one of 100 KB', async () => {
    const filler = Array.from({ length: 100 }, (_, i) => `X-Fill-${i}: ${'f'.repeat(1020)}\r\n`).join('')
    target = await startConformanceTarget((socket, nth, _r, t) => {
      if (nth % 2) return reply(socket, t, `HTTP/1.1 200 OK\r\n${filler}Content-Length: 2\r\n\r\nok`)
      socket.write('HTTP/1.1 200 OK\r\nContent-')
      setTimeout(() => socket.write('Length: 2\r\n'), 2)
      setTimeout(() => reply(socket, t, '\r\nok'), 4)
    })
    const { r } = await run(target.url)
    expect(errorsBut(r)).toEqual({})
    expectAnswered(r, target)
  })
})

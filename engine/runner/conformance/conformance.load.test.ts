// The load client against any HTTP/1.1 server (issue 18, Musts 1–3): one raw target per behaviour
// of real servers, each counting what it received and answered, and a short run against it. What
// Cannonade reports must agree with the server's own counts: every response the server wrote is a
// success (or still in flight when the window closed), no timeouts that did not happen, no
// response taken for the answer to a request sent after it, and the right error kinds. Where wrk is
// installed, it runs against the same target as a reference. docs/http-conformance.md is the table.
import { execFileSync, spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import http from 'node:http'
import net from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import type { TargetRoundSummary } from '../../api/types.ts'
import { runConfig, type TestRun } from '../../testing/run.ts'
import {
  bytewise,
  OK,
  reply,
  startConformanceTarget,
  type Answer,
  type ConformanceTarget,
} from './targets.ts'

let target: ConformanceTarget | null = null
let nodeServer: http.Server | null = null
afterEach(async () => {
  await target?.close()
  target = null
  await new Promise<void>((resolve) => (nodeServer ? nodeServer.close(() => resolve()) : resolve()))
  nodeServer = null
})

async function run(
  url: string,
  load: Record<string, unknown> = {},
  method = 'GET',
): Promise<{ r: TargetRoundSummary; run: TestRun }> {
  const result = await runConfig({
    version: 1,
    name: 'conformance',
    targets: [{ name: 't', url: `${url}/x`, method }],
    load: { connections: 2, duration: 1, timeoutMs: 5_000, ...load },
    cooldownSeconds: 0,
  })
  return { r: result.summary.results[0]!, run: result }
}

const errorsBut = (r: TargetRoundSummary, ...allowed: string[]) =>
  Object.fromEntries(
    Object.entries(r.errors).filter(([k, n]) => k !== 'inflight' && !allowed.includes(k) && n),
  )

/** Every response the server wrote whole was a success or was in flight when the window closed. */
function expectAnswered(r: TargetRoundSummary, t: ConformanceTarget, counted = r.ok): void {
  expect(counted).toBeGreaterThan(0)
  expect(counted).toBeLessThanOrEqual(t.answered)
  expect(t.answered).toBeLessThanOrEqual(counted + (r.errors.inflight ?? 0))
}

function minLatencyUs(run: TestRun): number {
  return run.db
    .prepare('SELECT min(latency_us) FROM samples WHERE run_id = ? AND status > 0')
    .pluck()
    .get(run.summary.runId) as number
}

const hasWrk = spawnSync('wrk', ['--version']).error === undefined

/** wrk's count of responses (and of errors) on `t`, for 1 s on 2 connections. */
/** wrk's -c: at the end of its window up to this many requests are answered but not counted by wrk. */
const WRK_CONNECTIONS = 2

/** wrk's count against the server's: equal, but for the requests in flight when wrk stopped. */
function expectWrkCount(counted: number, answered: number): void {
  expect(counted).toBeLessThanOrEqual(answered)
  expect(answered - counted).toBeLessThanOrEqual(WRK_CONNECTIONS)
}

function wrk(t: ConformanceTarget | { url: string; zero(): void }): { requests: number; errors: boolean } {
  t.zero()
  const out = execFileSync('wrk', ['-t1', `-c${WRK_CONNECTIONS}`, '-d1s', '--timeout', '5s', `${t.url}/x`], {
    encoding: 'utf8',
    timeout: 15_000,
  })
  return {
    requests: Number(/(\d+) requests in/.exec(out)?.[1] ?? -1),
    errors: /Socket errors|Non-2xx/.test(out),
  }
}

/** nginx with its default keep-alive settings, logging each request; null when not installed. */
async function startDefaultNginx(): Promise<{
  url: string
  logged(): number
  zero(): void
  stop(): void
} | null> {
  if (spawnSync('nginx', ['-v']).error !== undefined) return null
  const dir = mkdtempSync(join(tmpdir(), 'cannonade-nginx-'))
  const probe = net.createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const port = (probe.address() as net.AddressInfo).port
  await new Promise<void>((resolve) => probe.close(() => resolve()))
  writeFileSync(
    join(dir, 'nginx.conf'),
    `daemon off; worker_processes 1; pid ${dir}/nginx.pid; error_log ${dir}/error.log warn;
events { worker_connections 256; }
http { access_log ${dir}/access.log;
  client_body_temp_path ${dir}; proxy_temp_path ${dir}; fastcgi_temp_path ${dir}; uwsgi_temp_path ${dir}; scgi_temp_path ${dir};
  server { listen 127.0.0.1:${port}; location / { return 200 'ok'; } } }
`,
  )
  const child = spawn('nginx', ['-c', join(dir, 'nginx.conf'), '-p', dir], { stdio: 'ignore' })
  const url = `http://127.0.0.1:${port}`
  for (let i = 0; i < 50; i++) {
    const up = await fetch(url).then(
      (res) => res.ok,
      () => false,
    )
    if (up) {
      const zero = () => writeFileSync(join(dir, 'access.log'), '')
      zero()
      return {
        url,
        zero,
        logged: () => readFileSync(join(dir, 'access.log'), 'utf8').split('\n').filter(Boolean).length,
        stop: () => child.kill('SIGTERM'),
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  child.kill('SIGKILL')
  return null
}

describe('connections the server ends (Must 1)', () => {
  it('nginx-like keepalive_requests: Connection: close after every 10th response, 0 errors', async () => {
    const answer: Answer = (socket, nth, _req, t) => {
      if (nth % 10 !== 0) return reply(socket, t, OK)
      reply(socket, t, 'HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok', () =>
        socket.end(),
      )
    }
    target = await startConformanceTarget(answer)
    const { r, run: done } = await run(target.url)
    expect(errorsBut(r)).toEqual({})
    expectAnswered(r, target)
    // Each socket served its 10 requests: the connection reopened and the schedule went on.
    expect(target.sockets).toBeGreaterThanOrEqual(Math.floor(r.ok / 10))
    // Every connection timed, but those opened as the window ended (at most one per connection),
    // which the server accepted before the client had counted them.
    expect(r.connect!.count).toBeLessThanOrEqual(target.sockets)
    expect(target.sockets - r.connect!.count).toBeLessThanOrEqual(2)
    expect(minLatencyUs(done)).toBeGreaterThan(0)
    if (!hasWrk) return console.log('wrk is not installed: its reference count is not taken')
    const w = wrk(target)
    expect(w.errors).toBe(false)
    expectWrkCount(w.requests, target.answered)
  })

  it('Node.js http with maxRequestsPerSocket = 100: no 503, no errors, every answer counted', async () => {
    let answered = 0
    nodeServer = http.createServer((_req, res) => {
      res.on('finish', () => answered++)
      res.end('ok')
    })
    nodeServer.maxRequestsPerSocket = 100
    await new Promise<void>((resolve) => nodeServer!.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(nodeServer.address() as net.AddressInfo).port}`
    const { r } = await run(url)
    expect(errorsBut(r)).toEqual({})
    expect(r.ok).toBeGreaterThan(100)
    expect(r.ok).toBeLessThanOrEqual(answered)
    expect(answered).toBeLessThanOrEqual(r.ok + (r.errors.inflight ?? 0))
  })

  it('nginx at its defaults (keepalive_requests 1000): 0 errors, every request in its access log counted', async (ctx) => {
    const nginx = await startDefaultNginx()
    if (!nginx)
      return ctx.skip('nginx is not installed (apt-get install nginx-light): the real-server case is not run')
    try {
      const { r } = await run(nginx.url)
      await new Promise((resolve) => setTimeout(resolve, 200))
      const logged = nginx.logged()
      expect(errorsBut(r)).toEqual({})
      expect(r.ok).toBeGreaterThan(1000)
      expect(r.ok).toBeLessThanOrEqual(logged)
      expect(logged).toBeLessThanOrEqual(r.ok + (r.errors.inflight ?? 0))
      expect(r.connect!.count).toBeGreaterThanOrEqual(Math.floor(r.ok / 1000))
      if (!hasWrk) return console.log('wrk is not installed: its reference count is not taken')
      const w = wrk(nginx)
      await new Promise((resolve) => setTimeout(resolve, 200))
      expect(w.errors).toBe(false)
      expectWrkCount(w.requests, nginx.logged())
    } finally {
      nginx.stop()
    }
  })

  it('pipelined requests behind a Connection: close answer are `closed`, never retried nor `reset`', async () => {
    const answer: Answer = (socket, nth, _req, t) => {
      if (nth < 10) return reply(socket, t, OK)
      if (nth === 10)
        reply(socket, t, 'HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok', () =>
          socket.end(),
        )
    }
    target = await startConformanceTarget(answer)
    const { r } = await run(target.url, { pipelining: 4 })
    expect(errorsBut(r, 'closed')).toEqual({})
    expectAnswered(r, target)
    // At most the 3 requests pipelined behind each closing answer; each was sent once.
    expect(r.errors.closed ?? 0).toBeLessThanOrEqual(3 * target.sockets)
    // What the client counts, the server received, but for the requests it never read: those behind
    // a closing answer (at most 3 a socket) and those written as the window ended (2 × 4 pipelined).
    const unread = 3 * target.sockets + 2 * 4
    expect(r.ok + (r.errors.closed ?? 0) + (r.errors.inflight ?? 0)).toBeLessThanOrEqual(
      target.received + unread,
    )
  })

  it('a keep-alive socket the server closes while idle reopens before it is used', async () => {
    const IDLE_MS = 60
    const idle = new WeakMap<net.Socket, NodeJS.Timeout>()
    const answer: Answer = (socket, _nth, _req, t) => {
      clearTimeout(idle.get(socket))
      reply(socket, t, OK, () =>
        idle.set(
          socket,
          setTimeout(() => socket.end(), IDLE_MS),
        ),
      )
    }
    target = await startConformanceTarget(answer)
    // 5 requests/s on 2 connections: each waits ~400 ms between requests, well past the server's 60 ms
    // (a loaded machine may fire its timer late: at 200 ms apart the close sometimes came second).
    const { r } = await run(target.url, { rate: 5, duration: 3 })
    expect(errorsBut(r)).toEqual({})
    expectAnswered(r, target)
    expect(target.sockets).toBeGreaterThan(r.ok / 2)
  })

  it('a server that half-closes after 5 answers: requests it will not answer are `closed`, never `reset`', async () => {
    const answer: Answer = (socket, nth, _req, t) => {
      if (nth <= 5) reply(socket, t, OK, () => nth === 5 && socket.end())
    }
    target = await startConformanceTarget(answer, true)
    const { r } = await run(target.url)
    expect(errorsBut(r, 'closed')).toEqual({})
    expectAnswered(r, target)
    // At most the one request written on each socket as its server ended it.
    expect(r.errors.closed ?? 0).toBeLessThanOrEqual(target.sockets)
  })
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

  it('204 and 304 with a Content-Length: no body, no timeout (304 counted as non-2xx)', async () => {
    target = await startConformanceTarget((socket, nth, _r, t) =>
      reply(
        socket,
        t,
        `HTTP/1.1 ${nth % 2 ? '204 No Content' : '304 Not Modified'}\r\nContent-Length: 7\r\n\r\n`,
      ),
    )
    const { r } = await run(target.url)
    expect(errorsBut(r, 'non2xx')).toEqual({})
    expectAnswered(r, target, r.ok + (r.errors.non2xx ?? 0))
    expect(Math.abs(r.ok - (r.errors.non2xx ?? 0))).toBeLessThanOrEqual(2)
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
    const w = wrk(target)
    expect(w.errors).toBe(false)
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

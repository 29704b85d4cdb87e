// The load client against servers that end its connections (issue 18, Must 1): Connection: close
// after every Nth response (a raw target, Node's maxRequestsPerSocket, a real nginx at its
// defaults), requests pipelined behind a closing answer, an idle keep-alive socket closed, and a
// half-close. Every answer the server wrote is counted, the connection reopens and the schedule
// goes on; requests the server will not answer are `closed`, never retried nor `reset`. Where wrk
// is installed, it counts the same target as a reference (engine/testing/conformance.ts). The framing of responses:
// framing.load.test.ts; docs/http-conformance.md is the table.
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import http from 'node:http'
import net from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { waitUntil } from '../../testing/process.ts'
import { minLatencyUs } from '../../testing/run-config.ts'
import { errorsBut, expectAnswered, expectWrkCount, hasWrk, run, wrk } from '../../testing/conformance.ts'
import { OK, reply, startConformanceTarget, type Answer, type ConformanceTarget } from './targets.ts'

let target: ConformanceTarget | null = null
let nodeServer: http.Server | null = null
afterEach(async () => {
  await target?.close()
  target = null
  await new Promise<void>((resolve) => (nodeServer ? nodeServer.close(() => resolve()) : resolve()))
  nodeServer = null
})

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
    const w = await wrk(target)
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
      // nginx writes a request's log line as it ends it: every answer counted is logged soon after.
      const logged = await waitUntil(
        () => nginx.logged() >= r.ok && nginx.logged(),
        10_000,
        'nginx to log the answers counted',
      )
      expect(errorsBut(r)).toEqual({})
      expect(r.ok).toBeGreaterThan(1000)
      expect(r.ok).toBeLessThanOrEqual(logged)
      expect(logged).toBeLessThanOrEqual(r.ok + (r.errors.inflight ?? 0))
      expect(r.connect!.count).toBeGreaterThanOrEqual(Math.floor(r.ok / 1000))
      if (!hasWrk) return console.log('wrk is not installed: its reference count is not taken')
      const w = await wrk(nginx)
      await waitUntil(() => nginx.logged() >= w.requests, 10_000, "nginx to log wrk's answers")
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

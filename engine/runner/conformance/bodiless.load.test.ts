// Answers without a body keep their connection (issue 28, Must 1): a 204, a 304 or any answer to
// HEAD ends at its header block whatever its framing fields say (RFC 9112 §6.3), with or without
// Content-Length, so 2 connections stay 2 for the whole run. Raw targets, a Node.js server, and
// nginx's own 304 to a conditional GET; the connections opened (the summary's `connect.count`) are
// held to the server's own count, and wrk, where installed, runs on the same target as a reference.
// A keep-alive run that does reopen a connection per request says so in its warnings.
import { writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { afterEach, describe, expect, it } from 'vitest'
import type { TargetRoundSummary } from '../../api/types.ts'
import { runConfig } from '../../testing/run-config.ts'
import { nginx304, node204, nodeOk, type RealServer } from '../../testing/servers.ts'
import { errorsBut, hasWrk, run } from '../../testing/conformance.ts'
import { reply, startConformanceTarget, type ConformanceTarget } from './targets.ts'

let target: ConformanceTarget | null = null
let server: RealServer | null = null
afterEach(async () => {
  await target?.close()
  await server?.stop()
  target = null
  server = null
})

/** 1 s on 2 connections of `method url` with `headers`: the target's round and the run's warnings. */
async function runOn(url: string, method = 'GET', headers: Record<string, string> = {}) {
  const { summary } = await runConfig({
    version: 1,
    name: 'bodiless',
    targets: [{ name: 't', url, method, headers }],
    load: { connections: 2, duration: 1, timeoutMs: 5_000 },
    cooldownSeconds: 0,
  })
  return { r: summary.results[0]!, warnings: summary.warnings }
}

/**
 * wrk for 1 s on 2 connections, `method` through a script when it is not GET: its request count. Not
 * a synchronous child: the raw targets answer from this process, whose event loop must go on.
 */
async function wrkCount(url: string, method = 'GET', headers: Record<string, string> = {}): Promise<number> {
  const args = ['-t1', '-c2', '-d1s', '--timeout', '5s']
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}: ${v}`)
  if (method !== 'GET') {
    const script = join(tmpdir(), `cannonade-wrk-${method}.lua`)
    writeFileSync(script, `wrk.method = "${method}"\n`)
    args.push('-s', script)
  }
  const { stdout: out } = await promisify(execFile)('wrk', [...args, url], {
    encoding: 'utf8',
    timeout: 15_000,
  })
  expect(out).not.toMatch(/Socket errors|Non-2xx/)
  return Number(/(\d+) requests in/.exec(out)?.[1] ?? -1)
}

/** Every answer a success, 2 connections opened for the whole run, as the server counted them. */
function expectKept(r: TargetRoundSummary, answered: number, sockets: number): void {
  expect(errorsBut(r)).toEqual({})
  expect(r.ok).toBeGreaterThan(100)
  expect(r.ok).toBeLessThanOrEqual(answered)
  expect(answered).toBeLessThanOrEqual(r.ok + (r.errors.inflight ?? 0))
  expect(r.connect!.count).toBe(2)
  expect(sockets).toBe(2)
}

describe('answers without a body keep their connection (Must 1)', () => {
  for (const [what, head, method] of [
    ['204 without Content-Length', 'HTTP/1.1 204 No Content\r\nServer: raw\r\n\r\n', 'GET'],
    ['204 with Content-Length', 'HTTP/1.1 204 No Content\r\nContent-Length: 7\r\n\r\n', 'GET'],
    ['304 without Content-Length', 'HTTP/1.1 304 Not Modified\r\nETag: "v1"\r\n\r\n', 'GET'],
    ['304 with Content-Length', 'HTTP/1.1 304 Not Modified\r\nContent-Length: 9\r\n\r\n', 'GET'],
    ['HEAD, 200 without Content-Length', 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n', 'HEAD'],
    [
      'HEAD, 200 with Transfer-Encoding: chunked',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n',
      'HEAD',
    ],
  ] as const) {
    it(`a raw target: ${what}`, async () => {
      target = await startConformanceTarget((socket, _n, _r, t) => reply(socket, t, head))
      const { r } = await run(target.url, {}, method)
      expectKept(r, target.answered, target.served)
      if (!hasWrk) return console.log('wrk is not installed: its reference count is not taken')
      target.zero()
      const counted = await wrkCount(`${target.url}/x`, method)
      expect(target.served).toBe(2)
      expect(target.answered - counted).toBeLessThanOrEqual(2)
    })
  }

  it('a Node.js server answering 204 (it sends no Content-Length)', async () => {
    server = await node204()
    const { r, warnings } = await runOn(server.url)
    const c = await server.count()
    expect(c.statuses).toEqual({ 204: c.requests })
    expectKept(r, c.requests, c.connections)
    expect(warnings).toEqual([])
    if (!hasWrk) return console.log('wrk is not installed: its reference count is not taken')
    server.zero()
    const counted = await wrkCount(server.url)
    const w = await server.count()
    expect(w.connections).toBe(2)
    expect(w.requests - counted).toBeLessThanOrEqual(2)
  })

  it('HEAD against a Node.js server at its defaults', async () => {
    server = await nodeOk()
    const { r } = await runOn(server.url, 'HEAD')
    const c = await server.count()
    expectKept(r, c.requests, c.connections)
  })

  it("nginx's 304 to a conditional GET (If-None-Match with the file's ETag)", async (ctx) => {
    const n = await nginx304()
    if (!n)
      return ctx.skip('nginx is not installed (apt-get install nginx-light): the real-server case is not run')
    server = n.server
    const headers = { 'If-None-Match': n.etag }
    const { r, warnings } = await runOn(server.url, 'GET', headers)
    const c = await server.count()
    expect(c.statuses).toEqual({ 304: c.requests })
    expect(errorsBut(r)).toEqual({})
    expect(r.statusClasses['3xx']).toBe(r.ok)
    expect(r.ok).toBeGreaterThan(1000)
    expect(r.ok).toBeLessThanOrEqual(c.requests)
    expect(c.requests).toBeLessThanOrEqual(r.ok + (r.errors.inflight ?? 0))
    // nginx ends a connection after its 1000th request (keepalive_requests), 304s as any answer:
    // a connection per 1000 requests, as nginx itself counted them (it was one per request).
    expect(r.connect!.count).toBe(c.connections)
    expect(r.connect!.count).toBeLessThanOrEqual(Math.ceil(c.requests / 1000) + 2)
    expect(warnings).toEqual([])
    if (!hasWrk) return console.log('wrk is not installed: its reference count is not taken')
    server.zero()
    const counted = await wrkCount(server.url, 'GET', headers)
    const w = await server.count()
    expect(w.connections).toBeLessThanOrEqual(Math.ceil(w.requests / 1000) + 2)
    expect(w.requests - counted).toBeLessThanOrEqual(2)
  })

  it('a keep-alive run that opens a connection per request says so in its warnings', async () => {
    target = await startConformanceTarget((socket, _n, _r, t) =>
      reply(socket, t, 'HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok', () =>
        socket.end(),
      ),
    )
    const { r, warnings } = await runOn(`${target.url}/x`)
    expect(errorsBut(r)).toEqual({})
    expect(r.connect!.count).toBeGreaterThan(r.requests / 2)
    expect(warnings.map((w) => [w.kind, w.field, w.target])).toEqual([['connections', 'targets.0', 't']])
    expect(warnings[0]!.message).toContain(
      `opened ${r.connect!.count.toLocaleString('en-US')} connections for`,
    )
  })
})

// What the wire shows. Issue 11 item 11: a connection's TCP connect and TLS handshake are timed
// apart from request latency (as wrk and k6 report them). Issue 12 item 12: a response that
// breaks HTTP/1.1 is a 'parse' error at once, not a timeout after timeoutMs nor a success.
import { afterEach, describe, expect, it } from 'vitest'
import { startRawTarget, type RawTarget } from '../testing/raw-http.ts'
import { runConfig } from '../testing/run-config.ts'
import { selfSigned } from '../testing/tls.ts'

let target: RawTarget | null = null
afterEach(async () => {
  await target?.close()
  target = null
})

const config = (url: string, load: Record<string, unknown>, insecure = false) => ({
  version: 1,
  name: 'wire',
  targets: [{ name: 't', url: `${url}/x`, insecure }],
  load,
  cooldownSeconds: 0,
})

describe('connect time', () => {
  const HANDSHAKE_MS = 100

  it('keep-alive off: every request pays a held-back TLS handshake, timed apart from its latency', async () => {
    target = await startRawTarget({ tls: { ...selfSigned(), handshakeDelayMs: HANDSHAKE_MS } })
    const { summary } = await runConfig(
      config(target.url, { connections: 2, duration: 2, keepAlive: false }, true),
    )
    const r = summary.results[0]!
    const connect = r.connect!
    expect(r.ok).toBeGreaterThan(5)
    // One connection per request; those still connecting when the window closed were not timed.
    expect(connect.count).toBeLessThanOrEqual(target.sockets)
    expect(connect.count).toBeGreaterThanOrEqual(target.sockets - 2)
    expect(connect.count).toBeGreaterThanOrEqual(r.ok)
    // Truth: the target began each handshake 100 ms after accepting, then answered at once.
    expect(connect.min).toBeGreaterThanOrEqual(HANDSHAKE_MS * 1000)
    // Were connect time inside latency, every request would take ≥ 100 ms.
    expect(r.latency.p50).toBeLessThan(HANDSHAKE_MS * 1000)
  })

  it('keep-alive on: the first request of a connection does not carry its connect time', async () => {
    target = await startRawTarget({ tls: { ...selfSigned(), handshakeDelayMs: 3 * HANDSHAKE_MS } })
    const run = await runConfig(config(target.url, { connections: 2, duration: 1 }, true))
    const r = run.summary.results[0]!
    expect(r.connect!.count).toBe(2)
    expect(target.sockets).toBe(2)
    expect(r.connect!.min).toBeGreaterThanOrEqual(3 * HANDSHAKE_MS * 1000)
    // The first request of each connection (sequence 0 and 1), answered at once once connected.
    const first = run.db
      .prepare('SELECT latency_us FROM samples WHERE run_id = ? AND seq < 2')
      .pluck()
      .all(run.summary.runId) as number[]
    expect(first.length).toBe(2)
    for (const us of first) expect(us).toBeLessThan(3 * HANDSHAKE_MS * 1000)
  })

  it('plain TCP with keep-alive off: one connect time per request sent', async () => {
    target = await startRawTarget()
    const { summary } = await runConfig(config(target.url, { connections: 2, duration: 1, keepAlive: false }))
    const r = summary.results[0]!
    const sent = r.requests + (r.errors.inflight ?? 0)
    expect(r.ok).toBeGreaterThan(20)
    expect(Math.abs(r.connect!.count - sent)).toBeLessThanOrEqual(2)
    // A socket per request; the last ones may have opened as the window closed, with nothing sent.
    expect(target.sockets - target.arrivals.length).toBeGreaterThanOrEqual(0)
    expect(target.sockets - target.arrivals.length).toBeLessThanOrEqual(2)
  })
})

describe('responses that break HTTP/1.1', () => {
  const cases: [string, string][] = [
    ['a status line with letters for the code', 'HTTP/1.1 abc OK\r\nContent-Length: 2\r\n\r\nok'],
    ['a status line without a protocol', '200 OK\r\nContent-Length: 2\r\n\r\nok'],
    ['a protocol that is not HTTP', 'HTTX/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok'],
    ['a Content-Length that is not a number', 'HTTP/1.1 200 OK\r\nContent-Length: abc\r\n\r\nok'],
    ['a negative Content-Length', 'HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\nok'],
    ['a Content-Length in exponent notation', 'HTTP/1.1 200 OK\r\nContent-Length: 2e0\r\n\r\nok'],
    ['two different Content-Lengths', 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\nok'],
    ['a Content-Length list', 'HTTP/1.1 200 OK\r\nContent-Length: 2, 2\r\n\r\nok'],
    [
      'a chunk size that is not hexadecimal',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nok\r\n0\r\n\r\n',
    ],
  ]
  for (const [name, response] of cases) {
    it(`${name}: a parse error at once, the connection reset`, async () => {
      target = await startRawTarget({ response })
      // timeoutMs is 10 × the window: a request left to time out would end as in flight.
      const { summary } = await runConfig(
        config(target.url, { connections: 2, duration: 1, timeoutMs: 10_000 }),
      )
      const r = summary.results[0]!
      const parse = r.errors.parse ?? 0
      expect(r.ok).toBe(0)
      expect(r.errors.timeout).toBeUndefined()
      // Each request failed as soon as its answer came and the next went on a new connection.
      expect(parse).toBeGreaterThan(10)
      // The server saw each of them; those in flight at the end (on a socket still connecting) perhaps not.
      expect(target.arrivals.length).toBeGreaterThanOrEqual(parse)
      expect(target.arrivals.length).toBeLessThanOrEqual(parse + (r.errors.inflight ?? 0))
      expect(target.sockets).toBeGreaterThanOrEqual(parse)
    })
  }

  it('a well-formed chunked response is a success (the control case)', async () => {
    target = await startRawTarget({
      response: 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2;x=y\r\nok\r\n0\r\n\r\n',
    })
    const { summary } = await runConfig(config(target.url, { connections: 2, duration: 1 }))
    const r = summary.results[0]!
    expect(r.ok).toBeGreaterThan(100)
    expect(r.errors.parse).toBeUndefined()
    expect(target.sockets).toBe(2)
  })
})

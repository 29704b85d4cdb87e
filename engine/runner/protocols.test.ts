// https targets (verified by default, self-signed accepted only when asked), request-count runs,
// pipelining, and POST bodies.
import { afterEach, describe, expect, it } from 'vitest'
import { startTarget, type CountingTarget } from '../testing/target.ts'
import { ledgerIds, runConfig } from '../testing/run-config.ts'
import { selfSigned } from '../testing/tls.ts'

let target: CountingTarget | null = null
afterEach(async () => {
  await target?.close()
  target = null
})

const cfg = (url: string, load: Record<string, unknown>, target: Record<string, unknown> = {}) => ({
  version: 1,
  name: 'protocols',
  targets: [{ name: 't', url, ...target }],
  load,
  cooldownSeconds: 0,
})

describe('targets and load modes', () => {
  it('https: a self-signed certificate fails as a tls error unless insecure is set', async () => {
    target = await startTarget({ tls: selfSigned() })
    const strict = await runConfig(cfg(`${target.url}/x`, { connections: 1, duration: 1 }))
    expect(strict.summary.results[0]!.ok).toBe(0)
    expect(strict.summary.results[0]!.errors.tls ?? 0).toBeGreaterThan(0)
    const lax = await runConfig(cfg(`${target.url}/x`, { connections: 2, duration: 1 }, { insecure: true }))
    expect(lax.summary.results[0]!.ok).toBeGreaterThan(10)
    expect(lax.summary.results[0]!.errors.tls).toBeUndefined()
  })

  it('a request-count run sends exactly that many requests and waits for every response', async () => {
    target = await startTarget({ delayMs: 1 })
    const { summary, db } = await runConfig(cfg(`${target.url}/x`, { connections: 3, requests: 500 }))
    expect(summary.status).toBe('done')
    expect(target.requests).toBe(500)
    const r = summary.results[0]!
    expect(r.requests).toBe(500)
    expect(r.ok).toBe(500)
    expect(r.errors.inflight).toBeUndefined()
    expect(ledgerIds(db, summary.runId, summary.correlationPrefix).length).toBe(500)
  })

  it('pipelining keeps that many requests in flight per connection and every id distinct', async () => {
    target = await startTarget({ delayMs: 5, sampleEveryMs: 10 })
    const { summary, db } = await runConfig(
      cfg(`${target.url}/x`, { connections: 2, duration: 2, pipelining: 4 }),
    )
    const ids = ledgerIds(db, summary.runId, summary.correlationPrefix)
    expect(new Set(ids).size).toBe(ids.length)
    expect([...target.ids].sort()).toEqual([...ids].sort())
    // Node's server answers pipelined requests one after another, but it reads them all.
    expect(summary.results[0]!.ok).toBeGreaterThan(50)
  })

  it('sends the method, headers and body of the target', async () => {
    let seen: { method?: string; body?: string; header?: string } = {}
    const http = await import('node:http')
    const server = http.createServer((req, res) => {
      let body = ''
      req.on('data', (c: Buffer) => (body += c.toString()))
      req.on('end', () => {
        seen = { method: req.method, body, header: req.headers['x-api-key'] as string }
        res.end('{}')
      })
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    const port = (server.address() as { port: number }).port
    const { summary } = await runConfig(
      cfg(
        `http://127.0.0.1:${port}/ads`,
        { connections: 1, requests: 5 },
        {
          method: 'POST',
          headers: { 'x-api-key': 'k1', 'content-type': 'application/json' },
          body: '{"title":"t"}',
        },
      ),
    )
    server.close()
    expect(summary.results[0]!.ok).toBe(5)
    expect(seen).toEqual({ method: 'POST', body: '{"title":"t"}', header: 'k1' })
  })
})

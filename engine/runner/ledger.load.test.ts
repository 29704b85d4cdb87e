// The ledger: every request's id in the ledger, and sockets reused.
import { afterEach, describe, expect, it } from 'vitest'
import { startTarget, type CountingTarget } from '../testing/target.ts'
import { ledgerIds, runConfig } from '../testing/run-config.ts'
import { ERROR_KINDS } from '../api/types.ts'

let target: CountingTarget | null = null
afterEach(async () => {
  await target?.close()
  target = null
})

const base = (url: string, load: Record<string, unknown>) => ({
  version: 1,
  name: 'ledger test',
  targets: [{ name: 't', url: `${url}/x` }],
  load,
  cooldownSeconds: 0,
})

describe('ledger', () => {
  it('stores exactly the ids the server received, unique, with in-flight requests kept as such', async () => {
    target = await startTarget({ delayMs: 2, serverTiming: true })
    const { summary, db } = await runConfig(base(target.url, { connections: 8, duration: 2 }))
    expect(summary.status).toBe('done')
    const ids = ledgerIds(db, summary.runId, summary.correlationPrefix)
    expect(ids.length).toBeGreaterThan(1000)
    expect(new Set(ids).size).toBe(ids.length)
    expect(new Set(target.ids).size).toBe(target.ids.length)
    expect([...target.ids].sort()).toEqual([...ids].sort())
    // The window closed with requests in flight: they are rows of kind 'inflight', not dropped.
    const inflight = db
      .prepare('SELECT count(*) FROM samples WHERE run_id = ? AND error = ?')
      .pluck()
      .get(summary.runId, ERROR_KINDS.indexOf('inflight')) as number
    expect(inflight).toBeGreaterThan(0)
    expect(inflight).toBeLessThanOrEqual(8)
    // Per-request fields: Server-Timing parsed into µs, status, bytes, a start inside the window.
    const row = db
      .prepare('SELECT * FROM samples WHERE run_id = ? AND error = 0 LIMIT 1')
      .get(summary.runId) as Record<string, number>
    expect(row.app_us).toBe(1500)
    expect(row.db_us).toBe(250)
    expect(row.status).toBe(200)
    expect(row.bytes).toBeGreaterThan(0)
    expect(row.latency_us).toBeGreaterThan(0)
    expect(row.start_us).toBeGreaterThanOrEqual(0)
    expect(row.start_us).toBeLessThan(3_000_000)
  })

  it('keeps a constant run on one socket per connection', async () => {
    target = await startTarget({ delayMs: 1 })
    const { summary } = await runConfig(base(target.url, { connections: 6, duration: 2 }))
    expect(summary.results[0]!.requests).toBeGreaterThan(500)
    expect(target.sockets).toBe(6)
  })

  it('reuses sockets across ramp steps and pauses (opened once, up to the peak)', async () => {
    target = await startTarget({ delayMs: 1 })
    const { summary } = await runConfig(
      base(target.url, {
        connections: 6,
        duration: 4,
        profile: { kind: 'ramp', from: 2, to: 6, stepSize: 2, stepSeconds: 1, pauseSeconds: 0.5 },
      }),
    )
    expect(summary.status).toBe('done')
    expect(target.sockets).toBe(6)
  })

  it('opens one socket per request with keep-alive off', async () => {
    target = await startTarget()
    const { summary, db } = await runConfig(
      base(target.url, { connections: 4, duration: 2, keepAlive: false }),
    )
    const rows = db
      .prepare('SELECT count(*) FROM samples WHERE run_id = ?')
      .pluck()
      .get(summary.runId) as number
    expect(rows).toBeGreaterThan(100)
    expect(Math.abs(target.sockets - rows)).toBeLessThanOrEqual(4)
    expect(target.requests).toBeGreaterThanOrEqual(rows - 4)
  })
})

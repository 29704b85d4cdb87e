// Series agree with samples (issue 12, item 8): whenever a run ends (a stop just after a whole
// second, or well into one, the end of a time window, a request-bound drain), the per-second
// series hold every request the ledger holds: the same requests and errors as the samples and
// the summary. A stop a few ms after a second's tick used to lose those few ms from the series.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ERROR_KINDS } from '../api/types.ts'
import { runConfig } from '../testing/run-config.ts'
import { startTarget, type CountingTarget } from '../testing/target.ts'

const INFLIGHT = ERROR_KINDS.indexOf('inflight')

let target: CountingTarget
beforeAll(async () => {
  target = await startTarget({ delayMs: 1 })
})
afterAll(async () => {
  await target.close()
})

const cases: {
  name: string
  load: Record<string, unknown>
  stopAfterTicks?: number
  stopDelayMs?: number
}[] = [
  {
    name: 'stopped at once after a tick (the final slice is a few ms)',
    load: { duration: 10 },
    stopAfterTicks: 1,
    stopDelayMs: 0,
  },
  { name: 'stopped 20 ms after a tick', load: { duration: 10 }, stopAfterTicks: 1, stopDelayMs: 20 },
  { name: 'stopped 45 ms after the second tick', load: { duration: 10 }, stopAfterTicks: 2, stopDelayMs: 45 },
  { name: 'stopped 300 ms into a second', load: { duration: 10 }, stopAfterTicks: 1, stopDelayMs: 300 },
  { name: 'stopped 800 ms into a second', load: { duration: 10 }, stopAfterTicks: 1, stopDelayMs: 800 },
  { name: 'stopped before the first tick', load: { duration: 10 }, stopAfterTicks: 0, stopDelayMs: 400 },
  { name: 'a time window that ends on a whole second', load: { duration: 2 } },
  { name: 'a request-bound run that drains', load: { requests: 3000 } },
]

describe('series total the samples', () => {
  for (const c of cases) {
    it(c.name, async () => {
      let started = false
      const { summary, db } = await runConfig(
        {
          version: 1,
          name: 'series',
          targets: [{ name: 't', url: `${target.url}/x` }],
          load: { connections: 8, ...c.load },
          cooldownSeconds: 0,
        },
        (handle, progress) => {
          if (c.stopAfterTicks === undefined) return
          const wait = setInterval(() => {
            // 0 ticks: from the start of the load.
            if (progress.length < c.stopAfterTicks! || (c.stopAfterTicks === 0 && !started)) return
            clearInterval(wait)
            setTimeout(() => handle.stop(), c.stopDelayMs)
          }, 1)
        },
        { onStarted: () => (started = true) },
      )
      const series = db
        .prepare('SELECT sum(requests) AS requests, sum(errors) AS errors FROM series WHERE run_id = ?')
        .get(summary.runId) as { requests: number | null; errors: number | null }
      const samples = db
        .prepare(
          'SELECT count(*) AS requests, coalesce(sum(error NOT IN (0, ?)), 0) AS errors FROM samples WHERE run_id = ? AND error <> ?',
        )
        .get(INFLIGHT, summary.runId, INFLIGHT) as { requests: number; errors: number }
      const r = summary.results[0]!
      expect(samples.requests).toBeGreaterThan(0)
      expect(series.requests ?? 0).toBe(samples.requests)
      expect(r.requests).toBe(samples.requests)
      expect(series.errors ?? 0).toBe(samples.errors)
      // The series is one row per second of the window, never a sliver row past its end.
      const rows = db.prepare('SELECT t FROM series WHERE run_id = ? ORDER BY t').pluck().all(summary.runId)
      expect(rows).toEqual(rows.map((_, i) => i))
      expect(rows.length).toBeLessThanOrEqual(Math.ceil(r.seconds + 0.05))
    })
  }
})

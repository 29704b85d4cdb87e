// Issue 20, item 8: Server-Timing durations that are not durations (1e308, NaN, negative, longer
// than an hour) are kept out of the app and db figures and counted, per target and round, as a
// figure of the run. The target here decides which responses carry an invalid header and counts
// them itself: the run's count equals the target's, and app/db time hold only the valid headers.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { jsonSummary, resultsTable } from '../cli/summary.ts'
import { serverTimingInvalidText } from '../metrics/units.ts'
import { loadRunData } from '../report/data.ts'
import { fmtInt } from '../report/format.ts'
import { summaryTable } from '../report/tables.ts'
import { HistoryStore } from '../store/history-store.ts'
import { runConfig } from '../testing/run-config.ts'

// Invalid headers, cycled: each has a bad `dur` on app or db (a valid one beside it is dropped too).
const INVALID = [
  'app;dur=1e308, db;dur=2',
  'app;dur=5, db;dur=1e308',
  'app;dur=NaN',
  'app;dur=-1, db;dur=2',
  'db;dur=7200000',
  'app;dur=Infinity',
  'app;dur=3600000.5',
]
const VALID = 'app;dur=5, db;dur=2'
/** The first responses to each target carry an invalid header: all answered long before the window closes. */
const INVALID_FIRST = 140

interface TimingTarget {
  url: string
  /** Invalid headers sent, per path (/t0 for the first target, /t1 for the second). */
  invalidSent: number[]
  close(): Promise<void>
}

/** Answers every request; the first INVALID_FIRST of each path with an invalid Server-Timing. */
async function startTimingTarget(): Promise<TimingTarget> {
  const invalidSent: number[] = []
  const server: Server = createServer((req, res) => {
    const which = Number(req.url?.slice(2))
    const sent = (invalidSent[which] ??= 0)
    const bad = sent < INVALID_FIRST
    if (bad) invalidSent[which] = sent + 1
    res.writeHead(200, {
      'Server-Timing': bad ? INVALID[sent % INVALID.length]! : VALID,
      'Content-Length': '2',
    })
    res.end('ok')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}`,
    invalidSent,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

let target: TimingTarget | null = null
afterEach(async () => {
  await target?.close()
  target = null
})

describe('Server-Timing headers that are not durations', () => {
  it('are counted per target and round as the target sent them, and kept out of app and db time', async () => {
    target = await startTimingTarget()
    const run = await runConfig({
      version: 1,
      name: 'server-timing invalid',
      targets: [
        { name: 'one', url: `${target.url}/t0` },
        { name: 'two', url: `${target.url}/t1` },
      ],
      load: { connections: 4, duration: 2 },
      cooldownSeconds: 0,
    })
    const { summary } = run
    expect(summary.status).toBe('done')
    expect(target.invalidSent).toEqual([INVALID_FIRST, INVALID_FIRST])
    for (const r of summary.results) {
      // Every response answered carried a header: the valid ones are the figures, the rest counted.
      expect(r.latency.count).toBeGreaterThan(INVALID_FIRST * 3)
      expect(r.serverTimingInvalid, r.target).toBe(INVALID_FIRST)
      expect(r.serverApp?.count).toBe(r.latency.count - INVALID_FIRST)
      expect(r.serverDb?.count).toBe(r.latency.count - INVALID_FIRST)
      // 5 ms and 2 ms as sent (HDR precision); none of the hour-long or 1e308 ones.
      expect(r.serverApp!.max).toBeGreaterThanOrEqual(4990)
      expect(r.serverApp!.max).toBeLessThanOrEqual(5010)
      expect(r.serverDb!.max).toBeLessThanOrEqual(2010)
      expect(r.serverApp!.min).toBeGreaterThanOrEqual(4990)
    }
    // The --json summary and the run table say it.
    const json = jsonSummary(summary)
    expect(json.targets.map((t) => t.serverTimingInvalid)).toEqual([INVALID_FIRST, INVALID_FIRST])
    const table = resultsTable(summary.results)
    for (const name of ['one', 'two'])
      expect(table).toContain(
        `server-timing ${name} #1: ${INVALID_FIRST} headers were not durations (kept out of app/db time)`,
      )
    // The report says it in the same words, under its Server-Timing table.
    const tables = summaryTable(loadRunData(new HistoryStore(run.db), summary.runId))
    for (const name of ['one', 'two'])
      expect(tables).toContain(`Server-Timing ${name} #1: ${serverTimingInvalidText(INVALID_FIRST, fmtInt)}`)
    console.log(`hostile Server-Timing headers tried: ${INVALID_FIRST * 2}`)
  })

  it('are left out of the count in a warm-up phase, as app and db time leave it out', async () => {
    // Invalid headers in the first 300 ms the target sees (inside the 1 s warm-up) and from 1.6 s
    // to 1.9 s (inside the window measured): the run counts only the second ones.
    let first = 0
    const sent = { warmup: 0, measured: 0 }
    const server: Server = createServer((_req, res) => {
      const now = performance.now()
      first ||= now
      const t = now - first
      const window = t < 300 ? 'warmup' : t >= 1600 && t < 1900 ? 'measured' : null
      if (window) sent[window]++
      res.writeHead(200, { 'Server-Timing': window ? 'app;dur=1e308' : VALID, 'Content-Length': '2' })
      res.end('ok')
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    target = {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      invalidSent: [],
      close: () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections()
          server.close(() => resolve())
        }),
    }
    const { summary } = await runConfig({
      version: 1,
      name: 'server-timing invalid in warm-up',
      targets: [{ name: 'one', url: `${target.url}/t0` }],
      load: { connections: 2, duration: 3, warmupSeconds: 1 },
      cooldownSeconds: 0,
    })
    expect(summary.status).toBe('done')
    const r = summary.results[0]!
    expect(r.phases.map((p) => [p.phase, p.warmup ?? false])).toEqual([
      ['warmup', true],
      ['main', false],
    ])
    expect(sent.warmup).toBeGreaterThan(0)
    expect(sent.measured).toBeGreaterThan(0)
    expect(r.serverTimingInvalid).toBe(sent.measured)
    // app time: every measured response but the invalid ones, as the count says.
    expect(r.serverApp?.count).toBe(r.latency.count - sent.measured)
  })
})

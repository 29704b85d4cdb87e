// Synthetic overload against a known truth: a target answers in ~2 ms, then stops answering (it
// accepts every request and never responds). Timeouts and requests still in flight at the end
// must never count as throughput, nor as a latency of 0 ms, in any series, table or export: the
// Api's summary and series, the report's chart data and tables, the CSV, the CLI's table and JSON.
// (The app's charts and table are checked on the same kind of run in e2e/figures.e2e.ts.)
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunSummary, SeriesPoint } from './api/types.ts'
import { jsonSummary, resultsTable } from './cli/summary.ts'
import { createEngine, type EngineHost } from './host/index.ts'
import { figuresOf, type Figures } from './metrics/figures.ts'
import { latencyLines, throughputLines } from './report/charts.ts'
import { loadRunData } from './report/data.ts'
import { fmtRate } from './report/format.ts'
import { renderReportHtml } from './report/html.ts'
import { openDb, type Db } from './db/db.ts'
import { HistoryStore } from './store/history-store.ts'
import { runToEnd, tempDbPath } from './testing/run-config.ts'
import { startTarget, type CountingTarget } from './testing/target.ts'

const HANG_AFTER_MS = 1500
const TIMEOUT_MS = 600

let host: EngineHost
let target: CountingTarget
let db: Db
let run: RunSummary
let f: Figures
let series: SeriesPoint[]

beforeAll(async () => {
  host = await createEngine({ dbPath: tempDbPath() })
  target = await startTarget({ delayMs: 2, hangAfterMs: HANG_AFTER_MS })
  const { runId, ended } = await runToEnd(host, {
    version: 1,
    name: 'stops answering',
    targets: [{ name: 'stalls', url: `${target.url}/x` }],
    load: { connections: 4, duration: 4, timeoutMs: TIMEOUT_MS },
    cooldownSeconds: 0,
  })
  expect(ended.status).toBe('done')
  run = await host.runs.get(runId)
  f = figuresOf(run.results[0]!)
  series = await host.runs.series(runId)
  db = openDb(host.dbPath)
})

afterAll(async () => {
  db?.close()
  await host?.close()
  await target?.close()
})

describe('a target that stops answering', () => {
  it('is measured as the truth says: answers before the stall, timeouts and in-flight requests after', () => {
    // Every request the target answered (and the client saw) is one response; no more.
    expect(f.answered).toBeGreaterThan(100)
    expect(f.answered).toBeLessThanOrEqual(target.answered.get(200) ?? 0)
    expect(f.errors.timeout ?? 0).toBeGreaterThan(0)
    // The connections end the window waiting on requests the target holds (one each at most).
    expect(f.inflight).toBeGreaterThanOrEqual(1)
    expect(f.inflight).toBeLessThanOrEqual(4)
    expect(f.unanswered).toBe(f.errors.timeout ?? 0)
    expect(f.requests).toBe(f.answered + f.unanswered)
    expect(f.sent).toBe(f.requests + f.inflight)
    // Throughput is responses per second: timeouts and requests in flight do not count.
    expect(f.throughput).toBeCloseTo(f.answered / f.seconds, 6)
    expect(f.throughput).toBeLessThan(f.requests / f.seconds)
  })

  it('Api series: no response, no latency; throughput from responses only', async () => {
    expect(series.reduce((s, p) => s + p.responses, 0)).toBe(f.answered)
    expect(series.reduce((s, p) => s + p.requests, 0)).toBe(f.requests)
    expect(series.reduce((s, p) => s + p.errors, 0)).toBe(f.failed)
    // Requests in flight when the window closed end after its last tick: still in its last second.
    expect(series.reduce((s, p) => s + (p.errorsByKind.inflight ?? 0), 0)).toBe(f.inflight)
    const silent = series.filter((p) => p.responses === 0)
    // The stall began 1.5 s in: the last seconds of a 4 s window answer nothing.
    expect(silent.length).toBeGreaterThanOrEqual(1)
    expect(silent.some((p) => (p.errorsByKind.timeout ?? 0) > 0)).toBe(true)
    for (const p of silent)
      expect([p.mean, p.p50, p.p95, p.p99, p.max]).toEqual([null, null, null, null, null])
    for (const p of series.filter((q) => q.responses > 0)) expect(p.p50).toBeGreaterThan(0)
    // A chart of 2 points per round merges silent and answering seconds: still no 0 ms.
    const few = await host.runs.series(run.runId, { maxPoints: 2 })
    expect(few).toHaveLength(2)
    for (const p of few) if (p.p99 !== null) expect(p.p99).toBeGreaterThan(0)
  })

  it('report: the throughput line is responses, the latency lines skip silent seconds, the table agrees', () => {
    const data = loadRunData(new HistoryStore(db), run.runId)
    const colour = () => '#000000'
    const thr = throughputLines(data.series, colour)[0]!.segments.flat()
    const byT = new Map(series.map((p) => [p.t, p.responses]))
    for (const [t, y] of thr) expect(y).toBe(byT.get(t))
    const silentT = new Set(series.filter((p) => p.responses === 0).map((p) => p.t))
    for (const line of latencyLines(data.series, colour)[0]!.lines) {
      for (const [t, y] of line.segments.flat()) {
        expect(silentT.has(t)).toBe(false)
        expect(y).toBeGreaterThan(0)
      }
    }
    const html = renderReportHtml({
      runs: [data],
      comparison: null,
      comparisonNote: null,
      generatedAt: new Date(0),
      studies: [],
    })
    const row = /<tr><td class="name"><b>stalls<\/b><\/td>[\s\S]*?<\/tr>/.exec(html)?.[0] ?? ''
    expect(row).toContain(`<td class="num">${fmtRate(f.throughput)}</td>`)
    expect(row).toContain(`timeout ${f.errors.timeout}`)
    expect(row).toMatch(new RegExp(`<td class="num">${f.inflight}</td></tr>$`))
  })

  it('CSV: no latency for a request without a response; the series counts responses apart', async () => {
    const samples = readFileSync((await host.exports.csv(run.runId, { kind: 'samples' })).path!, 'utf8')
      .trimEnd()
      .split('\n')
      .slice(1)
      .map((l) => l.split(','))
    // correlation_id,seq,target,round,phase,start_us,latency_us,corrected_us,status,bytes,error,…
    expect(samples.filter((c) => c[6] !== '').length).toBe(f.answered)
    for (const c of samples.filter((c) => c[10] === 'timeout' || c[10] === 'inflight')) expect(c[6]).toBe('')
    expect(samples.filter((c) => c[10] === 'inflight').length).toBe(f.inflight)
    const lines = readFileSync((await host.exports.csv(run.runId, { kind: 'series' })).path!, 'utf8')
      .trimEnd()
      .split('\n')
    const head = lines[0]!.split(',')
    const rows = lines.slice(1).map((l) => l.split(','))
    const col = (name: string) => head.indexOf(name)
    expect(rows.reduce((s, r) => s + Number(r[col('responses')]), 0)).toBe(f.answered)
    for (const r of rows.filter((r) => r[col('responses')] === '0')) {
      expect(r[col('p50_us')]).toBe('')
      expect(r[col('p99_us')]).toBe('')
    }
  })

  it('CLI: the table and the JSON say the same', () => {
    const text = resultsTable(run.results)
    const row = text
      .split('\n')
      .find((l) => l.startsWith('stalls'))!
      .trim()
      .split(/\s+/)
    // TARGET ROUND TIME REQUESTS REQ/S MEAN SD P50 P90 P95 P99 P99.9 MAX ERRORS IN-FLIGHT
    expect(row[3]).toBe(String(f.requests))
    expect(row[4]).toBe(f.throughput.toFixed(1))
    expect(row[13]).toBe(String(f.failed))
    expect(row[14]).toBe(String(f.inflight))
    expect(text).toContain(`errors stalls #1: timeout ${f.errors.timeout}`)
    const json = jsonSummary(run).targets[0]!
    expect(json).toMatchObject({
      requests: f.requests,
      answered: f.answered,
      inflight: f.inflight,
      failed: f.failed,
      errors: f.errors,
      throughput: Math.round(f.throughput * 100) / 100,
    })
    expect(json.errors).not.toHaveProperty('inflight')
  })
})

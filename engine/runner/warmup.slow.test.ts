// load.warmup: auto against targets whose warm-up the test sets: one slow (200 ms) for its first
// 3 s then quick (50 ms), one quick from its first request, one whose latency climbs 10 ms a
// second and never settles. At a rate (100 requests a second, open loop) a second's throughput is
// the schedule's and its p50 the target's delay; delays of 50 ms and more keep what this busy
// machine adds to them (a closed loop's throughput moved by a third from second to second, and
// p50 by a millisecond, at a load average of 20-28) small beside the truth. The rule on closed
// loops is shown by simulation (metrics/steady.test.ts). The rule (metrics/steady.ts) must cut the first where its warm-up ends, the
// second hardly at all, and mark the third; and every figure of a segment (summary, histogram,
// phases, series, the ledger's rows) must count the same window: the warm-up's requests in the
// warm-up phase, everywhere.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { jsonSummary } from '../cli/summary.ts'
import { compareRuns } from '../metrics/compare.ts'
import { steadyText } from '../metrics/steady-words.ts'
import { esc } from '../report/format.ts'
import { buildReportHtml } from '../report/html.ts'
import { runCommand } from '../testing/cli.ts'
import { decodeHistogram } from '../metrics/hdr.ts'
import { HistoryStore } from '../store/history-store.ts'
import { runConfig, type TestRun } from '../testing/run-config.ts'
import { startTarget, type CountingTarget } from '../testing/target.ts'

const SECONDS = 14
const RATE = 100
const SLOW_FOR_MS = 3000
const SLOW_MS = 200
const QUICK_MS = 50
/** Enough for the rate at the slowest delay (100/s × 200 ms = 20 in flight). */
const CONNECTIONS = 40
let warming: CountingTarget
let quick: CountingTarget
let drifting: CountingTarget
let run: TestRun

beforeAll(async () => {
  warming = await startTarget({ delayAt: (ms) => (ms < SLOW_FOR_MS ? SLOW_MS : QUICK_MS) })
  quick = await startTarget({ delayMs: QUICK_MS })
  drifting = await startTarget({ delayAt: (ms) => QUICK_MS + ms / 100 })
  run = await runConfig({
    version: 1,
    name: 'auto warm-up',
    targets: [
      { name: 'warming', url: `${warming.url}/w` },
      { name: 'quick', url: `${quick.url}/q` },
      { name: 'drifting', url: `${drifting.url}/d` },
    ],
    load: { connections: CONNECTIONS, duration: SECONDS, rate: RATE, warmup: 'auto' },
    cooldownSeconds: 0,
  })
}, 120_000)

afterAll(async () => {
  await Promise.all([warming?.close(), quick?.close(), drifting?.close()])
})

const result = (target: string) => run.summary.results.find((r) => r.target === target)!

/** A target's seconds as the rule saw them, for a failure's message: t responses p50 (ms). */
function seconds(target: string): string {
  const series = new HistoryStore(run.db).series(run.summary.runId).filter((p) => p.target === target)
  return series.map((p) => `${p.t} ${p.responses} ${((p.p50 ?? 0) / 1000).toFixed(1)}`).join(' | ')
}

describe('load.warmup: auto', () => {
  it('cuts the warm-up the target has, and only that', () => {
    expect(run.summary.status).toBe('done')
    const w = result('warming').steady!
    // The target's first 3 s are slow; the second they end in may be mixed (its clock starts at its
    // first request, a few ms after the segment's): the cut is at 3 s, or one second later.
    expect(w.warmupSeconds, seconds('warming')).toBeGreaterThanOrEqual(3)
    expect(w.warmupSeconds, seconds('warming')).toBeLessThanOrEqual(4)
    expect(w.settled, seconds('warming')).toBe(true)
    expect(w.limit).toBe(SECONDS / 2)
    const q = result('quick').steady!
    expect(q.warmupSeconds, seconds('quick')).toBeLessThanOrEqual(1)
    expect(q.settled, seconds('quick')).toBe(true)
  })

  it('marks a segment that never settles, with its trend', () => {
    const d = result('drifting').steady!
    expect(d.settled, seconds('drifting')).toBe(false)
    expect(d.why).toBe('trend')
    // From 50 + 10 × cut ms to ~190 ms: p50 grows well over 10 % across the measured window; the
    // throughput is the rate's.
    expect(d.change.p50, seconds('drifting')).toBeGreaterThan(0.2)
    expect(Math.abs(d.change.throughput)).toBeLessThan(0.1)
  })

  it('keeps the warm-up out of every figure of the segment', () => {
    const r = result('warming')
    const warm = r.phases.find((p) => p.warmup)!
    const main = r.phases.find((p) => !p.warmup)!
    expect(warm.phase).toBe('warmup')
    expect(warm.seconds).toBe(r.steady!.warmupSeconds)
    // The warm-up's requests were the slow ones (the target held each 200 ms), the measured
    // window's the quick ones (50 ms; the busy machine adds its own delays to both).
    expect(warm.latency.p50).toBeGreaterThanOrEqual(SLOW_MS * 1000)
    expect(r.latency.p50).toBeLessThan(warm.latency.p50 / 2)
    // By the target's own log: of the requests it meant to hold 200 ms, those in the measured window
    // arrived after the cut (the target's slow seconds count from its first request, a little after
    // the segment's start) or were in flight at it (one per connection).
    const slowServed = warming.served.filter((x) => x.delayMs === SLOW_MS)
    const slow = new Set(slowServed.map((x) => x.id))
    const cutAt = run.t0Epoch + r.steady!.from * 1000
    const afterCut = slowServed.filter((x) => x.at >= cutAt).length
    expect(afterCut).toBeLessThan(warm.requests / 10)
    const measuredIds = run.db
      .prepare('SELECT seq FROM samples WHERE run_id = ? AND target_index = 0 AND phase = 1')
      .pluck()
      .all(run.summary.runId) as number[]
    const prefix = run.summary.correlationPrefix
    const slowMeasured = measuredIds.filter((seq) => slow.has(`${prefix}-${String(seq).padStart(10, '0')}`))
    expect(slow.size).toBeGreaterThan(warm.requests / 2)
    expect(slowMeasured.length).toBeLessThanOrEqual(afterCut + CONNECTIONS)
    expect(slowMeasured.length).toBeGreaterThanOrEqual(afterCut)
    // The segment's figures are its measured phase's, histogram included.
    expect(r.requests).toBe(main.requests)
    expect(r.latency).toEqual(main.latency)
    const h = decodeHistogram(r.histogram)
    expect(h.totalCount).toBe(r.latency.count)
    h.destroy()
    // Its time is the segment's less the whole seconds cut (the phase's own time ends with its last
    // step, the segment's when its last request is written: a few ms apart).
    expect(Math.abs(r.seconds - main.seconds)).toBeLessThan(0.1)
    expect(r.seconds).toBeLessThan(SECONDS - r.steady!.warmupSeconds + 0.5)
    expect(r.throughput).toBeCloseTo(r.latency.count / r.seconds, 6)
    // What the target answered is the warm-up and the measured window together.
    expect(warm.requests + main.requests).toBe(warming.requests - (r.errors.inflight ?? 0))
  })

  it('moves the warm-up seconds and requests to the warm-up phase in the series and the ledger', () => {
    const store = new HistoryStore(run.db)
    const r = result('warming')
    const warm = r.phases.find((p) => p.warmup)!
    const series = store.series(run.summary.runId).filter((p) => p.target === 'warming')
    const before = series.filter((p) => p.t < r.steady!.from)
    expect(before.length).toBe(r.steady!.warmupSeconds)
    expect(before.every((p) => p.phase === 'warmup')).toBe(true)
    expect(series.filter((p) => p.t >= r.steady!.from).every((p) => p.phase === 'main')).toBe(true)
    expect(before.reduce((n, p) => n + p.requests, 0)).toBe(warm.requests)
    // The rows: the warm-up phase holds exactly its requests (those with an outcome), the measured
    // one the segment's, and the measured rows' exact p50 is the summary's (HDR: 3 digits).
    const rows = run.db
      .prepare(
        `SELECT phase, count(*) AS n FROM samples WHERE run_id = ? AND target_index = 0 AND error <> 8 GROUP BY phase`,
      )
      .all(run.summary.runId) as { phase: number; n: number }[]
    expect(Object.fromEntries(rows.map((x) => [x.phase, x.n]))).toEqual({ 0: warm.requests, 1: r.requests })
    const lat = run.db
      .prepare(
        `SELECT latency_us FROM samples WHERE run_id = ? AND target_index = 0 AND phase = 1 AND latency_us >= 0 ORDER BY latency_us`,
      )
      .pluck()
      .all(run.summary.runId) as number[]
    const exactP50 = lat[Math.ceil(lat.length * 0.5) - 1]!
    expect(Math.abs(r.latency.p50 - exactP50) / exactP50).toBeLessThan(0.002)
  })

  it('gives the same figures to the run summary the CLI prints', () => {
    const json = jsonSummary(run.summary)
    const t = json.targets.find((x) => x.target === 'warming')!
    const r = result('warming')
    expect(t.requests).toBe(r.requests)
    expect(t.latency.p50).toBe(r.latency.p50)
  })

  it('says the warm-up found, and the segment that never settled, in the same words everywhere', async () => {
    const lines = run.summary.results.map((r) => `${r.target} round ${r.round}: ${steadyText(r.steady!)}`)
    expect(lines.find((l) => l.startsWith('drifting'))).toMatch(/never settled: its figures include a trend/)
    const { out } = await runCommand(run.dbPath, ['runs', 'show', String(run.summary.runId)])
    for (const l of lines) expect(out).toContain(l)
    const store = new HistoryStore(run.db)
    const html = buildReportHtml(store, [run.summary.runId])
    for (const l of lines) expect(html).toContain(esc(l))
    const headline = compareRuns(store.compareRounds([run.summary.runId])).headline
    expect(headline).toContain(
      'drifting: its round never settled (load.warmup: auto): its figures include a trend.',
    )
    expect(headline).not.toContain('warming: its round never settled')
  })
})

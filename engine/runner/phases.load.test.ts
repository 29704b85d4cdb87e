// Phases against a target that counts what it saw: a phase of N requests keeps all N responses and
// ends when the last is in (its wall time included), and a warm-up (a phase marked so, or
// load.warmupSeconds) is recorded and shown but stays out of the figures, the thresholds and the
// histogram comparisons merge.
import { afterEach, describe, expect, it } from 'vitest'
import { jsonSummary, resultsTable } from '../cli/summary.ts'
import { decodeHistogram } from '../metrics/hdr.ts'
import { buildReportHtml } from '../report/html.ts'
import { HistoryStore } from '../store/history-store.ts'
import { runConfig } from '../testing/run-config.ts'
import { startTarget, type CountingTarget } from '../testing/target.ts'

let target: CountingTarget | null = null
afterEach(async () => {
  await target?.close()
  target = null
})

describe('phases by request count', () => {
  it('keep every response of the phase, and each phase lasts until its last answer', async () => {
    target = await startTarget({ delayMs: 10, sampleEveryMs: 2 })
    const { summary } = await runConfig({
      version: 1,
      name: 'phases by count',
      targets: [{ name: 't', url: `${target.url}/x` }],
      load: {
        connections: 4,
        profile: {
          kind: 'phases',
          phases: [
            { name: 'warm', share: 0.5, requests: 60 },
            { name: 'peak', share: 1, requests: 80 },
          ],
        },
      },
      cooldownSeconds: 0,
    })
    expect(summary.status).toBe('done')
    const r = summary.results[0]!
    // The server saw exactly 140 requests, and each one's answer is in its phase: none in flight.
    expect(target.requests).toBe(140)
    expect(r.phases.map((p) => [p.phase, p.requests, p.ok])).toEqual([
      ['warm', 60, 60],
      ['peak', 80, 80],
    ])
    expect(r.errors).toEqual({})
    expect(r.requests).toBe(140)
    // A 10 ms server: 60 requests on 2 connections take at least 30 × 10 ms, 80 on 4 at least 20 × 10.
    expect(r.phases[0]!.seconds).toBeGreaterThanOrEqual(0.3)
    expect(r.phases[1]!.seconds).toBeGreaterThanOrEqual(0.2)
    expect(r.phases[0]!.seconds + r.phases[1]!.seconds).toBeLessThanOrEqual(r.seconds + 0.01)
    // The warm phase never ran more than its 2 connections at once.
    const firstPeak = target.samples.find(([, n]) => n > 2)
    expect(firstPeak).toBeDefined()
    const beforePeak = target.samples.filter(([at]) => at < firstPeak![0])
    expect(Math.max(...beforePeak.map(([, n]) => n))).toBeLessThanOrEqual(2)
  })
})

describe('warm-up', () => {
  it('is recorded and shown, but left out of the figures, the thresholds and the histogram', async () => {
    // Every request arriving in the first 700 ms is held until then: a slow, cold start.
    target = await startTarget({ delayMs: 1, stall: { fromMs: 0, toMs: 700 } })
    const { summary, db } = await runConfig({
      version: 1,
      name: 'warm-up',
      targets: [{ name: 't', url: `${target.url}/x` }],
      load: { connections: 2, requests: 200, warmupSeconds: 1 },
      cooldownSeconds: 0,
      thresholds: [{ metric: 'p99', max: 200_000 }],
    })
    expect(summary.status).toBe('done')
    const r = summary.results[0]!
    const [warmup, main] = r.phases
    expect(warmup).toMatchObject({ phase: 'warmup', warmup: true })
    expect(main).toMatchObject({ phase: 'main' })
    expect(main!.warmup).toBeUndefined()
    // The held requests are in the warm-up, seen; load.requests counts after it.
    expect(warmup!.latency.max).toBeGreaterThan(500_000)
    expect(main!.requests).toBe(200)
    expect(target.requests).toBe(warmup!.requests + (warmup!.errors.inflight ?? 0) + 200)
    // The target's figures are the measured phase's: the threshold passes, the histogram holds 200.
    expect(r.requests).toBe(200)
    expect(r.latency.max).toBeLessThan(200_000)
    expect(r.latency.p99).toBe(main!.latency.p99)
    expect(r.seconds).toBeCloseTo(main!.seconds, 1)
    expect(summary.thresholdsPassed).toBe(true)
    const h = decodeHistogram(r.histogram)
    expect(h.totalCount).toBe(200)
    h.destroy()
    // The warm-up's seconds are on the timeline, marked as such, and the report says so.
    const store = new HistoryStore(db)
    const series = store.series(summary.runId)
    expect(series[0]!.phase).toBe('warmup')
    expect(series.some((p) => p.phase === 'main')).toBe(true)
    expect(buildReportHtml(store, [summary.runId])).toContain(
      '1 · warmup (warm-up, not in the figures above)',
    )
    // The CLI table marks it (today's JSON said warmup: true alone).
    const table = resultsTable(summary.results, summary.overRounds)
    expect(table).toMatch(/^ {2}↳ phase warmup \(warm-up\) +\d/m)
    expect(table).toMatch(/^ {2}↳ phase main +\d/m)
    expect(table).toContain("warm-up: a phase left out of its target's row, thresholds and comparisons")
    // The --json summary too.
    expect(jsonSummary(summary).targets[0]!.phases.map((p) => [p.phase, p.warmup ?? false])).toEqual([
      ['warmup', true],
      ['main', false],
    ])
  })

  it('a phase marked warmup stays out too; a warm-up with every phase is refused', async () => {
    target = await startTarget({ delayMs: 2 })
    const { summary } = await runConfig({
      version: 1,
      name: 'phased warm-up',
      targets: [{ name: 't', url: `${target.url}/x` }],
      load: {
        connections: 2,
        profile: {
          kind: 'phases',
          phases: [
            { name: 'warmup', share: 0.5, requests: 30, warmup: true },
            { name: 'load', share: 1, requests: 50 },
          ],
        },
      },
      cooldownSeconds: 0,
    })
    const r = summary.results[0]!
    expect(r.phases.map((p) => [p.phase, p.requests, p.warmup ?? false])).toEqual([
      ['warmup', 30, true],
      ['load', 50, false],
    ])
    expect(r.requests).toBe(50)
    expect(target.requests).toBe(80)
  })
})

// Statistics against the raw ledger: HDR percentiles agree with exact ones from the raw ledger;
// rate mode shows a stall that closed-loop latency hides; targets and rounds are kept apart.
import { afterEach, describe, expect, it } from 'vitest'
import { startTarget, type CountingTarget } from '../testing/target.ts'
import { runConfig } from '../testing/run-config.ts'

const targets: CountingTarget[] = []
afterEach(async () => {
  await Promise.all(targets.splice(0).map((t) => t.close()))
})
async function target(opts: Parameters<typeof startTarget>[0] = {}) {
  const t = await startTarget(opts)
  targets.push(t)
  return t
}

/** Nearest-rank percentile of sorted values. */
function exact(sorted: number[], p: number): number {
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!
}

describe('latency figures', () => {
  it('agree with percentiles computed exactly from the raw samples, and are monotone', async () => {
    const t = await target({ delayMs: 0 })
    const { summary, db } = await runConfig({
      version: 1,
      name: 'percentiles',
      targets: [{ name: 't', url: `${t.url}/x` }],
      load: { connections: 4, duration: 2 },
      cooldownSeconds: 0,
    })
    const lat = (
      db
        .prepare('SELECT latency_us FROM samples WHERE run_id = ? AND latency_us >= 0')
        .pluck()
        .all(summary.runId) as number[]
    ).sort((a, b) => a - b)
    const r = summary.results[0]!
    expect(r.latency.count).toBe(lat.length)
    for (const [p, key] of [
      [50, 'p50'],
      [90, 'p90'],
      [95, 'p95'],
      [99, 'p99'],
      [99.9, 'p999'],
    ] as const) {
      const want = exact(lat, p)
      // HDR with 3 significant digits: within 0.1 % (plus 1 µs of rounding).
      expect(
        Math.abs(r.latency[key] - want),
        `${key}: hdr ${r.latency[key]} exact ${want}`,
      ).toBeLessThanOrEqual(want * 0.001 + 1)
    }
    expect(Math.abs(r.latency.max - lat.at(-1)!)).toBeLessThanOrEqual(lat.at(-1)! * 0.001 + 1)
    expect(r.latency.mean).toBeCloseTo(lat.reduce((a, b) => a + b, 0) / lat.length, -1)
    const l = r.latency
    expect([l.min, l.p50, l.p90, l.p95, l.p99, l.p999, l.max]).toEqual(
      [l.min, l.p50, l.p90, l.p95, l.p99, l.p999, l.max].sort((a, b) => a - b),
    )
    const series = db
      .prepare('SELECT p50, p90, p95, p99, p999, max FROM series WHERE run_id = ?')
      .raw()
      .all(summary.runId) as number[][]
    expect(series.length).toBeGreaterThanOrEqual(2)
    for (const row of series) expect(row).toEqual([...row].sort((a, b) => a - b))
    // The stored run histogram decodes to the same count (lossless, mergeable).
    const { decodeHistogram } = await import('../metrics/hdr.ts')
    expect(decodeHistogram(r.histogram).totalCount).toBe(lat.length)
  })

  it('rate mode: the corrected p99 shows a one-second stall, the uncorrected one does not', async () => {
    const t = await target({ stall: { fromMs: 1500, toMs: 2500 } })
    const { summary } = await runConfig({
      version: 1,
      name: 'coordinated omission',
      targets: [{ name: 't', url: `${t.url}/x` }],
      load: { connections: 2, duration: 6, rate: 100 },
      cooldownSeconds: 0,
    })
    const r = summary.results[0]!
    // Open loop at 100 req/s: about 600 requests in 6 s.
    expect(r.requests).toBeGreaterThan(500)
    expect(r.requests).toBeLessThan(700)
    expect(r.corrected).not.toBeNull()
    expect(r.corrected!.p99).toBeGreaterThan(700_000)
    expect(r.latency.p99).toBeLessThan(100_000)
    expect(r.latency.max).toBeGreaterThan(700_000) // the stalled requests themselves are in both
  })

  it('keeps each target and round apart in interleaved rounds', async () => {
    const a = await target()
    const b = await target({ delayMs: 2 })
    const { summary, db } = await runConfig({
      version: 1,
      name: 'two targets',
      targets: [
        { name: 'fast', url: `${a.url}/a` },
        { name: 'slow', url: `${b.url}/b` },
      ],
      load: { connections: 2, duration: 1 },
      schedule: 'interleaved',
      rounds: 2,
      cooldownSeconds: 0,
    })
    expect(summary.status).toBe('done')
    expect(summary.results.map((r) => `${r.target}#${r.round}`).sort()).toEqual([
      'fast#1',
      'fast#2',
      'slow#1',
      'slow#2',
    ])
    // Interleaved: fast#1, slow#1, fast#2, slow#2 on the timeline.
    const order = db
      .prepare(
        'SELECT target_index, round, min(start_us) s FROM samples WHERE run_id = ? GROUP BY target_index, round ORDER BY s',
      )
      .raw()
      .all(summary.runId) as number[][]
    expect(order.map(([t, r]) => `${t}#${r}`)).toEqual(['0#1', '1#1', '0#2', '1#2'])
    for (const r of summary.results) expect(r.requests).toBeGreaterThan(50)
    const slow = summary.results.filter((r) => r.target === 'slow')
    const fast = summary.results.filter((r) => r.target === 'fast')
    for (const s of slow) for (const f of fast) expect(s.latency.p50).toBeGreaterThan(f.latency.p50)
    const perTarget = db
      .prepare('SELECT target_index, count(*) FROM samples WHERE run_id = ? GROUP BY target_index')
      .raw()
      .all(summary.runId) as number[][]
    expect(perTarget.find(([i]) => i === 0)![1]).toBe(a.requests)
    expect(perTarget.find(([i]) => i === 1)![1]).toBe(b.requests)
  })
})

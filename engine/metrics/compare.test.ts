import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ApiError } from '../api/errors.ts'
import type { StatsBlock } from '../api/types.ts'
import { openDb, type Db } from '../store/db.ts'
import { insertFixtureRun } from '../testing/fixtures.ts'
import { HistoryStore } from '../store/queries.ts'
import {
  bootstrapRelativeDiff,
  compareEntries,
  compareRuns,
  mannWhitneyU,
  smallestExactP,
  type CompareQuery,
  type EntryRounds,
} from './compare.ts'

function block(throughput: number, p99 = 5000, errors = 0): StatsBlock {
  const latency = {
    count: 1000,
    min: 100,
    mean: p99 / 3,
    stddev: 10,
    p50: p99 / 4,
    p90: p99 / 2,
    p95: p99 / 1.5,
    p99,
    p999: p99 * 2,
    max: p99 * 3,
  }
  return {
    requests: 1000,
    ok: 1000 - errors,
    errors: errors ? { timeout: errors } : {},
    statusClasses: { '1xx': 0, '2xx': 1000 - errors, '3xx': 0, '4xx': 0, '5xx': 0 },
    bytes: 0,
    throughput,
    seconds: 10,
    latency,
    corrected: null,
    serverApp: null,
    serverDb: null,
  }
}

function entry(label: string, rounds: StatsBlock[]): EntryRounds {
  return { entry: { runId: 1, target: label, label, rounds: rounds.length }, rounds }
}

describe('mannWhitneyU', () => {
  it('matches the exact distribution (values checked against scipy.stats.mannwhitneyu)', () => {
    expect(mannWhitneyU([1, 2, 3, 4, 5], [6, 7, 8, 9, 10])).toMatchObject({ u: 0, method: 'exact' })
    expect(mannWhitneyU([1, 2, 3, 4, 5], [6, 7, 8, 9, 10]).p).toBeCloseTo(2 / 252, 10)
    expect(mannWhitneyU([1, 3, 5], [2, 4, 6]).p).toBeCloseTo(0.7, 10)
    expect(mannWhitneyU([1, 2, 3], [4, 5, 6]).p).toBeCloseTo(0.1, 10)
  })

  it('falls back to the normal approximation with ties', () => {
    const r = mannWhitneyU([1, 1, 2, 2, 3], [3, 4, 4, 5, 5])
    expect(r.method).toBe('normal')
    expect(r.p).toBeGreaterThan(0.005)
    expect(r.p).toBeLessThan(0.03)
    expect(mannWhitneyU([0, 0, 0], [0, 0, 0]).p).toBe(1)
  })

  it('knows the smallest p a design can reach', () => {
    expect(smallestExactP(3, 3)).toBeCloseTo(0.1)
    expect(smallestExactP(4, 4)).toBeCloseTo(2 / 70)
  })
})

describe('bootstrapRelativeDiff', () => {
  it('is reproducible and brackets the true relative difference', () => {
    const base = [100, 101, 99, 100.5, 99.5]
    const other = [120, 121, 119, 122, 118]
    const a = bootstrapRelativeDiff(base, other)
    expect(a).toEqual(bootstrapRelativeDiff(base, other))
    expect(a?.[0]).toBeGreaterThan(18)
    expect(a?.[1]).toBeLessThan(22)
  })

  it('has no interval when the baseline is always 0', () => {
    expect(bootstrapRelativeDiff([0, 0, 0], [1, 2, 3])).toBeNull()
  })
})

describe('compareEntries', () => {
  it('identical distributions: no significant difference, CI around 0', () => {
    const values = [100, 102, 98, 101, 99]
    const result = compareEntries([
      entry(
        'java-jetty',
        values.map((v) => block(v)),
      ),
      entry(
        'node-http',
        [...values].reverse().map((v) => block(v)),
      ),
    ])
    const thr = result.others[0]?.metrics.find((m) => m.metric === 'throughput')
    expect(thr?.diffPercent).toBeCloseTo(0)
    expect(thr?.significant).toBe(false)
    expect(thr?.ci95?.[0]).toBeLessThan(0)
    expect(thr?.ci95?.[1]).toBeGreaterThan(0)
    expect(thr?.sentence).toMatch(
      /^node-http and java-jetty had the same throughput \(95 % CI .*, not significant, Mann–Whitney p = 1.000; /,
    )
  })

  it('clearly separated: significant, CI excluding 0, said in words', () => {
    const base = [100, 101, 99, 100.5, 99.5].map((v) => block(v * 10, 5000))
    const other = [120, 121, 119, 122, 118].map((v) => block(v * 10, 4400))
    const result = compareEntries([entry('java-jetty', base), entry('node-http', other)])
    expect(result.baseline.label).toBe('java-jetty')
    const byMetric = Object.fromEntries(result.others[0]?.metrics.map((m) => [m.metric, m]) ?? [])
    const thr = byMetric.throughput
    expect(thr?.diffPercent).toBeCloseTo(20, 0)
    expect(thr?.significant).toBe(true)
    expect(thr?.ci95?.[0]).toBeGreaterThan(0)
    expect(thr?.sentence).toMatch(
      /^node-http served 20 % more requests\/s than java-jetty \(95 % CI 1\d–2\d %, significant, Mann–Whitney p = 0.008; 1200 req\/s vs 1000 req\/s\)$/,
    )
    const p99 = byMetric.p99
    expect(p99?.diffPercent).toBeCloseTo(-12)
    expect(p99?.ci95?.[1]).toBeLessThan(0)
    expect(p99?.sentence).toMatch(
      /^node-http's p99 latency was 12 % lower than java-jetty's \(95 % CI 12–12 %, significant, .*; 4.40 ms vs 5.00 ms\)$/,
    )
  })

  it('says when 3 rounds per side cannot be significant', () => {
    const result = compareEntries([
      entry(
        'a',
        [100, 101, 99].map((v) => block(v)),
      ),
      entry(
        'b',
        [150, 151, 149].map((v) => block(v)),
      ),
    ])
    const thr = result.others[0]?.metrics[0]
    expect(thr?.significant).toBe(false)
    expect(thr?.ci95?.[0]).toBeGreaterThan(40)
    expect(thr?.sentence).toMatch(
      /not significant, Mann–Whitney p = 0.100; 3 and 3 rounds can never reach p < 0.05; use ≥ 4 rounds per side; 150 req\/s vs 100 req\/s\)$/,
    )
  })

  it('single round each: no interval, and says how to get one', () => {
    const result = compareEntries([entry('java-jetty', [block(1000)]), entry('node-http', [block(1230)])])
    const thr = result.others[0]?.metrics[0]
    expect(thr).toMatchObject({
      metric: 'throughput',
      baseline: 1000,
      other: 1230,
      ci95: null,
      significant: null,
    })
    expect(thr?.diffPercent).toBeCloseTo(23)
    expect(thr?.sentence).toBe(
      'node-http served 23 % more requests/s than java-jetty (single round each: no confidence interval; repeat with rounds ≥ 3; 1230 req/s vs 1000 req/s)',
    )
  })

  it('error rates: a baseline without errors has no relative difference', () => {
    const result = compareEntries([entry('a', [block(100)]), entry('b', [block(100, 5000, 12)])])
    const err = result.others[0]?.metrics.find((m) => m.metric === 'errorRate')
    expect(err).toMatchObject({ baseline: 0, diffPercent: null })
    expect(err?.sentence).toMatch(/^a had no errors; b failed 1.20 % of requests/)
  })
})

describe('compareRuns', () => {
  let db: Db
  beforeEach(() => (db = openDb(':memory:')))
  afterEach(() => db.close())
  // The rounds are loaded through the store, as the host and the report do; compareRuns computes.
  const compareStored = (q: CompareQuery) =>
    compareRuns(new HistoryStore(db).compareRounds(q.runIds), q.baseline)

  it('compares the targets of one run with rounds from the database', () => {
    const { runId } = insertFixtureRun(db, {
      rounds: 5,
      samplesPerRound: 2000,
      roundNoise: 0.01,
      targets: [
        { name: 'java-jetty', throughput: 4000 },
        { name: 'node-http', throughput: 5000, latencyUs: 1500 },
      ],
    })
    const result = compareStored({ runIds: [runId] })
    expect(result.baseline).toMatchObject({ runId, target: 'java-jetty', rounds: 5 })
    const thr = result.others[0]?.metrics[0]
    expect(thr?.significant).toBe(true)
    expect(thr?.sentence).toMatch(/^node-http served 2\d % more requests\/s than java-jetty/)
    const flipped = compareStored({
      runIds: [runId],
      baseline: { runId, target: 'node-http' },
    })
    expect(flipped.baseline.target).toBe('node-http')
  })

  it('labels equal target names of different runs by run', () => {
    const a = insertFixtureRun(db, { targets: [{ name: 'node-http' }] })
    const b = insertFixtureRun(db, { targets: [{ name: 'node-http', throughput: 6000 }], seed: 4 })
    const result = compareStored({ runIds: [a.runId, b.runId] })
    expect(result.others[0]?.entry.label).toBe(`node-http (run ${b.runId})`)
  })

  it('rejects what cannot be compared, naming why', () => {
    const a = insertFixtureRun(db, { targets: [{ name: 'only' }] })
    const run = (q: CompareQuery): ApiError => {
      try {
        compareStored(q)
      } catch (err) {
        if (err instanceof ApiError) return err
      }
      throw new Error('expected ApiError')
    }
    expect(run({ runIds: [a.runId] }).message).toMatch(/single target/)
    expect(run({ runIds: [999] }).code).toBe('not-found')
    const b = insertFixtureRun(db, { seed: 5 })
    expect(run({ runIds: [b.runId], baseline: { runId: b.runId, target: 'x' } }).field).toBe('baseline')
  })
})

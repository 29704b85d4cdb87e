// The comparison method on data whose truth the test sets: per-round figures built here, so the
// expected ratio, interval and verdict are known (the interval arithmetic itself is checked
// against SciPy in compare-stats.test.ts; the headline in compare-headline.test.ts). Runs from the
// database go through compareRounds.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ApiError } from '../api/errors.ts'
import { openDb, type Db } from '../db/db.ts'
import { HistoryStore } from '../store/history-store.ts'
import { A, B, metric, rounds, run } from '../testing/compare-rounds.ts'
import { insertFixtureRun } from '../testing/fixtures.ts'
import { compareMetric, compareRuns } from './compare.ts'

describe('compareMetric: the verdict follows the interval and the margin', () => {
  const input = (a: number[], b: number[], paired = true) => ({
    metric: 'p50' as const,
    base: rounds(a),
    other: rounds(b),
    paired,
    corrected: false,
    minEffect: 5,
    baseLabel: 'a',
    otherLabel: 'b',
  })

  it('a clearly slower entry: ratio and interval as the paired t-interval gives them, all rounds agree', () => {
    const m = compareMetric(input(A, B))!
    expect(m.change).toBeCloseTo(2.9307846511780085, 10)
    expect(m.ci![0]).toBeCloseTo(2.8899277026846892, 10)
    expect(m.ci![1]).toBeCloseTo(2.97207073110198, 10)
    expect(m).toMatchObject({
      verdict: 'higher',
      better: 'baseline',
      excludesNoChange: true,
      agree: { rounds: 5, of: 5 },
    })
    // change is exactly other / baseline − 1 of the values reported with it.
    expect(m.other / m.baseline - 1).toBeCloseTo(m.change!, 12)
    expect(m.sentence).toBe("b's p50 is 3.93× a's (95 % CI 3.89–3.97×, all 5 rounds agree)")
  })

  it('twins 0.3 % apart: the interval excludes 1×, yet no difference that matters', () => {
    const twin = A.map((x, i) => x * 1.003 * (1 + (i % 2 ? 1 : -1) * 0.0004))
    const m = compareMetric(input(A, twin))!
    expect(m.excludesNoChange).toBe(true)
    expect(m.verdict).toBe('same')
    expect(m.better).toBeNull()
    expect(m.sentence).toMatch(/inside ±5 %: no difference that matters\)$/)
  })

  it('an interval across the margin is inconclusive, whether or not it excludes 1×', () => {
    const wide = compareMetric(input([2010, 1985, 2040, 1990, 2005], [2100, 2300, 2150], false))!
    expect(wide.ci![0]).toBeCloseTo(0.9717816867315322 - 1, 10)
    expect(wide).toMatchObject({ verdict: 'inconclusive', excludesNoChange: false })
    // 1.02–1.08×: surely higher, but maybe by less than 5 %.
    const near = compareMetric(input([1000, 1000, 1000, 1000], [1030, 1060, 1040, 1070]))!
    expect(near.ci![0]).toBeGreaterThan(0)
    expect(near.ci![0]).toBeLessThan(0.05)
    expect(near).toMatchObject({ verdict: 'inconclusive', excludesNoChange: true })
  })

  it('fewer than 3 rounds: no interval, no significance, said once per metric', () => {
    const m = compareMetric(input([1000, 1010], [2000, 2020]))!
    expect(m).toMatchObject({ verdict: 'too-few-rounds', ci: null, excludesNoChange: null })
    expect(m.change).toBeCloseTo(1, 2)
    expect(m.sentence).toBe("b's p50 is 2.00× a's (2 rounds: no interval)")
  })

  it('throughput: higher is better', () => {
    const m = compareMetric({ ...input(A, B), metric: 'throughput' })!
    expect(m).toMatchObject({ verdict: 'lower', better: 'baseline' })
  })

  it('error rates: compared as differences, a baseline without errors has no ratio', () => {
    const base = rounds([1000, 1000, 1000])
    const clean = compareMetric({
      ...input(A, B),
      metric: 'errorRate',
      base,
      other: rounds([1000, 1000, 1000]),
    })!
    expect(clean).toMatchObject({ verdict: 'same', change: 0, baseline: 0, other: 0 })
    const failing = rounds([1000, 1000, 1000], { failed: 20 })
    const worse = compareMetric({ ...input(A, B), metric: 'errorRate', base, other: failing })!
    expect(worse).toMatchObject({
      verdict: 'higher',
      better: 'baseline',
      change: null,
      ci: null,
      excludesNoChange: true,
    })
    expect(worse.other).toBeCloseTo(0.02)
    expect(worse.sentence).toMatch(
      /^b failed 2\.00 % of requests, a 0\.00 % \(\+2\.00 points, all 3 rounds agree\)$/,
    )
  })
})

describe('rounds agreeing', () => {
  it('is the same count whichever run is the baseline (unpaired rounds against the midpoint)', () => {
    // a's rounds 1000, 1100, 1300 and b's 1150, 1250, 1400: held against the other side's centre,
    // b's rounds all lie above a's (3 of 3) while one of a's lies above b's (2 of 3). Against the
    // midpoint of the two centres (1193 µs): 1000, 1100 below and 1250, 1400 above agree; 1300
    // and 1150 do not, both ways round.
    const one = run(1, [{ name: 'api', p50s: [1000, 1100, 1300] }])
    const two = run(2, [{ name: 'api', p50s: [1150, 1250, 1400] }])
    const forward = metric(compareRuns([one, two]), 0, 'p50')
    const backward = metric(compareRuns([two, one]), 0, 'p50')
    expect(forward.agree).toEqual({ rounds: 4, of: 6 })
    expect(backward.agree).toEqual(forward.agree)
    expect(forward.change! * backward.change!).toBeLessThan(0)
  })

  it('paired rounds: the pairs, the same both ways', () => {
    const r = run(1, [
      { name: 'a', p50s: [1000, 1000, 1000, 1000] },
      { name: 'b', p50s: [1100, 1200, 990, 1150] },
    ])
    const forward = metric(compareRuns([r]), 0, 'p50')
    const backward = metric(compareRuns([r], { baseline: { runId: 1, target: 'b' } }), 0, 'p50')
    expect(forward.agree).toEqual({ rounds: 3, of: 4 })
    expect(backward.agree).toEqual(forward.agree)
  })
})

describe('compareRuns: pairs that mean something', () => {
  it('within a run: every target against the baseline (the first, or the chosen one); interleaved rounds are paired', () => {
    const r1 = run(1, [
      { name: 'fast', p50s: A },
      { name: 'slow', p50s: B },
      { name: 'twin', p50s: A.map((x) => x * 1.002) },
    ])
    const byDefault = compareRuns([r1])
    expect(byDefault.baseline).toMatchObject({ runId: 1, target: 'fast' })
    expect(byDefault.pairs.map((p) => [p.baseline.target, p.other.target])).toEqual([
      ['fast', 'slow'],
      ['fast', 'twin'],
    ])
    expect(byDefault.pairs.every((p) => p.design === 'paired')).toBe(true)
    const chosen = compareRuns([r1], { baseline: { runId: 1, target: 'slow' } })
    expect(chosen.pairs.map((p) => [p.baseline.target, p.other.target])).toEqual([
      ['slow', 'fast'],
      ['slow', 'twin'],
    ])
    expect(metric(chosen, 0, 'p50')).toMatchObject({ verdict: 'lower', better: 'other' })
  })

  it('sequential rounds of one run are not paired, and the comparison says why once', () => {
    const r = compareRuns([
      run(
        1,
        [
          { name: 'a', p50s: A },
          { name: 'b', p50s: B },
        ],
        { schedule: 'sequential' },
      ),
    ])
    expect(r.pairs[0]?.design).toBe('unpaired')
    expect(r.notes.filter((n) => n.includes('sequential'))).toHaveLength(1)
  })

  it('across runs: each target with the target of the same name, never with another name', () => {
    const r1 = run(1, [
      { name: 'demo', p50s: A },
      { name: 'tiny', p50s: B },
    ])
    const r3 = run(3, [
      { name: 'tiny', p50s: B.map((x) => x * 1.5) },
      { name: 'demo', p50s: A.map((x) => x * 1.01) },
    ])
    const r = compareRuns([r1, r3])
    expect(r.pairs.map((p) => [p.baseline.label, p.other.label])).toEqual([
      ['demo (run 1)', 'demo (run 3)'],
      ['tiny (run 1)', 'tiny (run 3)'],
    ])
    expect(r.pairs.every((p) => p.design === 'unpaired')).toBe(true)
    expect(metric(r, 1, 'p50').change).toBeCloseTo(0.5, 10)
    // The baseline picks the run the others are held against.
    const flipped = compareRuns([r1, r3], { baseline: { runId: 3, target: 'demo' } })
    expect(flipped.pairs.map((p) => [p.baseline.runId, p.other.runId])).toEqual([
      [3, 1],
      [3, 1],
    ])
  })

  it('names without a counterpart are said once; runs of one target each are paired; explicit pairs win', () => {
    const partial = compareRuns([
      run(1, [
        { name: 'demo', p50s: A },
        { name: 'extra', p50s: A },
      ]),
      run(2, [
        { name: 'demo', p50s: A },
        { name: 'other', p50s: A },
      ]),
    ])
    expect(partial.pairs).toHaveLength(1)
    expect(partial.notes.join(' ')).toMatch(
      /extra \(run 1\), other \(run 2\) have no target of the same name/,
    )
    const single = compareRuns([run(1, [{ name: 'java', p50s: A }]), run(2, [{ name: 'node', p50s: B }])])
    expect(single.pairs.map((p) => [p.baseline.target, p.other.target])).toEqual([['java', 'node']])
    const none = compareRuns([
      run(1, [
        { name: 'a', p50s: A },
        { name: 'b', p50s: A },
      ]),
      run(2, [
        { name: 'c', p50s: A },
        { name: 'd', p50s: A },
      ]),
    ])
    expect(none.pairs).toEqual([])
    expect(none.headline).toMatch(/share no target name/)
    const explicit = compareRuns(
      [
        run(1, [
          { name: 'a', p50s: A },
          { name: 'b', p50s: A },
        ]),
        run(2, [
          { name: 'c', p50s: B },
          { name: 'd', p50s: A },
        ]),
      ],
      { pairs: [{ baseline: { runId: 1, target: 'a' }, other: { runId: 2, target: 'c' } }] },
    )
    expect(explicit.pairs.map((p) => [p.baseline.target, p.other.target])).toEqual([['a', 'c']])
    expect(metric(explicit, 0, 'p50').verdict).toBe('higher')
  })

  it('rejects what cannot be compared, naming the field', () => {
    const fail = (f: () => unknown): ApiError => {
      try {
        f()
      } catch (err) {
        if (err instanceof ApiError) return err
      }
      throw new Error('expected ApiError')
    }
    expect(fail(() => compareRuns([run(1, [{ name: 'only', p50s: A }])])).message).toMatch(/single target/)
    const r = run(1, [
      { name: 'a', p50s: A },
      { name: 'b', p50s: B },
    ])
    expect(fail(() => compareRuns([r], { baseline: { runId: 1, target: 'x' } })).field).toBe('baseline')
    expect(fail(() => compareRuns([r], { baseline: { runId: 9, target: 'a' } })).message).toMatch(
      /run 9 is not among the compared runs/,
    )
    expect(fail(() => compareRuns([{ ...r, targets: [] }])).message).toMatch(/no finished results/)
  })
})

describe('what makes a comparison unfair is named at the top, once', () => {
  it('runs over different protocols are compared, and the comparison says they differ', () => {
    const r1 = run(1, [{ name: 'api', p50s: A }])
    const r2 = run(2, [{ name: 'api', p50s: B, protocol: 'h2c', streams: 10 }])
    const r = compareRuns([r1, r2])
    expect(r.pairs).toHaveLength(1)
    expect(r.pairs[0]!.metrics.length).toBeGreaterThan(0)
    expect(r.pairs[0]!.notes).toContain(
      'Runs 1 and 2 differ in protocol (HTTP/1.1 vs h2c) and streams per connection (1 vs 10).',
    )
    // Said of the runs, not again of their targets.
    expect(r.notes.filter((n) => n.includes('protocol'))).toHaveLength(1)
    expect(r.headline).toContain('differ in protocol (HTTP/1.1 vs h2c)')
    // Alike: nothing said.
    const same = compareRuns([run(1, [{ name: 'api', p50s: A }]), run(2, [{ name: 'api', p50s: B }])])
    expect(same.notes.join(' ')).not.toMatch(/protocol|streams/)
  })

  it("targets of one run over different protocols: a note of the pair's own", () => {
    const r = compareRuns([
      run(1, [
        { name: 'http1', p50s: A },
        { name: 'h2c', p50s: B, protocol: 'h2c' },
        { name: 'h2', p50s: B, protocol: 'h2', streams: 4 },
      ]),
    ])
    expect(r.pairs.map((p) => p.metrics.length > 0)).toEqual([true, true])
    expect(r.pairs[0]!.notes).toContain('http1 and h2c differ in protocol (HTTP/1.1 vs h2c).')
    expect(r.pairs[1]!.notes).toContain(
      'http1 and h2 differ in protocol (HTTP/1.1 vs h2) and streams per connection (1 vs 4).',
    )
    // Two runs whose targets mix protocols: the pairs say which, the runs say nothing of it.
    const mixed = compareRuns([
      run(1, [
        { name: 'a', p50s: A },
        { name: 'b', p50s: A, protocol: 'h2c' },
      ]),
      run(2, [
        { name: 'a', p50s: B, protocol: 'h2c' },
        { name: 'b', p50s: B, protocol: 'h2c' },
      ]),
    ])
    expect(mixed.notes).toContain('a (run 1) and a (run 2) differ in protocol (HTTP/1.1 vs h2c).')
    expect(mixed.notes.join(' ')).not.toMatch(/Runs 1 and 2 differ in protocol|b \(run 1\) and b/)
  })

  it('config and environment differences between the runs, a saturated generator, a different body', () => {
    const r1 = run(1, [{ name: 'api', p50s: A, body: '{"a":1}' }])
    const r2 = run(2, [{ name: 'api', p50s: A, body: '{"a":1,"padding":"xxxxxxxxxx"}' }], {
      load: {
        connections: 64,
        duration: 20,
        rate: 500,
        keepAlive: false,
        profile: { kind: 'ramp', from: 1, to: 64, rampSeconds: 5 },
      },
      env: { app: '0.2.0', host: 'bench-2' },
      saturated: true,
    })
    const r = compareRuns([r1, r2])
    const runNote = r.pairs[0]!.notes.find((n) => n.startsWith('Runs 1 and 2 differ'))
    expect(runNote).toBe(
      'Runs 1 and 2 differ in load profile (constant vs ramp), connections (8 vs 64), window (10 s vs 20 s), rate (closed loop vs 500 req/s), keep-alive (on vs off), Cannonade version (0.1.0 vs 0.2.0) and host (bench-1 vs bench-2).',
    )
    expect(r.pairs[0]!.notes).toContain('api (run 1) and api (run 2) differ in body (7 bytes vs 30 bytes).')
    expect(r.notes.join(' ')).toMatch(
      /load generator was saturated in run 2 \(above 90 % CPU in 8 of 10 seconds\)/,
    )
    for (const note of r.notes) {
      expect(r.headline.split(note).length - 1, note).toBe(1)
    }
  })

  it('alike runs carry no caveat', () => {
    const r = compareRuns([run(1, [{ name: 'api', p50s: A }]), run(2, [{ name: 'api', p50s: B }])])
    expect(r.pairs[0]!.notes).toEqual([])
    expect(r.notes).toEqual([])
  })
})

describe('compareRounds: runs from the history', () => {
  let db: Db
  beforeEach(() => (db = openDb(':memory:')))
  afterEach(() => db.close())

  it('loads rounds, config and environment, and compares them', () => {
    const { runId } = insertFixtureRun(db, {
      rounds: 5,
      samplesPerRound: 2000,
      roundNoise: 0.01,
      targets: [
        { name: 'java-jetty', throughput: 4000 },
        { name: 'node-http', throughput: 5000, latencyUs: 6000 },
      ],
    })
    const [loaded] = new HistoryStore(db).compareRounds([runId])
    expect(loaded).toMatchObject({
      runId,
      status: 'done',
      sweep: null,
      environment: { host: 'fixture-host' },
    })
    expect(loaded?.config?.targets.map((t) => t.name)).toEqual(['java-jetty', 'node-http'])
    expect(loaded?.targets[0]?.rounds.map((r) => r.round)).toEqual([1, 2, 3, 4, 5])
    const r = compareRuns([loaded!])
    expect(metric(r, 0, 'p50')).toMatchObject({ verdict: 'higher', better: 'baseline' })
    expect(metric(r, 0, 'p50').change).toBeGreaterThan(1.8)
  })
})

// The knee on synthetic studies whose knee the test knows: a classic saturation curve, the case
// where p99 rose 10× for +31 % throughput (a knee), a line that keeps scaling (no knee), and noisy
// flat lines with one round per value and with rounds (no knee). Then the same rule on studies
// stored in the history, where the spread comes from the rounds.
import { describe, expect, it } from 'vitest'
import type { SweepPoint } from '../api/types.ts'
import { openDb } from '../db/db.ts'
import { insertFixtureRun } from '../testing/fixtures.ts'
import { addStudyRun, createStudy } from '../store/studies.ts'
import { findKnee, KNEE_RULE, kneeStep, studyResults } from './results.ts'

const point = (
  value: number,
  throughput: number,
  p99Ms: number,
  spread = { throughput: 0, p99: 0 },
): SweepPoint => ({
  value,
  label: String(value),
  runId: value,
  throughput,
  p50: (p99Ms * 1000) / 3,
  p95: (p99Ms * 1000) / 1.5,
  p99: p99Ms * 1000,
  errorRate: 0,
  rounds: spread.p99 > 0 ? 3 : 1,
  spread,
})

describe('the knee follows throughput and latency together', () => {
  it('a classic saturation curve: the knee is the last value before latency climbs without throughput', () => {
    const pts = [
      point(8, 1000, 2),
      point(16, 1950, 2.1),
      point(32, 3800, 2.3),
      point(64, 4100, 6),
      point(128, 4150, 13),
    ]
    expect(kneeStep(pts)).toMatchObject({ value: 32, next: 64 })
  })

  it('p99 10× for +31 % throughput is a knee (the old rule said "no knee")', () => {
    const pts = [point(10, 1000, 5), point(20, 1310, 50), point(40, 1330, 110)]
    const step = kneeStep(pts)!
    expect(step.value).toBe(10)
    expect(step.gain).toBeCloseTo(0.31)
    expect(step.growth).toBeCloseTo(9)
  })

  it('throughput that keeps up with latency is no knee; neither is a line that keeps scaling', () => {
    // Twice the connections: +60 % throughput, +25 % p99 (Little: most of the load is served).
    expect(findKnee([point(8, 1000, 4), point(16, 1600, 5), point(32, 2560, 6.25)])).toBeNull()
    expect(findKnee([point(32, 1000, 10), point(64, 2000, 10), point(128, 4000, 11)])).toBeNull()
  })

  it('a noisy flat line with one round per value: a jump that comes back down is no knee', () => {
    // Throughput flat within ±5 %, p99 5 ms ± 30 %: the old rule called a knee at the first jump.
    const pts = [
      point(1, 1000, 5),
      point(2, 1030, 6.6),
      point(3, 980, 4.8),
      point(4, 1010, 6.5),
      point(5, 995, 5.1),
    ]
    expect(findKnee(pts)).toBeNull()
  })

  it('a noisy flat line with rounds: a jump within the round-to-round spread is no change', () => {
    const noisy = { throughput: 0.05, p99: 0.25 }
    // +45 % p99 at the end, but twice the combined spread is 71 %.
    const pts = [point(1, 1000, 5, noisy), point(2, 1010, 5.2, noisy), point(3, 990, 7.5, noisy)]
    expect(findKnee(pts)).toBeNull()
    // The same step with tight rounds is a knee.
    const tight = { throughput: 0.02, p99: 0.03 }
    expect(findKnee([point(1, 1000, 5, tight), point(2, 1010, 5.2, tight), point(3, 990, 7.5, tight)])).toBe(
      2,
    )
  })

  it('the rule is stated in words', () => {
    expect(KNEE_RULE).toMatch(/p99 rises by at least 20 % and by more than twice the round-to-round spread/)
  })
})

describe('the knee of studies in the history', () => {
  const study = (values: { value: number; throughput: number; latencyUs: number }[], noise: number) => {
    const db = openDb(':memory:')
    const studyId = createStudy(db, {
      name: 'sweep',
      axes: [{ path: 'load.connections', values: values.map((v) => v.value) }],
    })
    values.forEach((v, i) => {
      const { runId } = insertFixtureRun(db, {
        seed: 10 + i,
        rounds: 3,
        samplesPerRound: 1500,
        roundNoise: noise,
        targets: [{ name: 'api', throughput: v.throughput, latencyUs: v.latencyUs, errorRate: 0 }],
      })
      addStudyRun(db, studyId, runId, [v.value], v.value)
    })
    const results = studyResults(db, studyId)
    db.close()
    return results
  }

  it('finds the known knee from rounds, with the spread measured', () => {
    const r = study(
      [
        { value: 8, throughput: 1000, latencyUs: 2000 },
        { value: 16, throughput: 1950, latencyUs: 2050 },
        { value: 32, throughput: 3800, latencyUs: 2100 },
        { value: 64, throughput: 3900, latencyUs: 6000 },
      ],
      0.03,
    )
    const t = r.targets[0]!
    expect(t.points.every((p) => p.rounds === 3 && p.spread.throughput > 0 && p.spread.p99 > 0)).toBe(true)
    expect(t.knee).toBe(32)
    expect(t.sentence).toMatch(
      /^api: the knee is at connections=32: from there to 64, p99 climbs \d+ % while throughput gains only \d %\.$/,
    )
    expect(r.kneeRule).toBe(KNEE_RULE)
  })

  it('a flat line with noisy rounds has no knee', () => {
    const r = study(
      [1, 2, 3, 4, 5].map((value) => ({ value, throughput: 1000, latencyUs: 2000 })),
      0.2,
    )
    expect(r.targets[0]!.knee).toBeNull()
    expect(r.targets[0]!.sentence).toMatch(/no knee up to connections=5/)
  })
})

// The headline and the curve, on rounds whose truth the test sets: who is slower at the median
// and the tail and how sure, twins called the same, "not enough rounds" once, many pairs grouped,
// and entries that are values of one thing drawn as a curve instead of compared.
import { describe, expect, it } from 'vitest'
import { A, B, metric, run } from '../testing/compare-rounds.ts'
import { compareRuns } from './compare.ts'

describe('the headline', () => {
  it('says who is slower at the median and the tail, by how much and how sure', () => {
    const r = compareRuns([
      run(1, [
        { name: 'a', p50s: A },
        { name: 'b', p50s: B },
      ]),
    ])
    expect(r.headline).toBe(
      'b is slower than a at the median (p50 3.93×, 95 % CI 3.89–3.97×, all 5 rounds agree) and at the tail (p99 3.93×, 95 % CI 3.89–3.97×, all 5 rounds agree).',
    )
    expect(r.method).toMatch(/^Method: each round is one observation\./)
  })

  it('twins are the same, and the headline does not contradict the table', () => {
    const twin = A.map((x, i) => x * (1 + (i % 2 ? 0.004 : 0.002)))
    const r = compareRuns([
      run(1, [
        { name: 'a', p50s: A },
        { name: 'a-twin', p50s: twin },
      ]),
    ])
    expect(metric(r, 0, 'p50').verdict).toBe('same')
    expect(r.headline).toMatch(/^a-twin is the same as a within ±5 % at the median \(p50 1\.00×/)
    expect(r.headline).not.toMatch(/slower|faster than/)
  })

  it('too few rounds: "give each target 3 rounds" once, however many pairs', () => {
    const r = compareRuns([
      run(1, [
        { name: 'a', p50s: [1000] },
        { name: 'b', p50s: [2000] },
        { name: 'c', p50s: [3000] },
        { name: 'd', p50s: [1000] },
      ]),
    ])
    expect(r.headline.match(/Not enough rounds/g)).toHaveLength(1)
    // Rounds, not a run number: "run 3" read as run #3.
    expect(r.headline).toMatch(/give each target 3 rounds or more \(rounds: 3, schedule: randomized\)/)
    expect(r.headline).not.toMatch(/\brun 3\b/)
    // Many pairs are grouped by verdict.
    expect(r.headline).toMatch(
      /^At the median \(p50\), against a: b \(2\.00×\), c \(3\.00×\) and d \(1\.00×\) have no interval\./,
    )
  })

  it('many pairs: grouped by verdict at the median and at the tail', () => {
    const r = compareRuns([
      run(1, [
        { name: 'base', p50s: A },
        { name: 'slow', p50s: B },
        { name: 'fast', p50s: A.map((x) => x / 2) },
        { name: 'twin', p50s: A.map((x) => x * 1.001) },
      ]),
    ])
    expect(r.headline).toMatch(
      /^At the median \(p50\), against base: slow \(3\.93×\) is slower; fast \(0\.50×\) is faster; twin \(1\.00×\) is the same within ±5 %\./,
    )
  })
})

describe('a sweep over targets or variants is a curve, not a race', () => {
  it('targets marked as values of one series', () => {
    const r = compareRuns([
      run(1, [
        { name: 'compute-1k', p50s: [1200], series: { name: 'iterations', value: 1000 } },
        { name: 'compute-300k', p50s: [155_000], series: { name: 'iterations', value: 300_000 } },
      ]),
    ])
    expect(r.pairs).toEqual([])
    expect(r.series?.name).toBe('iterations')
    expect(r.series?.lines[0]?.points.map((p) => [p.value, p.p50])).toEqual([
      [1000, 1200],
      [300_000, 155_000],
    ])
    expect(r.headline).toMatch(/^These 2 entries are values of one series \(iterations\), not rivals/)
    expect(r.headline).toMatch(/p50 rises from 1\.20 ms at 1000 to 155\.00 ms at 300000 \(129×\)/)
    expect(r.headline).not.toMatch(/%/)
  })

  it('on request, unmarked targets too: the value from the name', () => {
    const r = compareRuns(
      [
        run(1, [
          { name: 'compute-10k', p50s: [5000] },
          { name: 'compute-1k', p50s: [1200] },
        ]),
      ],
      { asSeries: true },
    )
    expect(r.series?.lines[0]?.points.map((p) => p.value)).toEqual([1000, 10_000])
    const units = compareRuns(
      [
        run(1, [
          { name: 'sleep-8ms', p50s: [8000] },
          { name: 'sleep-2ms', p50s: [2000] },
        ]),
      ],
      {
        asSeries: true,
      },
    )
    expect(units.series?.lines[0]?.points.map((p) => p.value)).toEqual([2, 8])
  })

  it('the runs of one study: a line per target against the swept value', () => {
    const sweep = (value: number) => ({ studyId: 7, path: 'load.connections', value, by: null })
    const r = compareRuns([
      run(1, [{ name: 'node', p50s: [1000] }], { sweep: sweep(8) }),
      run(2, [{ name: 'node', p50s: [1900] }], { sweep: sweep(16) }),
    ])
    expect(r.series?.name).toBe('connections')
    expect(r.series?.lines.map((l) => [l.name, l.points.map((p) => p.value)])).toEqual([['node', [8, 16]]])
  })
})

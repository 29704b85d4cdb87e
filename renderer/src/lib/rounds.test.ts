import { describe, expect, it } from 'vitest'
import { testPoint } from '#engine/testing/series-point.ts'
import { bandKey, hasRounds, mergeBandRows, roundBands } from './rounds.ts'

const point = testPoint

describe('rounds overlaid', () => {
  it('aligns each round at its own start: the mean as the line, lowest to highest as the band', () => {
    const points = [
      point('a', 10, { round: 1, responses: 100 }),
      point('a', 11, { round: 1, responses: 120 }),
      point('a', 30, { round: 2, responses: 140 }),
      point('a', 31, { round: 2, responses: 80 }),
      point('b', 20, { round: 1, responses: 50 }),
    ]
    const rows = roundBands(points, (p) => p.responses)
    expect(rows).toEqual([
      { t: 0, a: 120, [bandKey('a')]: [100, 140], b: 50 },
      { t: 1, a: 100, [bandKey('a')]: [80, 120] },
    ])
    expect(hasRounds(points)).toBe(true)
    expect(hasRounds(points.filter((p) => p.round === 1))).toBe(false)
  })

  it('leaves out rounds without a value (no response) and has no latency where none answered', () => {
    const silent = { responses: 0, p99: null }
    const points = [
      point('a', 0, { round: 1, p99: 3000 }),
      point('a', 5, { round: 2, ...silent }),
      point('a', 1, { round: 1, ...silent }),
      point('a', 6, { round: 2, ...silent }),
    ]
    const rows = roundBands(points, (p) => p.p99, undefined, ' p99')
    expect(rows).toEqual([
      { t: 0, 'a p99': 3000 },
      { t: 1, 'a p99': null },
    ])
  })

  it('merges several pivots by second', () => {
    const merged = mergeBandRows(
      [{ t: 0, x: 1 }],
      [
        { t: 0, y: 2 },
        { t: 1, y: 3 },
      ],
    )
    expect(merged).toEqual([
      { t: 0, x: 1, y: 2 },
      { t: 1, y: 3 },
    ])
  })
})

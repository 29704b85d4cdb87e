// The distribution chart's latency axis (./scale.ts): two medians 1.4 and 3.5 ms apart under a
// 120 ms tail, the case a new user could not read on the linear axis (issue 19).
import { describe, expect, it } from 'vitest'
import { bandKey } from '../../lib/rounds.ts'
import { axisShare, logAxis, rowValues } from './scale.ts'

describe('the latency axis of the distribution chart', () => {
  // Two curves: p50 1.4 and 3.5 ms, p99.9 at 40 and 120 ms, one with a band over its rounds.
  const rows = [
    { t: 0.301, a: 1.4, b: 3.5, [bandKey('a')]: [1.2, 1.6] as [number, number] },
    { t: 2, a: 9.8, b: 21 },
    { t: 3, a: 40, b: 120 },
  ]

  it('spans whole decades from below the fastest value to above the slowest, bands included', () => {
    const values = rowValues(rows)
    expect(values).toEqual([1.4, 3.5, 1.2, 1.6, 9.8, 21, 40, 120])
    const axis = logAxis(values)
    expect(axis?.domain).toEqual([1, 1000])
    expect(axis?.ticks).toEqual([1, 2, 5, 10, 20, 50, 100, 200, 500, 1000])
  })

  it('gives the 1.4 vs 3.5 ms difference a tenth of the plot where the linear axis gives it 2 %', () => {
    const axis = logAxis(rowValues(rows))!
    const log = axisShare(3.5, 'log', axis.domain) - axisShare(1.4, 'log', axis.domain)
    const linear = axisShare(3.5, 'linear', [0, 120]) - axisShare(1.4, 'linear', [0, 120])
    expect(log).toBeGreaterThan(0.1)
    expect(linear).toBeLessThan(0.02)
  })

  it('keeps sub-millisecond values and a single decade readable', () => {
    expect(logAxis([0.05, 0.4])).toEqual({ domain: [0.01, 1], ticks: [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1] })
    // All values in one power of ten: one decade up, never an empty axis.
    expect(logAxis([10])?.domain).toEqual([10, 100])
    // Over more than three decades only the decades are ticked (a 260 px axis holds no more).
    expect(logAxis([0.2, 4000])?.ticks).toEqual([0.1, 1, 10, 100, 1000, 10000])
  })

  it('has no log axis without a positive value', () => {
    expect(logAxis([])).toBeNull()
    expect(logAxis([0, -1, Number.NaN])).toBeNull()
  })
})

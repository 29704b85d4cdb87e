import { describe, expect, it } from 'vitest'
import type { SeriesPoint } from '../api/types.ts'
import { downsampleSeries } from './downsample.ts'

function point(
  target: string,
  t: number,
  requests: number,
  p50: number,
  p99: number,
  cpu: number | null = null,
): SeriesPoint {
  return {
    target,
    round: 1,
    t,
    phase: 'main',
    connections: 10,
    requests,
    responses: requests - (t % 2),
    errors: t % 2,
    errorsByKind: t % 2 ? { timeout: 1 } : {},
    bytes: requests * 100,
    mean: p50,
    p50,
    p90: p99,
    p95: p99,
    p99,
    p999: p99,
    max: p99 * 2,
    generatorCpu: cpu,
  }
}

describe('downsampleSeries', () => {
  it('keeps short groups as they are', () => {
    const pts = [point('a', 0, 10, 1, 2), point('a', 1, 10, 1, 2)]
    expect(downsampleSeries(pts, 10)).toEqual(pts)
  })

  it('averages rates, weights typical values by responses and keeps tail maxima', () => {
    const pts = [
      point('a', 0, 100, 1000, 5000, 0.2),
      point('a', 1, 300, 2000, 90000, 0.9),
      point('a', 2, 200, 1000, 4000),
    ]
    const [one] = downsampleSeries(pts, 1)
    expect(one).toMatchObject({
      t: 0,
      requests: 200,
      bytes: 20000,
      errors: 1 / 3,
      connections: 10,
      p99: 90000,
      max: 180000,
    })
    expect(one?.responses).toBeCloseTo(599 / 3)
    expect(one?.p50).toBeCloseTo((100 * 1000 + 299 * 2000 + 200 * 1000) / 599)
    expect(one?.errorsByKind.timeout).toBeCloseTo(1 / 3)
    expect(one?.generatorCpu).toBe(0.9)
  })

  it('has no latency where no second had a response, and takes tails from those that had', () => {
    const silent = (t: number): SeriesPoint => ({
      ...point('a', t, 50, 0, 0),
      responses: 0,
      mean: null,
      p50: null,
      p90: null,
      p95: null,
      p99: null,
      p999: null,
      max: null,
    })
    const [none] = downsampleSeries([silent(0), silent(1)], 1)
    expect(none).toMatchObject({ requests: 50, responses: 0, p50: null, p99: null, max: null })
    const [some] = downsampleSeries([silent(0), point('a', 1, 10, 3000, 7000)], 1)
    expect(some).toMatchObject({ p50: 3000, p99: 7000, max: 14000 })
  })

  it('downsamples each target and round on its own', () => {
    const pts = [
      ...Array.from({ length: 100 }, (_, t) => point('a', t, 1, 1, 1)),
      ...Array.from({ length: 7 }, (_, t) => point('b', t, 1, 1, 1)),
    ]
    const out = downsampleSeries(pts, 10)
    expect(out.filter((p) => p.target === 'a')).toHaveLength(10)
    expect(out.filter((p) => p.target === 'b')).toHaveLength(7)
  })
})

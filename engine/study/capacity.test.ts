// Capacity at a latency target on points the test writes: the highest throughput under the
// target, its interval over rounds, the rounds that met it alone, the value that broke it; and the
// sweeps a latency target is refused on, naming the field.
import { describe, expect, it } from 'vitest'
import { configIssues } from '../testing/config.ts'
import { capacityOf, type CapacityPoint } from './capacity.ts'

const point = (
  value: number,
  throughput: number,
  p99Ms: number,
  rounds: [number, number][] = [],
): CapacityPoint => ({
  value,
  label: String(value),
  runId: value,
  throughput,
  latencyUs: p99Ms * 1000,
  rounds: rounds.length
    ? rounds.map(([t, ms]) => ({ throughput: t, latencyUs: ms * 1000 }))
    : [{ throughput, latencyUs: p99Ms * 1000 }],
})

describe('capacity at a latency target', () => {
  it('is the highest throughput whose percentile stays under the target, with its interval over rounds', () => {
    const c = capacityOf(
      'java',
      'rate',
      [
        point(100, 100, 12),
        point(300, 298, 30, [
          [296, 28],
          [300, 31],
          [298, 52],
        ]),
        point(200, 199, 20),
        point(500, 390, 900),
      ],
      { metric: 'p99', ms: 50 },
    )
    expect(c).toMatchObject({
      value: 300,
      label: '300',
      runId: 300,
      throughput: 298,
      rounds: 3,
      roundsMet: 2,
    })
    // mean 298, sd 2, t(2) 4.303: 298 ± 4.97.
    expect(c.interval![0]).toBeCloseTo(293.03, 1)
    expect(c.interval![1]).toBeCloseTo(302.97, 1)
    expect(c.next).toEqual({ label: '500', latencyUs: 900_000 })
    expect(c.sentence).toBe(
      'java: 298.0 req/s (95 % CI 293.0–303.0) at rate=300 with p99 30.00 ms, under its 50 ms target (2 of 3 rounds under it on their own); at rate=500 p99 was 900.00 ms.',
    )
  })

  it('takes the most throughput, not the last value under the target', () => {
    // Past the knee throughput falls while p99 still meets a loose target.
    const c = capacityOf('t', 'connections', [point(8, 400, 20), point(16, 380, 45)], {
      metric: 'p99',
      ms: 50,
    })
    expect(c.value).toBe(8)
    expect(c.next).toBeNull()
  })

  it('says so when no value met the target', () => {
    const c = capacityOf('t', 'connections', [point(1, 50, 70), point(2, 90, 80)], {
      metric: 'p99.9',
      ms: 50,
    })
    expect(c.value).toBeNull()
    expect(c.sentence).toBe(
      't: no connections kept p99.9 under 50 ms (the lowest: 70.00 ms at connections=1).',
    )
  })

  it('is asked for with one percentile in ms, on a sweep over numbers', () => {
    const sweep = (extra: Record<string, unknown>, values: unknown[] = [1, 2]) => ({
      version: 1,
      name: 's',
      targets: [{ name: 't', url: 'http://127.0.0.1:9/' }],
      load: { connections: 1, duration: 1 },
      sweep: { path: 'load.connections', values, ...extra },
    })
    expect(configIssues(sweep({ slo: { p99: 50 } }))).toEqual([])
    expect(configIssues(sweep({ slo: { p99: 50, p50: 10 } }))).toEqual([
      'sweep.slo: name one percentile and its target in ms, e.g. { p99: 50 } (got 2)',
    ])
    expect(configIssues(sweep({ slo: { p99: -1 } }))[0]).toMatch(/^sweep\.slo\.p99: must be greater than 0/)
    expect(configIssues(sweep({ slo: { p98: 5 } }))[0]).toMatch(/^sweep\.slo/)
    expect(
      configIssues(sweep({ path: 'targets.0.url', slo: { p99: 50 } }, ['http://a/', 'http://b/'])),
    ).toContain(
      'sweep.slo: needs a sweep over numbers (connections, a rate…): the highest throughput under the target is read along them',
    )
  })
})

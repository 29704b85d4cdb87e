// A run's resources in figures (resource-summary.ts) on samples whose truth the test sets: a Node.js
// cluster's primary and two workers (the workers at 56 % each, sampled twice in some seconds),
// a worker that started late (its first CPU value a second after its first sample), a postgres
// monitor's connections, and the generator, which is no target.
import { describe, expect, it } from 'vitest'
import type { ResourcePoint } from '../api/types.ts'
import { resourceSummary } from './resource-summary.ts'

// `t` is the second a sample was read in; it is stored half a second on, in the second it covers
// (sampleSecond: a reading covers the second before it).
const sample = (t: number, instance: string, cpu: number | null, mb: number | null): ResourcePoint => ({
  t: t + 0.5,
  target: 'cluster',
  source: 'process',
  instance,
  cpuPercent: cpu,
  memoryBytes: mb === null ? null : mb * 2 ** 20,
  connections: null,
})

describe('resourceSummary', () => {
  it('gives each instance and their sum, mean and peak over the target’s seconds under load', () => {
    const points: ResourcePoint[] = []
    for (let t = -2; t < 10; t++) {
      points.push(sample(t + 0.1, 'pid 100 (primary)', 2, 50))
      // Worker 1 at 56 %; sampled twice a second from t = 0 (the mean of the second counts once).
      points.push(sample(t + 0.2, 'pid 101', 56, 80))
      if (t >= 0) points.push(sample(t + 0.7, 'pid 101', 56, 80))
      // Worker 2 starts at t = 3: no CPU in its first second, then 50 % and, at t = 8, 62 %.
      if (t >= 3) points.push(sample(t + 0.3, 'pid 102', t === 3 ? null : t === 8 ? 62 : 50, 70))
    }
    points.push({ ...sample(4.5, 'active', null, null), source: 'postgres', connections: 6 })
    points.push({ ...sample(4.9, 'active', null, null), source: 'postgres', connections: 8 })
    points.push({ ...sample(5.5, 'active', null, null), source: 'postgres', connections: 4 })
    points.push({ ...sample(5, 'generator', 90, 10), target: 'generator', source: 'generator' })
    // Under load: seconds 0 … 9 (the idle baseline before the start is left out).
    const series = Array.from({ length: 10 }, (_, t) => ({ target: 'cluster', t }))
    const [cluster, ...others] = resourceSummary(points, series)
    expect(others).toEqual([])
    expect(cluster!.seconds).toBe(10)
    const by = (name: string) => cluster!.instances.find((i) => i.instance === name)!
    expect(by('pid 100 (primary)').cpu).toEqual({ mean: 2, peak: 2 })
    expect(by('pid 101').cpu).toEqual({ mean: 56, peak: 56 })
    // Seconds 4 … 9: five at 50 and one at 62.
    expect(by('pid 102').cpu!.mean).toBeCloseTo((5 * 50 + 62) / 6, 10)
    expect(by('pid 102')).toMatchObject({ firstSampleAt: 3, firstCpuAt: 4 })
    expect(by('pid 102').memory).toEqual({ mean: 70 * 2 ** 20, peak: 70 * 2 ** 20 })
    // The sum, second by second: 58 before worker 2's first CPU value, 108 after, 120 at t = 8.
    const sums = [58, 58, 58, 58, 108, 108, 108, 108, 120, 108]
    expect(cluster!.sum.cpu!.mean).toBeCloseTo(sums.reduce((s, x) => s + x, 0) / 10, 10)
    expect(cluster!.sum.cpu!.peak).toBe(120)
    expect(cluster!.sum.memory!.peak).toBe((50 + 80 + 70) * 2 ** 20)
    // Connections: a count at an instant, the largest in a second (8 at t = 4, 4 at t = 5).
    expect(cluster!.connections).toEqual([{ state: 'active', mean: 6, peak: 8 }])
  })
})

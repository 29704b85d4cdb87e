// The run page's CPU and memory lines: a target of several instances (a cluster's primary and two
// workers) is each instance and the sum; a monitor sampling twice in a second counts its mean
// once; a worker's first CPU value a second after it started is reported as such.
import { describe, expect, it } from 'vitest'
import type { ResourcePoint } from '#engine/api/types.ts'
import { resourceRows } from './resource-rows.ts'

// `t` is the second a sample was read in; it is stored half a second on, in the second it covers
// (engine/metrics/resource-summary.ts sampleSecond: a reading covers the second before it).
const p = (t: number, instance: string, cpu: number | null, target = 'cluster'): ResourcePoint => ({
  t: t + 0.5,
  target,
  source: 'process',
  instance,
  cpuPercent: cpu,
  memoryBytes: 64 * 2 ** 20,
  connections: null,
})

describe('resourceRows', () => {
  it('draws each instance beside the sum, a second’s samples as their mean', () => {
    const rows = resourceRows([
      p(0.1, 'primary', 2),
      p(0.2, 'worker 1', 50),
      p(0.7, 'worker 1', 62),
      p(0.3, 'worker 2', null),
      p(1.1, 'primary', 2),
      p(1.2, 'worker 1', 56),
      p(1.3, 'worker 2', 56),
      p(1.4, 'single', 30, 'other'),
    ])
    expect(rows.cpu).toEqual([
      { t: 0, cluster: 58, 'cluster · primary': 2, 'cluster · worker 1': 56 },
      {
        t: 1,
        cluster: 114,
        'cluster · primary': 2,
        'cluster · worker 1': 56,
        'cluster · worker 2': 56,
        other: 30,
      },
    ])
    expect(rows.instances.map((i) => i.key)).toEqual([
      'cluster · primary',
      'cluster · worker 1',
      'cluster · worker 2',
    ])
    expect(rows.memory[0]).toMatchObject({ cluster: 192, 'cluster · worker 2': 64 })
    // A target of one instance is its own line; no instance line for it.
    expect(rows.targets).toEqual(['cluster', 'other'])
    expect(rows.firstCpu.get('cluster · worker 2')).toBe(1)
    expect(rows.firstCpu.get('cluster · primary')).toBe(0)
  })
})

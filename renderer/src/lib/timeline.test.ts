// One timeline rule for resource samples (issue 28, Must 5), on the run page's CPU chart and
// Compare's throughput against CPU: samples at known fractions of seconds land on the second they
// cover (engine/metrics/resource-summary.ts sampleSecond), the same seconds as the study page, the CSV and
// the PDF (engine/exports/timeline.test.ts holds those to the same samples and seconds).
import { describe, expect, it } from 'vitest'
import type { ResourcePoint } from '#engine/api/types.ts'
import { testPoint } from '#engine/testing/series-point.ts'
import { resourceRows } from './resource-rows.ts'
import { throughputVsResources } from './series.ts'

const SAMPLES: [t: number, cpu: number][] = [
  [2.2, 10],
  [2.67, 20],
  [3.0, 30],
  [3.5, 40],
  [4.99, 50],
]
const BY_SECOND: [number, number][] = [
  [1, 10],
  [2, 25],
  [3, 40],
  [4, 50],
]

describe('resource samples on the run page and in Compare', () => {
  const points: ResourcePoint[] = SAMPLES.map(([t, cpu]) => ({
    t,
    target: 'api',
    source: 'docker',
    instance: 'c1',
    cpuPercent: cpu,
    memoryBytes: null,
    connections: null,
  }))

  it('the CPU chart: each second holds the samples that cover it', () => {
    expect(resourceRows(points).cpu.map((r) => [r.t, r.api])).toEqual(BY_SECOND)
  })

  it("throughput against CPU: each second's throughput beside the same second's CPU", () => {
    // Throughput 100 + t in second t: which second a CPU value was paired with is readable.
    const series = [0, 1, 2, 3, 4, 5].map((t) => testPoint('api', t))
    const { cpu } = throughputVsResources(series, points, 'api')
    expect(cpu.map((c) => [c.x - 100, c.y])).toEqual(BY_SECOND)
  })
})

// A monitor's named series on the run page (issue 28, Must 7): a chart per unit, a line per target
// and series named in the legend, each on the second its samples cover, instances summed (sizes) or
// averaged (times), scaled to the unit every screen shows.
import { describe, expect, it } from 'vitest'
import type { ResourcePoint } from '#engine/api/types.ts'
import { metricCharts } from './metrics.ts'

const m = (t: number, instance: string, metric: string, value: number): ResourcePoint => ({
  t,
  target: 'api',
  source: 'prometheus',
  instance,
  cpuPercent: null,
  memoryBytes: null,
  connections: null,
  metric,
  value,
})

describe('metricCharts', () => {
  it('one chart per unit, a named line per series, values as every screen shows them', () => {
    const charts = metricCharts([
      m(2.6, 'a', 'heap_bytes', 2 ** 20),
      m(2.6, 'b', 'heap_bytes', 2 ** 20),
      m(2.6, 'a', 'event_loop_lag_seconds', 0.002),
      m(2.6, 'b', 'event_loop_lag_seconds', 0.004),
      m(2.7, 'a', 'requests_in_flight', 3),
      m(3.6, 'a', 'heap_bytes', 3 * 2 ** 20),
      { ...m(3.6, 'a', 'x', 1), metric: undefined, cpuPercent: 50 },
    ])
    expect(charts.map((c) => [c.unit, c.keys])).toEqual([
      ['MiB', ['api · heap_bytes']],
      ['ms', ['api · event_loop_lag_seconds']],
      ['', ['api · requests_in_flight']],
    ])
    expect(charts[0]!.rows).toEqual([
      { t: 2, 'api · heap_bytes': 2 },
      { t: 3, 'api · heap_bytes': 3 },
    ])
    expect(charts[1]!.rows[0]!['api · event_loop_lag_seconds']).toBeCloseTo(3, 10)
    expect(charts[2]!.rows).toEqual([{ t: 2, 'api · requests_in_flight': 3 }])
  })
})

// The study page's "against throughput" chart: which series it offers and the points it draws,
// scaled into the unit the report uses for the same series.
import { describe, expect, it } from 'vitest'
import type { StudyResults, SweepPoint } from '#engine/api/types.ts'
import { seriesMetrics, seriesSets } from './seriesPlot.ts'

const point = (value: number, throughput: number, series: SweepPoint['series']): SweepPoint => ({
  value,
  label: String(value),
  runId: value,
  throughput,
  p50: 1,
  p95: 1,
  p99: 1,
  errorRate: 0,
  rounds: 1,
  spread: { throughput: 0, p99: 0 },
  series,
})

const line = (target: string, points: SweepPoint[]): StudyResults['targets'][number] => ({
  target,
  by: null,
  points,
  knee: null,
  capacity: null,
  sentence: '',
})

describe('a study’s series against throughput', () => {
  const lines = [
    line('jetty', [
      point(32, 2000, [
        { metric: 'cpu_percent', mean: 150, seconds: 5 },
        { metric: 'heap_bytes', mean: 200 * 2 ** 20, seconds: 5 },
      ]),
      point(8, 900, [{ metric: 'heap_bytes', mean: 100 * 2 ** 20, seconds: 5 }]),
    ]),
    line('node', [point(8, 1200, [{ metric: 'event_loop_lag_seconds', mean: 0.0025, seconds: 5 }])]),
  ]

  it('offers the named series first, then CPU and memory where any point has them', () => {
    expect(seriesMetrics(lines)).toEqual(['event_loop_lag_seconds', 'heap_bytes', 'cpu_percent'])
    expect(seriesMetrics([line('x', [point(1, 1, [])])])).toEqual([])
  })

  it('draws each line’s points in the study’s order, in the series’ unit; a point without it is left out', () => {
    expect(seriesSets(lines, 'heap_bytes', (l) => l.target)).toEqual([
      {
        label: 'jetty',
        unit: 'MiB',
        points: [
          { x: 900, y: 100 },
          { x: 2000, y: 200 },
        ],
      },
      { label: 'node', unit: 'MiB', points: [] },
    ])
    expect(seriesSets(lines, 'event_loop_lag_seconds', (l) => l.target)[1]).toEqual({
      label: 'node',
      unit: 'ms',
      points: [{ x: 1200, y: 2.5 }],
    })
  })
})

// A monitor's named series (a Prometheus query's, a preset's heap_bytes, gc_pause_ratio,
// event_loop_lag_seconds…) for the run page's and the live view's charts: one chart per unit (MiB,
// ms, %, plain values), a line per target and series, named in the legend. Each instance's mean in
// the second it covers (sampleSecond), its instances summed or averaged as the series' unit says
// (seriesAggregate), scaled to the unit as every screen shows it (seriesUnit): the study page, the
// report and `export csv --series` (its metric_<name> columns) read the same values.
import type { ResourcePoint } from '#engine/api/types.ts'
import { sampleSecond } from '#engine/metrics/resource-summary.ts'
import { seriesAggregate, seriesUnit } from '#engine/metrics/units.ts'
import type { Row } from './chart-types.ts'

export interface MetricChart {
  /** The unit its values are shown in ('' for plain values). */
  unit: string
  rows: Row[]
  /** A line per target and series: `target · metric`. */
  keys: string[]
}

export function metricCharts(points: readonly ResourcePoint[]): MetricChart[] {
  // key → second → instance → readings
  const cells = new Map<string, { metric: string; seconds: Map<number, Map<string, number[]>> }>()
  for (const p of points) {
    if (!p.metric || p.value === null || p.value === undefined) continue
    const key = `${p.target} · ${p.metric}`
    const entry = cells.get(key) ?? { metric: p.metric, seconds: new Map<number, Map<string, number[]>>() }
    const t = sampleSecond(p.t)
    const at = entry.seconds.get(t) ?? new Map<string, number[]>()
    at.set(p.instance, [...(at.get(p.instance) ?? []), p.value])
    entry.seconds.set(t, at)
    cells.set(key, entry)
  }
  const charts = new Map<string, { rows: Map<number, Row>; keys: string[] }>()
  for (const [key, { metric, seconds }] of cells) {
    const { unit, scale } = seriesUnit(metric)
    const chart = charts.get(unit) ?? { rows: new Map<number, Row>(), keys: [] }
    chart.keys.push(key)
    for (const [t, byInstance] of seconds) {
      const means = [...byInstance.values()].map((xs) => xs.reduce((a, x) => a + x, 0) / xs.length)
      const sum = means.reduce((a, x) => a + x, 0)
      const value = seriesAggregate(metric) === 'mean' ? sum / means.length : sum
      const row = chart.rows.get(t) ?? { t }
      row[key] = value * scale
      chart.rows.set(t, row)
    }
    charts.set(unit, chart)
  }
  return [...charts].map(([unit, c]) => ({
    unit,
    keys: c.keys,
    rows: [...c.rows.values()].sort((a, b) => a.t - b.t),
  }))
}

// A study's monitored figures against throughput (engine/study/series.ts): which series its points
// carry, and one set of (throughput, value) points per line, in the study's order, each value in
// the unit its Prometheus suffix gives it (engine/metrics/units.ts, as the report scales it).
import type { StudyResults } from '#engine/api/types.ts'
import { seriesUnit } from '#engine/metrics/units.ts'

type Line = StudyResults['targets'][number]

/** The series any point of the lines carries: named ones first (what a Prometheus monitor brought), then CPU and memory. */
export function seriesMetrics(lines: readonly Line[]): string[] {
  const all = [
    ...new Set(lines.flatMap((l) => l.points.flatMap((p) => (p.series ?? []).map((f) => f.metric)))),
  ]
  const own = ['cpu_percent', 'memory_bytes']
  return [...all.filter((m) => !own.includes(m)).sort(), ...own.filter((m) => all.includes(m))]
}

/** Each line's points: x = the point's throughput, y = the series' mean in its display unit. */
export function seriesSets(
  lines: readonly Line[],
  metric: string,
  name: (l: Line) => string,
): { label: string; points: { x: number; y: number }[]; unit: string }[] {
  const { unit, scale } = seriesUnit(metric)
  return lines.map((l) => ({
    label: name(l),
    unit,
    points: [...l.points]
      .sort((a, b) => a.value - b.value)
      .flatMap((p) => {
        const f = p.series?.find((x) => x.metric === metric)
        return f ? [{ x: p.throughput, y: f.mean * scale }] : []
      }),
  }))
}

// CPU, memory and database connections of a run's targets (and the load generator's own CPU),
// shared by the live view and run detail. Each target is its sum; a target with several
// instances (a process tree's processes, a replicated stack's containers) also shows each
// instance as its own line in the target's colour, lighter and dashed. An instance's first CPU
// value comes a second or two after it starts (a CPU % is the difference of two readings): the
// note under the charts says when each one's first came.
import { memo, useMemo } from 'react'
import type { ResourcePoint } from '#engine/api/types.ts'
import { colour, colourFor, tint } from '../../lib/format.ts'
import { resourceRows } from '../../lib/resource-rows.ts'
import { metricCharts } from '../../lib/metrics.ts'
import { dbConnectionRows } from '../../lib/series.ts'
import { TimeChart } from '../../ui/charts/TimeChart.tsx'
import type { Marker, SeriesDef } from '../../lib/chart-types.ts'

function useResourceCharts(
  resources: readonly ResourcePoint[],
  keys: readonly string[],
  targets?: readonly string[],
) {
  return useMemo(() => {
    const colourOf = colourFor(targets ?? keys)
    const res = resourceRows(resources)
    const several = new Set(res.instances.map((i) => i.target))
    // Sources that are not a target (the generator) get colours after the targets', dashed.
    const sums: SeriesDef[] = res.targets.map((t) => {
      const known = keys.includes(t) || (targets ?? []).includes(t)
      return { key: t, label: several.has(t) ? `${t} (sum)` : t, colour: colourOf(t), dashed: !known }
    })
    const lines: SeriesDef[] = res.instances.map((i, n) => ({
      key: i.key,
      label: i.key,
      colour: tint(colourOf(i.target), 0.3 + 0.15 * (n % 3)),
      dashed: true,
    }))
    const db = dbConnectionRows(resources)
    const dbSeries: SeriesDef[] = db.keys.map((k, i) => ({ key: k, label: k, colour: colour(i + 1) }))
    // A monitor's named series: a chart per unit, a line per target and series.
    const metrics = metricCharts(resources).map((m) => ({
      ...m,
      series: m.keys.map((k, i): SeriesDef => ({ key: k, label: k, colour: colour(i) })),
    }))
    return { res, series: [...sums, ...lines], db, dbSeries, metrics }
  }, [resources, keys, targets])
}

function ResourceChartsImpl({
  resources,
  keys,
  targets,
  markers,
  prefix,
}: {
  resources: readonly ResourcePoint[]
  /** The series' targets, in order. */
  keys: readonly string[]
  targets?: readonly string[]
  markers: readonly Marker[]
  prefix: string
}) {
  const { res, series, db, dbSeries, metrics } = useResourceCharts(resources, keys, targets)
  const count = (v: number) => String(Math.round(v))
  const firsts = res.instances.filter((i) => res.firstCpu.has(i.key))
  return (
    <>
      {res.cpu.length > 0 ? (
        <TimeChart
          title="CPU (%) — targets (each instance and their sum) and the load generator"
          rows={res.cpu}
          series={series}
          markers={markers}
          testId={`${prefix}-chart-cpu`}
          unit="%"
        />
      ) : null}
      {res.memory.length > 0 ? (
        <TimeChart
          title="Memory (MiB) — each instance and their sum"
          rows={res.memory}
          series={series}
          markers={markers}
          testId={`${prefix}-chart-memory`}
          unit="MiB"
        />
      ) : null}
      {firsts.length > 0 ? (
        <p className="muted small" data-testid={`${prefix}-cpu-note`}>
          An instance's CPU % is the difference of two readings, so its first value comes a second or two
          after it starts: {firsts.map((i) => `${i.key} from ${res.firstCpu.get(i.key) ?? 0} s`).join(', ')}{' '}
          after the run's start.
        </p>
      ) : null}
      {db.rows.length > 0 ? (
        <TimeChart
          title="Database connections by state"
          rows={db.rows}
          series={dbSeries}
          markers={markers}
          testId={`${prefix}-chart-db-connections`}
          format={count}
          integer
          yLabel="connections"
        />
      ) : null}
      {metrics.map((m) => (
        <TimeChart
          key={m.unit}
          title={`Monitored series${m.unit ? ` (${m.unit})` : ''}: ${m.keys.join(', ')}`}
          rows={m.rows}
          series={m.series}
          markers={markers}
          testId={`${prefix}-chart-metric-${m.unit === '%' ? 'percent' : m.unit || 'value'}`}
          {...(m.unit ? { unit: m.unit } : {})}
        />
      ))}
    </>
  )
}

export const ResourceCharts = memo(ResourceChartsImpl)

// The per-second charts of a run, shared by the live view and the run detail: throughput,
// latency p50/p95/p99, errors by kind, active connections, and CPU/memory when sampled.
import { memo, useMemo } from 'react'
import type { ResourcePoint, SeriesPoint } from '../../../../engine/api/types.ts'
import { colour, msValue } from '../../lib/format.ts'
import {
  dbConnectionRows,
  errorRows,
  keysOf,
  mergeRows,
  phaseMarkers,
  pivot,
  resourceRows,
} from '../../lib/series.ts'
import { TimeChart, type SeriesDef } from '../../ui/charts.tsx'

function RunChartsImpl({
  points,
  resources,
  prefix,
}: {
  points: readonly SeriesPoint[]
  resources: readonly ResourcePoint[]
  prefix: string
}) {
  const charts = useMemo(() => {
    const keys = keysOf(points)
    const markers = phaseMarkers(points)
    const throughput = pivot(points, (p) => p.requests)
    const connections = pivot(points, (p) => p.connections)
    const latency = mergeRows(
      pivot(points, (p) => msValue(p.p50), ' p50'),
      pivot(points, (p) => msValue(p.p95), ' p95'),
      pivot(points, (p) => msValue(p.p99), ' p99'),
    )
    const perKey: SeriesDef[] = keys.map((k, i) => ({ key: k, label: k, colour: colour(i) }))
    const latencySeries: SeriesDef[] = keys.flatMap((k, i) => [
      { key: `${k} p50`, label: `${k} p50`, colour: colour(i), dashed: true },
      { key: `${k} p95`, label: `${k} p95`, colour: colour(i) },
      { key: `${k} p99`, label: `${k} p99`, colour: colour(i + 4) },
    ])
    const errors = errorRows(points)
    const res = resourceRows(resources)
    // A target keeps its colour from the other charts; other sources (the generator) get the next ones.
    let extra = keys.length
    const resSeries: SeriesDef[] = res.targets.map((t) => {
      const i = keys.findIndex((k) => k === t || k.startsWith(`${t} · `))
      return { key: t, label: t, colour: colour(i >= 0 ? i : extra++), dashed: i < 0 }
    })
    const db = dbConnectionRows(resources)
    const dbSeries: SeriesDef[] = db.keys.map((k, i) => ({ key: k, label: k, colour: colour(i + 1) }))
    return {
      markers,
      throughput,
      connections,
      latency,
      perKey,
      latencySeries,
      errors,
      res,
      resSeries,
      db,
      dbSeries,
    }
  }, [points, resources])

  return (
    <div className="charts">
      <TimeChart
        title="Throughput (requests/s)"
        rows={charts.throughput}
        series={charts.perKey}
        markers={charts.markers}
        testId={`${prefix}-chart-throughput`}
        format={(v) => String(Math.round(v))}
        integer
      />
      <TimeChart
        title="Latency p50 / p95 / p99 (ms)"
        rows={charts.latency}
        series={charts.latencySeries}
        markers={charts.markers}
        testId={`${prefix}-chart-latency`}
        unit="ms"
      />
      <TimeChart
        title="Errors by kind (per second)"
        rows={charts.errors.rows}
        series={charts.errors.kinds.map((k, i) => ({ key: k, label: k, colour: colour(i + 1) }))}
        markers={charts.markers}
        testId={`${prefix}-chart-errors`}
        stacked
        integer
        emptyText="No errors"
        format={(v) => String(Math.round(v))}
      />
      <TimeChart
        title="Active connections"
        rows={charts.connections}
        series={charts.perKey}
        markers={charts.markers}
        testId={`${prefix}-chart-connections`}
        format={(v) => String(Math.round(v))}
        integer
      />
      {charts.res.cpu.length > 0 ? (
        <TimeChart
          title="CPU (%) — targets and the load generator"
          rows={charts.res.cpu}
          series={charts.resSeries}
          markers={charts.markers}
          testId={`${prefix}-chart-cpu`}
          unit="%"
        />
      ) : null}
      {charts.res.memory.length > 0 ? (
        <TimeChart
          title="Memory (MiB)"
          rows={charts.res.memory}
          series={charts.resSeries}
          markers={charts.markers}
          testId={`${prefix}-chart-memory`}
          unit="MiB"
        />
      ) : null}
      {charts.db.rows.length > 0 ? (
        <TimeChart
          title="Database connections by state"
          rows={charts.db.rows}
          series={charts.dbSeries}
          markers={charts.markers}
          testId={`${prefix}-chart-db-connections`}
          format={(v) => String(Math.round(v))}
          integer
        />
      ) : null}
    </div>
  )
}

export const RunCharts = memo(RunChartsImpl)

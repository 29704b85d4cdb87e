// The per-second charts of a run, shared by the live view and the run detail: throughput
// (responses per second), latency p50/p99 of the responses, errors by kind, active
// connections, and CPU/memory when sampled. A target keeps one colour (engine/report/palette.ts).
// Live, the charts follow the run's timeline; on a finished run (`overlay`) throughput and
// latency overlay the rounds of each target, aligned at their start: one line (their mean) with a
// band from the lowest to the highest round. A second without a response has no latency: a gap,
// never 0 ms.
import { memo, useMemo } from 'react'
import type { ResourcePoint, SeriesPoint } from '../../../../engine/api/types.ts'
import { colour, colourFor, msValue } from '../../lib/format.ts'
import { hasRounds, mergeBandRows, roundBands } from '../../lib/rounds.ts'
import {
  dbConnectionRows,
  errorRows,
  keysOf,
  mergeRows,
  phaseMarkers,
  pivot,
  resourceRows,
} from '../../lib/series.ts'
import { BandChart } from '../../ui/charts/BandChart.tsx'
import { TimeChart } from '../../ui/charts/TimeChart.tsx'
import type { SeriesDef } from '../../ui/charts/types.ts'

const ms = (us: number | null): number | null => (us === null ? null : msValue(us))

function RunChartsImpl({
  points,
  resources,
  prefix,
  targets,
  overlay = false,
}: {
  points: readonly SeriesPoint[]
  resources: readonly ResourcePoint[]
  prefix: string
  /** The run's targets in config order: their colours. */
  targets?: readonly string[]
  /** Overlay each target's rounds (throughput and latency) instead of the run's timeline. */
  overlay?: boolean
}) {
  const charts = useMemo(() => {
    const keys = keysOf(points)
    const colourOf = colourFor(targets ?? keys)
    const markers = phaseMarkers(points)
    const bands = overlay && hasRounds(points)
    const throughput = bands ? null : pivot(points, (p) => p.responses)
    const latency = bands
      ? null
      : mergeRows(
          pivot(points, (p) => ms(p.p50), ' p50'),
          pivot(points, (p) => ms(p.p99), ' p99'),
        )
    const throughputBands = bands ? roundBands(points, (p) => p.responses) : null
    const latencyBands = bands
      ? mergeBandRows(
          roundBands(points, (p) => ms(p.p50), undefined, ' p50'),
          roundBands(points, (p) => ms(p.p99), undefined, ' p99'),
        )
      : null
    const connections = pivot(points, (p) => p.connections)
    const perKey: SeriesDef[] = keys.map((k) => ({ key: k, label: k, colour: colourOf(k) }))
    // In the target's colour: p50 dashed, p99 solid (the tables have every percentile).
    const latencySeries: SeriesDef[] = keys.flatMap((k) => [
      { key: `${k} p50`, label: `${k} p50`, colour: colourOf(k), dashed: true },
      { key: `${k} p99`, label: `${k} p99`, colour: colourOf(k) },
    ])
    const errors = errorRows(points)
    const res = resourceRows(resources)
    // Sources that are not a target (the generator) get colours after the targets', dashed.
    const resSeries: SeriesDef[] = res.targets.map((t) => {
      const known = keys.includes(t) || (targets ?? []).includes(t)
      return { key: t, label: t, colour: colourOf(t), dashed: !known }
    })
    const db = dbConnectionRows(resources)
    const dbSeries: SeriesDef[] = db.keys.map((k, i) => ({ key: k, label: k, colour: colour(i + 1) }))
    return {
      markers,
      throughput,
      throughputBands,
      connections,
      latency,
      latencyBands,
      perKey,
      latencySeries,
      errors,
      res,
      resSeries,
      db,
      dbSeries,
    }
  }, [points, resources, targets, overlay])

  const count = (v: number) => String(Math.round(v))
  return (
    <div className="charts">
      {charts.throughputBands ? (
        <BandChart
          title="Throughput (responses/s), rounds overlaid: mean line, lowest–highest round shaded"
          rows={charts.throughputBands}
          series={charts.perKey}
          testId={`${prefix}-chart-throughput`}
          format={count}
          integer
          yLabel="responses/s"
        />
      ) : (
        <TimeChart
          title="Throughput (responses/s; errors without an answer not counted)"
          rows={charts.throughput ?? []}
          series={charts.perKey}
          markers={charts.markers}
          testId={`${prefix}-chart-throughput`}
          format={count}
          integer
          yLabel="responses/s"
        />
      )}
      {charts.latencyBands ? (
        <BandChart
          title="Latency p50 / p99 of the responses (ms), rounds overlaid"
          rows={charts.latencyBands}
          series={charts.latencySeries}
          testId={`${prefix}-chart-latency`}
          unit="ms"
        />
      ) : (
        <TimeChart
          title="Latency p50 / p99 of the responses (ms)"
          rows={charts.latency ?? []}
          series={charts.latencySeries}
          markers={charts.markers}
          testId={`${prefix}-chart-latency`}
          unit="ms"
          emptyText="No responses yet"
        />
      )}
      <TimeChart
        title="Errors by kind (per second)"
        rows={charts.errors.rows}
        series={charts.errors.kinds.map((k, i) => ({ key: k, label: k, colour: colour(-1 - i) }))}
        markers={charts.markers}
        testId={`${prefix}-chart-errors`}
        yLabel="errors/s"
        stacked
        integer
        emptyText="No errors"
        format={count}
      />
      <TimeChart
        title="Active connections"
        rows={charts.connections}
        series={charts.perKey}
        markers={charts.markers}
        testId={`${prefix}-chart-connections`}
        format={count}
        integer
        yLabel="connections"
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
          format={count}
          integer
          yLabel="connections"
        />
      ) : null}
    </div>
  )
}

export const RunCharts = memo(RunChartsImpl)

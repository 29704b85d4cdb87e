// The per-second charts of a run, shared by the live view and the run detail: throughput
// (responses per second), latency p50/p99 of the responses, errors by kind, active connections,
// and CPU/memory when sampled (ResourceCharts.tsx: each instance and their sum). A target keeps
// one colour (engine/report/palette.ts). Live, the charts follow the run's timeline; on a finished
// run (`overlay`) throughput and latency overlay the rounds of each target, aligned at their
// start: one line (their mean) with a band from the lowest to the highest round. A second without
// a response has no latency: a gap, never 0 ms.
import { memo, useMemo } from 'react'
import type { ResourcePoint, SeriesPoint, TargetRoundSummary } from '#engine/api/types.ts'
import { colour, colourFor, msValue } from '../../lib/format.ts'
import { hasRounds, mergeBandRows, roundBands, type BandRow } from '../../lib/rounds.ts'
import { errorRows, keysOf, mergeRows, phaseMarkers, pivot } from '../../lib/series.ts'
import { cutMarkers, roundCutMarkers } from '../../lib/steady.ts'
import { BandChart } from '../../ui/charts/BandChart.tsx'
import { TimeChart } from '../../ui/charts/TimeChart.tsx'
import type { Marker, Row, SeriesDef } from '../../lib/chart-types.ts'
import { ResourceCharts } from './ResourceCharts.tsx'

type Cut = Pick<TargetRoundSummary, 'target' | 'round' | 'steady'>
const NO_RESULTS: readonly Cut[] = []

const ms = (us: number | null): number | null => (us === null ? null : msValue(us))
const count = (v: number) => String(Math.round(v))

function useLoadCharts(
  points: readonly SeriesPoint[],
  targets: readonly string[] | undefined,
  overlay: boolean,
  results: readonly Cut[],
) {
  return useMemo(() => {
    const keys = keysOf(points)
    const colourOf = colourFor(targets ?? keys)
    const bands = overlay && hasRounds(points)
    const throughput: Row[] | BandRow[] = bands
      ? roundBands(points, (p) => p.responses)
      : pivot(points, (p) => p.responses)
    const latency: Row[] | BandRow[] = bands
      ? mergeBandRows(
          roundBands(points, (p) => ms(p.p50), undefined, ' p50'),
          roundBands(points, (p) => ms(p.p99), undefined, ' p99'),
        )
      : mergeRows(
          pivot(points, (p) => ms(p.p50), ' p50'),
          pivot(points, (p) => ms(p.p99), ' p99'),
        )
    // In the target's colour: p50 dashed, p99 solid (the tables have every percentile).
    const latencySeries: SeriesDef[] = keys.flatMap((k) => [
      { key: `${k} p50`, label: `${k} p50`, colour: colourOf(k), dashed: true },
      { key: `${k} p99`, label: `${k} p99`, colour: colourOf(k) },
    ])
    // Where load.warmup: auto found each warm-up ending replaces the phase marker at that second.
    const cuts = cutMarkers(results)
    const phases = phaseMarkers(points).filter((m) => !cuts.some((c) => c.t === m.t))
    return {
      keys,
      bands,
      markers: [...phases, ...cuts].sort((a, b) => a.t - b.t),
      bandMarkers: roundCutMarkers(results),
      throughput,
      latency,
      connections: pivot(points, (p) => p.connections),
      perKey: keys.map((k): SeriesDef => ({ key: k, label: k, colour: colourOf(k) })),
      latencySeries,
      errors: errorRows(points),
    }
  }, [points, targets, overlay, results])
}

/** A chart over the run's timeline, or its rounds overlaid with a band. */
function TimeOrBands(props: {
  bands: boolean
  title: string
  bandTitle: string
  rows: Row[] | BandRow[]
  series: SeriesDef[]
  markers: readonly Marker[]
  bandMarkers: readonly Marker[]
  testId: string
  unit?: string
  yLabel?: string
  emptyText?: string
}) {
  const counts = props.unit ? {} : { format: count, integer: true }
  return props.bands ? (
    <BandChart
      title={props.bandTitle}
      rows={props.rows as BandRow[]}
      series={props.series}
      markers={props.bandMarkers}
      testId={props.testId}
      unit={props.unit}
      yLabel={props.yLabel}
      {...counts}
    />
  ) : (
    <TimeChart
      title={props.title}
      rows={props.rows as Row[]}
      series={props.series}
      markers={props.markers}
      testId={props.testId}
      unit={props.unit}
      yLabel={props.yLabel}
      emptyText={props.emptyText}
      {...counts}
    />
  )
}

function RunChartsImpl({
  points,
  resources,
  prefix,
  targets,
  overlay = false,
  results = NO_RESULTS,
}: {
  points: readonly SeriesPoint[]
  resources: readonly ResourcePoint[]
  prefix: string
  /** The run's targets in config order: their colours. */
  targets?: readonly string[]
  /** Overlay each target's rounds (throughput and latency) instead of the run's timeline. */
  overlay?: boolean
  /** A finished run's rounds: where load.warmup: auto found each warm-up ending is marked. */
  results?: readonly Cut[]
}) {
  const c = useLoadCharts(points, targets, overlay, results)
  return (
    <div className="charts">
      <TimeOrBands
        bands={c.bands}
        title="Throughput (responses/s; errors without an answer not counted)"
        bandTitle="Throughput (responses/s), rounds overlaid: mean line, lowest–highest round shaded"
        rows={c.throughput}
        series={c.perKey}
        markers={c.markers}
        bandMarkers={c.bandMarkers}
        testId={`${prefix}-chart-throughput`}
        yLabel="responses/s"
      />
      <TimeOrBands
        bands={c.bands}
        title="Latency p50 / p99 of the responses (ms)"
        bandTitle="Latency p50 / p99 of the responses (ms), rounds overlaid"
        rows={c.latency}
        series={c.latencySeries}
        markers={c.markers}
        bandMarkers={c.bandMarkers}
        testId={`${prefix}-chart-latency`}
        unit="ms"
        emptyText="No responses yet"
      />
      <TimeChart
        title="Errors by kind (per second)"
        rows={c.errors.rows}
        series={c.errors.kinds.map((k, i) => ({ key: k, label: k, colour: colour(-1 - i) }))}
        markers={c.markers}
        testId={`${prefix}-chart-errors`}
        yLabel="errors/s"
        stacked
        integer
        emptyText="No errors"
        format={count}
      />
      <TimeChart
        title="Active connections"
        rows={c.connections}
        series={c.perKey}
        markers={c.markers}
        testId={`${prefix}-chart-connections`}
        format={count}
        integer
        yLabel="connections"
      />
      <ResourceCharts
        resources={resources}
        keys={c.keys}
        targets={targets}
        markers={c.markers}
        prefix={prefix}
      />
    </div>
  )
}

export const RunCharts = memo(RunChartsImpl)

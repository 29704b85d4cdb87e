// Lines with a shaded band each (rounds overlaid: the line is their mean, the band the lowest to
// the highest round). x is seconds since each round's start. A band has no legend entry of its own.
import { memo, type ReactNode } from 'react'
import { ComposedChart } from 'recharts'
import { duration } from '../../lib/format.ts'
import { bandKey, type BandRow } from '../../lib/rounds.ts'
import {
  chartLegend,
  chartTooltip,
  ChartFrame,
  grid,
  markerLines,
  seriesBands,
  seriesLines,
  timeXAxis,
  unitFormat,
  valueYAxis,
} from './parts.tsx'
import type { Marker, SeriesDef } from '../../lib/chart-types.ts'

function BandChartImpl({
  title,
  rows,
  series,
  unit,
  format,
  height = 220,
  testId,
  integer,
  xLabel = 'time since the round started (m:ss)',
  yLabel,
  markers,
}: {
  title: ReactNode
  rows: readonly BandRow[]
  series: readonly SeriesDef[]
  unit?: string
  format?: (v: number) => string
  height?: number
  testId: string
  integer?: boolean
  xLabel?: string
  /** The y axis' quantity and unit, when its ticks carry no unit. */
  yLabel?: string
  /** Seconds since the round's start: where each target's warm-up found ended. */
  markers?: readonly Marker[]
}) {
  const fmt = format ?? unitFormat(unit)
  const banded = series.filter((s) => rows.some((r) => Array.isArray(r[bandKey(s.key)])))
  return (
    <ChartFrame
      title={title}
      testId={testId}
      height={height}
      empty={rows.length === 0 || series.length === 0}
    >
      <ComposedChart data={rows} margin={{ top: 8, right: 16, bottom: 12, left: yLabel ? 8 : 0 }}>
        {grid()}
        {timeXAxis(xLabel)}
        {valueYAxis(fmt, integer, [0, 'auto'], yLabel)}
        {chartTooltip(fmt, (t) => `${duration(Number(t))} into the round`)}
        {chartLegend(8)}
        {markerLines(markers ?? [])}
        {seriesBands(banded, false)}
        {seriesLines(series)}
      </ComposedChart>
    </ChartFrame>
  )
}

export const BandChart = memo(BandChartImpl)

// Series on the run's timeline (seconds, shown as m:ss), as lines or stacked areas, with markers
// (a phase's start, a round's) as dashed vertical lines. Memo'd: it re-renders only when its rows change.
import { memo, type ReactNode } from 'react'
import { Area, AreaChart, LineChart } from 'recharts'
import { duration } from '../../lib/format.ts'
import {
  chartLegend,
  chartTooltip,
  ChartFrame,
  grid,
  markerLines,
  seriesLines,
  timeXAxis,
  TIMELINE,
  unitFormat,
  valueYAxis,
} from './parts.tsx'
import type { Domain, Marker, Row, SeriesDef } from '../../lib/chart-types.ts'

interface TimeChartProps {
  title: ReactNode
  rows: readonly Row[]
  series: readonly SeriesDef[]
  unit?: string
  format?: (v: number) => string
  markers?: readonly Marker[]
  height?: number
  testId: string
  stacked?: boolean
  domain?: Domain
  /** Whole numbers only on the y axis (counts). */
  integer?: boolean
  /** Shown instead of an empty plot (e.g. "No errors"). */
  emptyText?: string
  /** The y axis' quantity and unit, when its ticks carry no unit ("responses/s"). */
  yLabel?: string
}

function stackedAreas(series: readonly SeriesDef[]) {
  return series.map((s) => (
    <Area
      key={s.key}
      dataKey={s.key}
      name={s.label}
      stackId="1"
      stroke={s.colour}
      fill={s.colour}
      fillOpacity={0.35}
      isAnimationActive={false}
      connectNulls
    />
  ))
}

function TimeChartImpl({
  title,
  rows,
  series,
  unit,
  format,
  markers,
  height = 220,
  testId,
  stacked,
  domain,
  integer,
  emptyText,
  yLabel,
}: TimeChartProps) {
  const fmt = format ?? unitFormat(unit)
  const common = (
    <>
      {grid()}
      {timeXAxis(TIMELINE)}
      {valueYAxis(fmt, integer, domain ?? [0, 'auto'], yLabel)}
      {chartTooltip(fmt, (t) => `t = ${duration(Number(t))}`)}
      {chartLegend(10)}
      {markerLines(markers ?? [])}
    </>
  )
  const margin = { top: 8, right: 16, bottom: 12, left: yLabel ? 8 : 0 }
  return (
    <ChartFrame
      title={title}
      testId={testId}
      height={height}
      empty={rows.length === 0 || series.length === 0}
      emptyText={rows.length > 0 ? emptyText : undefined}
    >
      {stacked ? (
        <AreaChart data={rows} margin={margin}>
          {common}
          {stackedAreas(series)}
        </AreaChart>
      ) : (
        <LineChart data={rows} margin={margin}>
          {common}
          {seriesLines(series)}
        </LineChart>
      )}
    </ChartFrame>
  )
}

export const TimeChart = memo(TimeChartImpl)

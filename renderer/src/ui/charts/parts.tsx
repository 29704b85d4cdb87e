// What every chart shares: the frame (title, empty state, responsive plot), the grid, axis ticks
// and titles in the theme's colours (styles.css), the tooltip and the legend, and a series' line
// and band. Animation is off (1 Hz updates would restart it) and dots are off (thousands of points).
//
// The axes, tooltips and lines are functions returning elements, not components: recharts finds its
// parts among a chart's direct children.
import type { ReactNode } from 'react'
import {
  Area,
  CartesianGrid,
  Legend,
  Line,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts'
import { duration } from '../../lib/format.ts'
import { bandKey } from '../../lib/rounds.ts'
import type { Domain, Marker, SeriesDef } from '../../lib/chart-types.ts'

/** Axis ticks and tooltips in the theme's colours, shared by every chart. */
export const axisTick = { fontSize: 11, fill: 'var(--muted)' }
export const tooltipStyle = {
  background: 'var(--panel)',
  border: '1px solid var(--border)',
  color: 'var(--text)',
}

/** The x axis of every chart on the run's timeline. */
export const TIMELINE = 'time since the run started (m:ss)'

/** An axis title in the theme's muted colour (recharts' label prop). */
export function axisLabel(value: string, axis: 'x' | 'y', offset = -6) {
  return axis === 'x'
    ? { value, position: 'insideBottom' as const, offset, fontSize: 11, fill: 'var(--muted)' }
    : {
        value,
        angle: -90,
        position: 'insideLeft' as const,
        fontSize: 11,
        fill: 'var(--muted)',
        style: { textAnchor: 'middle' as const },
      }
}

/** The default value format: two decimals at most, then the unit. */
export function unitFormat(unit: string | undefined): (v: number) => string {
  return (v) => `${Math.round(v * 100) / 100}${unit ? ` ${unit}` : ''}`
}

/** A tooltip value: a number in the chart's format, a band as "low – high". */
export function tooltipValue(v: unknown, fmt: (v: number) => string): string {
  if (typeof v === 'number') return fmt(v)
  if (Array.isArray(v) && v.length === 2 && v.every((x) => typeof x === 'number'))
    return `${fmt(v[0] as number)} – ${fmt(v[1] as number)}`
  return String(v)
}

/** Markers (a phase's start, a round's, where a warm-up found ended) as dashed vertical lines. */
export function markerLines(markers: readonly Marker[]) {
  return markers.map((m) => (
    <ReferenceLine
      key={`${m.t}-${m.label}`}
      x={m.t}
      stroke="var(--muted)"
      strokeDasharray="4 4"
      label={{ value: m.label, position: 'insideTopLeft', fontSize: 10, fill: 'var(--muted)' }}
    />
  ))
}

export function grid() {
  return <CartesianGrid strokeDasharray="3 3" stroke="var(--grid)" />
}

/** The tooltip: values in the chart's format (bands as a range), the x value as `label` says. */
export function chartTooltip(fmt?: (v: number) => string, label?: (x: unknown) => string) {
  return (
    <Tooltip
      contentStyle={tooltipStyle}
      {...(label ? { labelFormatter: label } : {})}
      {...(fmt ? { formatter: (v: unknown) => tooltipValue(v, fmt) } : {})}
    />
  )
}

/** The legend; `paddingTop` keeps it below the x axis' title, not over it. */
export function chartLegend(paddingTop?: number, verticalAlign?: 'top') {
  return (
    <Legend
      wrapperStyle={{ fontSize: 12, ...(paddingTop ? { paddingTop } : {}) }}
      {...(verticalAlign ? { verticalAlign } : {})}
    />
  )
}

/** The x axis of a chart over time: seconds, shown as m:ss. */
export function timeXAxis(label: string) {
  return (
    <XAxis
      dataKey="t"
      type="number"
      domain={['dataMin', 'dataMax']}
      allowDecimals={false}
      tickFormatter={duration}
      tick={axisTick}
      stroke="var(--muted)"
      label={axisLabel(label, 'x')}
    />
  )
}

/** A value axis: ticks in the chart's format, whole numbers only for counts. */
export function valueYAxis(
  fmt: (v: number) => string,
  integer: boolean | undefined,
  domain: Domain,
  yLabel: string | undefined,
) {
  return (
    <YAxis
      tick={axisTick}
      stroke="var(--muted)"
      width={64}
      allowDecimals={!integer}
      tickFormatter={(v: number) => fmt(v)}
      domain={domain}
      {...(yLabel ? { label: axisLabel(yLabel, 'y') } : {})}
    />
  )
}

/** The shaded band (the rounds' lowest to highest) of each series; no legend entry of its own. */
export function seriesBands(series: readonly SeriesDef[], connectNulls: boolean) {
  return series.map((s) => (
    <Area
      key={bandKey(s.key)}
      dataKey={bandKey(s.key)}
      name={`${s.label} (rounds' range)`}
      stroke="none"
      fill={s.colour}
      fillOpacity={0.16}
      isAnimationActive={false}
      legendType="none"
      connectNulls={connectNulls}
    />
  ))
}

/** One line per series, dashed where the series says so. */
export function seriesLines(series: readonly SeriesDef[], strokeWidth = 1.6, connectNulls = false) {
  return series.map((s) => (
    <Line
      key={s.key}
      dataKey={s.key}
      name={s.label}
      stroke={s.colour}
      strokeDasharray={s.dashed ? '5 3' : undefined}
      dot={false}
      strokeWidth={strokeWidth}
      isAnimationActive={false}
      connectNulls={connectNulls}
    />
  ))
}

/** A chart's figure: its title, then the plot, or a line saying why there is none. */
export function ChartFrame({
  title,
  testId,
  height,
  empty,
  emptyText,
  children,
}: {
  title: ReactNode
  testId: string
  height: number
  empty: boolean
  emptyText?: string | undefined
  children: ReactNode
}) {
  return (
    <figure className="chart" data-testid={testId}>
      <figcaption>{title}</figcaption>
      {empty ? (
        <div className="chart-empty" style={{ height }} data-testid={`${testId}-empty`}>
          {emptyText ?? 'No data yet'}
        </div>
      ) : (
        <div style={{ height }} data-testid={`${testId}-plot`}>
          <ResponsiveContainer width="100%" height="100%" minWidth={100}>
            {children}
          </ResponsiveContainer>
        </div>
      )}
    </figure>
  )
}

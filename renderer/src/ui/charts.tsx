// Chart building blocks over recharts. Animation is off (1 Hz updates would restart it), dots are
// off (thousands of points), and every chart is memo'd: it re-renders only when its rows change.
import { memo, type ReactNode } from 'react'
import {
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ReferenceLine,
  ResponsiveContainer,
  Scatter,
  ScatterChart,
  Tooltip,
  XAxis,
  YAxis,
  ZAxis,
  Bar,
  BarChart,
  Area,
  AreaChart,
  ComposedChart,
} from 'recharts'
import { NINES_FROM, NINES_TICKS, NINES_TO } from '../../../engine/metrics/nines.ts'
import { duration } from '../lib/format.ts'
import { bandKey, type BandRow } from '../lib/rounds.ts'

export interface SeriesDef {
  key: string
  label: string
  colour: string
  dashed?: boolean
}

export interface Marker {
  t: number
  label: string
}

export type Row = { t: number } & Record<string, number | null>

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

/** An axis title in the theme's muted colour (recharts' label prop). */
function axisLabel(value: string, axis: 'x' | 'y') {
  return axis === 'x'
    ? { value, position: 'insideBottom' as const, offset: -6, fontSize: 11, fill: 'var(--muted)' }
    : {
        value,
        angle: -90,
        position: 'insideLeft' as const,
        fontSize: 11,
        fill: 'var(--muted)',
        style: { textAnchor: 'middle' as const },
      }
}

/** The x axis of every chart on the run's timeline. */
const TIMELINE = 'time since the run started (m:ss)'

/** Axis ticks and tooltips in the theme's colours (styles.css), shared by every chart. */
export const axisTick = { fontSize: 11, fill: 'var(--muted)' }
export const tooltipStyle = {
  background: 'var(--panel)',
  border: '1px solid var(--border)',
  color: 'var(--text)',
}

/** The default value format: two decimals at most, then the unit. */
function unitFormat(unit: string | undefined): (v: number) => string {
  return (v) => `${Math.round(v * 100) / 100}${unit ? ` ${unit}` : ''}`
}

type Domain = [number | 'auto' | 'dataMin' | 'dataMax', number | 'auto' | 'dataMin' | 'dataMax']

// The axes and lines below are functions returning elements, not components: recharts finds its
// parts among a chart's direct children.

/** The x axis of a chart over time: seconds, shown as m:ss. */
function timeXAxis(label: string) {
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

/** The value axis of the time charts. */
function valueYAxis(
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
function seriesBands(series: readonly SeriesDef[], connectNulls: boolean) {
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
function seriesLines(series: readonly SeriesDef[], strokeWidth = 1.6, connectNulls = false) {
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

function ChartFrame({
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
      <CartesianGrid strokeDasharray="3 3" stroke="var(--grid)" />
      {timeXAxis(TIMELINE)}
      {valueYAxis(fmt, integer, domain ?? [0, 'auto'], yLabel)}
      <Tooltip
        contentStyle={tooltipStyle}
        labelFormatter={(t) => `t = ${duration(Number(t))}`}
        formatter={(v) => (typeof v === 'number' ? fmt(v) : String(v))}
      />
      <Legend wrapperStyle={{ fontSize: 12, paddingTop: 10 }} />
      {(markers ?? []).map((m) => (
        <ReferenceLine
          key={`${m.t}-${m.label}`}
          x={m.t}
          stroke="var(--muted)"
          strokeDasharray="4 4"
          label={{ value: m.label, position: 'insideTopLeft', fontSize: 10, fill: 'var(--muted)' }}
        />
      ))}
    </>
  )
  return (
    <ChartFrame
      title={title}
      testId={testId}
      height={height}
      empty={rows.length === 0 || series.length === 0}
      emptyText={rows.length > 0 ? emptyText : undefined}
    >
      {stacked ? (
        <AreaChart data={rows} margin={{ top: 8, right: 16, bottom: 12, left: yLabel ? 8 : 0 }}>
          {common}
          {series.map((s) => (
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
          ))}
        </AreaChart>
      ) : (
        <LineChart data={rows} margin={{ top: 8, right: 16, bottom: 12, left: yLabel ? 8 : 0 }}>
          {common}
          {seriesLines(series)}
        </LineChart>
      )}
    </ChartFrame>
  )
}

export const TimeChart = memo(TimeChartImpl)

export interface ScatterSet {
  label: string
  colour: string
  points: readonly { x: number; y: number }[]
}

function XYChartImpl(props: {
  title: ReactNode
  sets: readonly ScatterSet[]
  xLabel: string
  yLabel: string
  xFormat?: (v: number) => string
  yFormat?: (v: number) => string
  height?: number
  testId: string
}) {
  const { title, sets, xLabel, yLabel, height = 260, testId } = props
  const xf = props.xFormat ?? ((v: number) => String(Math.round(v * 10) / 10))
  const yf = props.yFormat ?? ((v: number) => String(Math.round(v * 10) / 10))
  return (
    <ChartFrame
      title={title}
      testId={testId}
      height={height}
      empty={sets.every((s) => s.points.length === 0)}
    >
      <ScatterChart margin={{ top: 8, right: 16, bottom: 16, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" stroke="var(--grid)" />
        <XAxis
          type="number"
          dataKey="x"
          name={xLabel}
          tickFormatter={xf}
          tick={axisTick}
          stroke="var(--muted)"
          label={{ value: xLabel, position: 'insideBottom', offset: -8, fontSize: 11, fill: 'var(--muted)' }}
        />
        <YAxis
          type="number"
          dataKey="y"
          name={yLabel}
          tickFormatter={yf}
          tick={axisTick}
          stroke="var(--muted)"
          width={70}
          label={{ value: yLabel, angle: -90, position: 'insideLeft', fontSize: 11, fill: 'var(--muted)' }}
        />
        <ZAxis range={[18, 18]} />
        <Tooltip contentStyle={tooltipStyle} />
        {/* Below the x axis' label, not over it. */}
        <Legend wrapperStyle={{ fontSize: 12, paddingTop: 14 }} />
        {sets.map((s) => (
          <Scatter
            key={s.label}
            name={s.label}
            data={s.points as { x: number; y: number }[]}
            fill={s.colour}
            isAnimationActive={false}
          />
        ))}
      </ScatterChart>
    </ChartFrame>
  )
}

export const XYChart = memo(XYChartImpl)

function BarsImpl(props: {
  title: ReactNode
  rows: readonly Record<string, string | number>[]
  category: string
  series: readonly SeriesDef[]
  format?: (v: number) => string
  height?: number
  testId: string
}) {
  const { title, rows, category, series, height = 260, testId } = props
  const fmt = props.format ?? ((v: number) => String(v))
  return (
    <ChartFrame title={title} testId={testId} height={height} empty={rows.length === 0}>
      <BarChart data={rows} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" stroke="var(--grid)" />
        <XAxis dataKey={category} tick={axisTick} stroke="var(--muted)" />
        <YAxis tick={axisTick} stroke="var(--muted)" width={70} tickFormatter={(v: number) => fmt(v)} />
        <Tooltip
          contentStyle={tooltipStyle}
          formatter={(v) => (typeof v === 'number' ? fmt(v) : String(v))}
        />
        <Legend wrapperStyle={{ fontSize: 12 }} />
        {series.map((s) => (
          <Bar key={s.key} dataKey={s.key} name={s.label} fill={s.colour} isAnimationActive={false} />
        ))}
      </BarChart>
    </ChartFrame>
  )
}

export const Bars = memo(BarsImpl)

/** A tooltip value: a number in the chart's format, a band as "low – high". */
function tooltipValue(v: unknown, fmt: (v: number) => string): string {
  if (typeof v === 'number') return fmt(v)
  if (Array.isArray(v) && v.length === 2 && v.every((x) => typeof x === 'number'))
    return `${fmt(v[0] as number)} – ${fmt(v[1] as number)}`
  return String(v)
}

/**
 * Lines with a shaded band each (rounds overlaid: the line is their mean, the band the lowest to
 * the highest round). x is seconds since each round's start. A band has no legend entry of its own.
 */
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
        <CartesianGrid strokeDasharray="3 3" stroke="var(--grid)" />
        {timeXAxis(xLabel)}
        {valueYAxis(fmt, integer, [0, 'auto'], yLabel)}
        <Tooltip
          contentStyle={tooltipStyle}
          labelFormatter={(t) => `${duration(Number(t))} into the round`}
          formatter={(v) => tooltipValue(v, fmt)}
        />
        <Legend wrapperStyle={{ fontSize: 12, paddingTop: 8 }} />
        {seriesBands(banded, false)}
        {seriesLines(series)}
      </ComposedChart>
    </ChartFrame>
  )
}

export const BandChart = memo(BandChartImpl)

/** One curve of the latency distribution: points [nines, ms] and an optional band [low, high] ms. */
export interface DistributionSeries {
  key: string
  label: string
  colour: string
  dashed?: boolean
  points: readonly [number, number][]
  band: readonly [number, number][] | null
}

/** The curves as chart rows keyed by x (curves share the grid but end at their own x). */
export function distributionRows(curves: readonly DistributionSeries[]): BandRow[] {
  const rows = new Map<number, BandRow>()
  for (const c of curves) {
    c.points.forEach(([x, y], i) => {
      const key = Math.round(x * 1000) / 1000
      const row = rows.get(key) ?? { t: key }
      row[c.key] = y
      const b = c.band?.[i]
      if (b) row[bandKey(c.key)] = [b[0], b[1]]
      rows.set(key, row)
    })
  }
  return [...rows.values()].sort((a, b) => a.t - b.t)
}

/**
 * The latency distribution as HdrHistogram plots it (engine/metrics/distribution.ts): x is the
 * percentile on a log-scaled tail axis from p50 to p99.999, y the latency; one curve per target,
 * a band over its rounds.
 */
function DistributionChartImpl({
  title,
  curves,
  testId,
  height = 260,
}: {
  title: ReactNode
  curves: readonly DistributionSeries[]
  testId: string
  height?: number
}) {
  const rows = distributionRows(curves)
  const top = Math.min(NINES_TO, Math.ceil(Math.max(1, ...rows.map((r) => r.t))))
  const ticks = NINES_TICKS.filter((t) => t.value <= top + 1e-9)
  const label = (x: number) => ticks.find((t) => Math.abs(t.value - x) < 1e-6)?.label ?? ''
  const pct = (x: number) => `p${Number((100 * (1 - 10 ** -x)).toFixed(x > 3 ? 4 : 2))}`
  const fmt = (v: number) => `${Math.round(v * 100) / 100} ms`
  return (
    <ChartFrame title={title} testId={testId} height={height} empty={rows.length === 0}>
      <ComposedChart data={rows} margin={{ top: 8, right: 16, bottom: 12, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" stroke="var(--grid)" />
        <XAxis
          dataKey="t"
          type="number"
          domain={[NINES_FROM, top]}
          ticks={ticks.map((t) => t.value)}
          tickFormatter={label}
          tick={axisTick}
          stroke="var(--muted)"
          label={{
            value: 'percentile (log scale of the tail)',
            position: 'insideBottom',
            offset: -6,
            fontSize: 11,
            fill: 'var(--muted)',
          }}
        />
        <YAxis tick={axisTick} stroke="var(--muted)" width={64} tickFormatter={fmt} domain={[0, 'auto']} />
        <Tooltip
          contentStyle={tooltipStyle}
          labelFormatter={(x) => pct(Number(x))}
          formatter={(v) => tooltipValue(v, fmt)}
        />
        <Legend wrapperStyle={{ fontSize: 12, paddingTop: 8 }} />
        {seriesBands(
          curves.filter((c) => c.band),
          true,
        )}
        {seriesLines(curves, 1.8, true)}
      </ComposedChart>
    </ChartFrame>
  )
}

export const DistributionChart = memo(DistributionChartImpl)

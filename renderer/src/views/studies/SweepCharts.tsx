// A study's figures against the swept value: throughput, and latency p50/p95/p99, with the knee
// marked (where throughput stops rising while latency climbs). One line per value of a grid's
// second setting (task size × concurrency: a line per task size), and categories on the x axis
// when the values are words (stack names, body kinds, target sets).
import { memo } from 'react'
import { Line, LineChart, ReferenceLine, XAxis, YAxis } from 'recharts'
import type { SweepPoint } from '#engine/api/types.ts'
import { tint } from '#engine/report/palette.ts'
import { colour, ms, msValue, percent, rate } from '../../lib/format.ts'
import {
  axisLabel,
  axisTick,
  chartLegend,
  chartTooltip,
  ChartFrame,
  grid,
  unitFormat,
} from '../../ui/charts/parts.tsx'

type Point = Pick<SweepPoint, 'value' | 'throughput' | 'p50' | 'p95' | 'p99'> & { label?: string }

interface Props {
  /** One curve (a study of one setting, a comparison's series) … */
  points?: readonly Point[]
  /** … or one per value of a grid's second setting, each named by it. */
  lines?: readonly { name: string; points: readonly Point[] }[]
  knee: number | null
  xLabel: string
  /** The values are words: evenly spaced categories, labelled as written. */
  categorical?: boolean
  testId: string
  /** The target's colour (every screen draws a target in one colour); p50 dashed, p99 solid. */
  colour?: string
}

type Row = Record<string, number | string>

/** The swept value's axis: categories when the values are words, else numbers (log when doubling). */
function sweepXAxis(values: number[], xLabel: string, categorical: boolean) {
  const label = axisLabel(xLabel, 'x', -8)
  if (categorical)
    return (
      <XAxis
        dataKey="label"
        type="category"
        padding={{ left: 24, right: 24 }}
        tick={axisTick}
        stroke="var(--muted)"
        label={label}
      />
    )
  // Doubling sweeps (8, 16, 32, 64…) read better on a log axis; it needs positive values.
  const log = values.length > 2 && Math.min(...values) > 0 && Math.max(...values) / Math.min(...values) >= 8
  return (
    <XAxis
      dataKey="value"
      type="number"
      scale={log ? 'log' : 'linear'}
      domain={['dataMin', 'dataMax']}
      ticks={values}
      padding={{ left: 24, right: 24 }}
      tick={axisTick}
      stroke="var(--muted)"
      label={label}
    />
  )
}

function kneeLine(knee: number) {
  return (
    <ReferenceLine
      x={knee}
      stroke="var(--danger)"
      strokeDasharray="4 4"
      label={{ value: 'knee', position: 'insideBottomRight', fontSize: 11, fill: 'var(--danger)' }}
    />
  )
}

function Chart({
  title,
  rows,
  lines,
  knee,
  xLabel,
  categorical,
  testId,
  unit,
  yLabel,
}: {
  title: string
  rows: Row[]
  lines: { key: string; colour: string; dashed?: boolean }[]
  knee: number | null
  xLabel: string
  categorical: boolean
  testId: string
  unit: string
  /** The y axis' quantity and unit. */
  yLabel: string
}) {
  const values = rows.map((r) => Number(r.value ?? 0))
  const label = (v: unknown) => `${xLabel} = ${typeof v === 'number' || typeof v === 'string' ? v : ''}`
  return (
    <ChartFrame title={title} testId={testId} height={240} empty={false}>
      <LineChart data={rows} margin={{ top: 16, right: 16, bottom: 16, left: 0 }}>
        {grid()}
        {sweepXAxis(values, xLabel, categorical)}
        <YAxis
          tick={axisTick}
          stroke="var(--muted)"
          width={64}
          domain={[0, 'auto']}
          label={axisLabel(yLabel, 'y')}
        />
        {chartTooltip(unitFormat(unit), label)}
        {chartLegend(undefined, 'top')}
        {knee !== null && !categorical ? kneeLine(knee) : null}
        {lines.map((l) => (
          <Line
            key={l.key}
            dataKey={l.key}
            stroke={l.colour}
            strokeDasharray={l.dashed ? '5 3' : undefined}
            strokeWidth={1.8}
            dot={{ r: 3 }}
            connectNulls
            isAnimationActive={false}
          />
        ))}
      </LineChart>
    </ChartFrame>
  )
}

/** One row per x value, with each line's figures under its own keys. */
function rowsOf(
  curves: readonly { name: string; points: readonly Point[] }[],
  cells: (p: Point, name: string) => Row,
): Row[] {
  const rows = new Map<number, Row>()
  for (const c of curves)
    for (const p of c.points) {
      const row = rows.get(p.value) ?? { value: p.value, label: p.label ?? String(p.value) }
      Object.assign(row, cells(p, c.name))
      rows.set(p.value, row)
    }
  return [...rows.values()].sort((a, b) => Number(a.value) - Number(b.value))
}

function SweepChartsImpl({ points, lines, knee, xLabel, categorical = false, testId, colour: own }: Props) {
  // One curve: the target's colour (p50 dashed, p95 a tint, p99 solid); several: one colour each.
  const c = own ?? colour(0)
  const curves = lines ?? [{ name: '', points: points ?? [] }]
  const many = curves.length > 1
  const key = (name: string, what: string) => (many ? `${what} · ${name}` : what)
  const throughput = rowsOf(curves, (p, name) => ({ [key(name, 'req/s')]: p.throughput }))
  const latency = rowsOf(curves, (p, name) =>
    many
      ? { [key(name, 'p50')]: msValue(p.p50), [key(name, 'p99')]: msValue(p.p99) }
      : { p50: msValue(p.p50), p95: msValue(p.p95), p99: msValue(p.p99) },
  )
  return (
    <div className="charts">
      <Chart
        title={`Throughput (responses/s) against ${xLabel}`}
        rows={throughput}
        lines={curves.map((curve, i) => ({ key: key(curve.name, 'req/s'), colour: many ? colour(i) : c }))}
        knee={knee}
        xLabel={xLabel}
        categorical={categorical}
        testId={`${testId}-throughput`}
        unit="req/s"
        yLabel="responses/s"
      />
      <Chart
        title={`Latency ${many ? 'p50 (dashed) / p99' : 'p50 / p95 / p99'} (ms) against ${xLabel}`}
        rows={latency}
        lines={
          many
            ? curves.flatMap((curve, i) => [
                { key: key(curve.name, 'p50'), colour: colour(i), dashed: true },
                { key: key(curve.name, 'p99'), colour: colour(i) },
              ])
            : [
                { key: 'p50', colour: c, dashed: true },
                { key: 'p95', colour: tint(c, 0.45) },
                { key: 'p99', colour: c },
              ]
        }
        knee={knee}
        xLabel={xLabel}
        categorical={categorical}
        testId={`${testId}-latency`}
        unit="ms"
        yLabel="latency (ms)"
      />
    </div>
  )
}

export const SweepCharts = memo(SweepChartsImpl)

/** A sweep point's figures as table cells: throughput, p50, p95, p99 and the error rate. */
export function SweepPointCells({
  point,
  errorDigits,
}: {
  point: Pick<SweepPoint, 'throughput' | 'p50' | 'p95' | 'p99' | 'errorRate'>
  errorDigits?: number
}) {
  return (
    <>
      <td className="num">{rate(point.throughput)}</td>
      <td className="num">{ms(point.p50)}</td>
      <td className="num">{ms(point.p95)}</td>
      <td className="num">{ms(point.p99)}</td>
      <td className="num">{percent(point.errorRate * 100, errorDigits)}</td>
    </>
  )
}

// A study's figures for one target against the swept value: throughput, and latency p50/p95/p99,
// with the knee marked (where throughput stops rising while latency climbs).
import { memo } from 'react'
import {
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts'
import type { SweepPoint } from '../../../../engine/api/types.ts'
import { tint } from '../../../../engine/report/palette.ts'
import { colour, msValue } from '../../lib/format.ts'
import { axisTick, tooltipStyle } from '../../ui/charts.tsx'

interface Props {
  /** A study's points, or a comparison's series (the same figures against a value). */
  points: readonly Pick<SweepPoint, 'value' | 'throughput' | 'p50' | 'p95' | 'p99'>[]
  knee: number | null
  xLabel: string
  testId: string
  /** The target's colour (every screen draws a target in one colour); p50 dashed, p99 solid. */
  colour?: string
}

function Chart({
  title,
  rows,
  lines,
  knee,
  xLabel,
  testId,
  unit,
  yLabel,
}: {
  title: string
  rows: Record<string, number>[]
  lines: { key: string; colour: string; dashed?: boolean }[]
  knee: number | null
  xLabel: string
  testId: string
  unit: string
  /** The y axis' quantity and unit. */
  yLabel: string
}) {
  const values = rows.map((r) => r.value ?? 0)
  // Doubling sweeps (8, 16, 32, 64…) read better on a log axis; it needs positive values.
  const log = values.length > 2 && Math.min(...values) > 0 && Math.max(...values) / Math.min(...values) >= 8
  return (
    <figure className="chart" data-testid={testId}>
      <figcaption>{title}</figcaption>
      <div style={{ height: 240 }} data-testid={`${testId}-plot`}>
        <ResponsiveContainer width="100%" height="100%" minWidth={100}>
          <LineChart data={rows} margin={{ top: 16, right: 16, bottom: 16, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="var(--grid)" />
            <XAxis
              dataKey="value"
              type="number"
              scale={log ? 'log' : 'linear'}
              domain={['dataMin', 'dataMax']}
              ticks={values}
              padding={{ left: 24, right: 24 }}
              tick={axisTick}
              stroke="var(--muted)"
              label={{
                value: xLabel,
                position: 'insideBottom',
                offset: -8,
                fontSize: 11,
                fill: 'var(--muted)',
              }}
            />
            <YAxis
              tick={axisTick}
              stroke="var(--muted)"
              width={64}
              domain={[0, 'auto']}
              label={{
                value: yLabel,
                angle: -90,
                position: 'insideLeft',
                fontSize: 11,
                fill: 'var(--muted)',
                style: { textAnchor: 'middle' },
              }}
            />
            <Tooltip
              contentStyle={tooltipStyle}
              labelFormatter={(v) => `${xLabel} = ${typeof v === 'number' || typeof v === 'string' ? v : ''}`}
              formatter={(v) => (typeof v === 'number' ? `${Math.round(v * 100) / 100} ${unit}` : String(v))}
            />
            <Legend verticalAlign="top" wrapperStyle={{ fontSize: 12 }} />
            {knee !== null ? (
              <ReferenceLine
                x={knee}
                stroke="var(--danger)"
                strokeDasharray="4 4"
                label={{ value: 'knee', position: 'insideBottomRight', fontSize: 11, fill: 'var(--danger)' }}
              />
            ) : null}
            {lines.map((l) => (
              <Line
                key={l.key}
                dataKey={l.key}
                stroke={l.colour}
                strokeDasharray={l.dashed ? '5 3' : undefined}
                strokeWidth={1.8}
                dot={{ r: 3 }}
                isAnimationActive={false}
              />
            ))}
          </LineChart>
        </ResponsiveContainer>
      </div>
    </figure>
  )
}

function SweepChartsImpl({ points, knee, xLabel, testId, colour: own }: Props) {
  const c = own ?? colour(0)
  const sorted = [...points].sort((a, b) => a.value - b.value)
  const throughput = sorted.map((p) => ({ value: p.value, 'req/s': p.throughput }))
  const latency = sorted.map((p) => ({
    value: p.value,
    p50: msValue(p.p50),
    p95: msValue(p.p95),
    p99: msValue(p.p99),
  }))
  return (
    <div className="charts">
      <Chart
        title={`Throughput (responses/s) against ${xLabel}`}
        rows={throughput}
        lines={[{ key: 'req/s', colour: c }]}
        knee={knee}
        xLabel={xLabel}
        testId={`${testId}-throughput`}
        unit="req/s"
        yLabel="responses/s"
      />
      <Chart
        title={`Latency p50 / p95 / p99 (ms) against ${xLabel}`}
        rows={latency}
        lines={[
          { key: 'p50', colour: c, dashed: true },
          { key: 'p95', colour: tint(c, 0.45) },
          { key: 'p99', colour: c },
        ]}
        knee={knee}
        xLabel={xLabel}
        testId={`${testId}-latency`}
        unit="ms"
        yLabel="latency (ms)"
      />
    </div>
  )
}

export const SweepCharts = memo(SweepChartsImpl)

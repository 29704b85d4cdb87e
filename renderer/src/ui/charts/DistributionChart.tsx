// The latency distribution as HdrHistogram plots it (engine/metrics/distribution.ts): x is the
// percentile on a log-scaled tail axis from p50 to p99.999, y the latency, on a log axis unless the
// user picks a linear one (./scale.ts says why); one curve per target, a band over its rounds.
import { memo, useState, type ReactNode } from 'react'
import { ComposedChart, XAxis, YAxis } from 'recharts'
import { NINES_FROM, NINES_TICKS, NINES_TO } from '#engine/metrics/nines-axis.ts'
import { bandKey, type BandRow } from '../../lib/rounds.ts'
import { Button } from '../Primitives.tsx'
import {
  axisLabel,
  axisTick,
  chartLegend,
  chartTooltip,
  ChartFrame,
  grid,
  seriesBands,
  seriesLines,
} from './parts.tsx'
import { logAxis, rowValues, type Scale } from './scale.ts'

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

const pct = (x: number) => `p${Number((100 * (1 - 10 ** -x)).toFixed(x > 3 ? 4 : 2))}`
const fmt = (v: number) => `${Math.round(v * 100) / 100} ms`

/** The latency axis' choice, beside the chart's title. */
function ScaleChoice({
  scale,
  onScale,
  testId,
}: {
  scale: Scale
  onScale: (s: Scale) => void
  testId: string
}) {
  return (
    <span className="chart-scale" role="group" aria-label="Latency axis">
      {(['log', 'linear'] as const).map((s) => (
        <Button
          key={s}
          variant="ghost"
          aria-pressed={scale === s}
          onClick={() => onScale(s)}
          data-testid={`${testId}-scale-${s}`}
        >
          {s}
        </Button>
      ))}
    </span>
  )
}

/** The latency axis: log over the decades the values span, or linear from 0. */
function latencyYAxis(scale: Scale, rows: readonly BandRow[]) {
  const log = scale === 'log' ? logAxis(rowValues(rows)) : null
  return (
    <YAxis
      tick={axisTick}
      stroke="var(--muted)"
      width={64}
      tickFormatter={fmt}
      {...(log
        ? { scale: 'log' as const, domain: log.domain, ticks: log.ticks, allowDataOverflow: true }
        : { domain: [0, 'auto'] as const })}
    />
  )
}

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
  const [scale, setScale] = useState<Scale>('log')
  const rows = distributionRows(curves)
  const top = Math.min(NINES_TO, Math.ceil(Math.max(1, ...rows.map((r) => r.t))))
  const ticks = NINES_TICKS.filter((t) => t.value <= top + 1e-9)
  const label = (x: number) => ticks.find((t) => Math.abs(t.value - x) < 1e-6)?.label ?? ''
  const caption = (
    <>
      {title} <ScaleChoice scale={scale} onScale={setScale} testId={testId} />
    </>
  )
  return (
    <ChartFrame title={caption} testId={testId} height={height} empty={rows.length === 0}>
      <ComposedChart data={rows} margin={{ top: 8, right: 16, bottom: 12, left: 0 }}>
        {grid()}
        <XAxis
          dataKey="t"
          type="number"
          domain={[NINES_FROM, top]}
          ticks={ticks.map((t) => t.value)}
          tickFormatter={label}
          tick={axisTick}
          stroke="var(--muted)"
          label={axisLabel('percentile (log scale of the tail)', 'x')}
        />
        {latencyYAxis(scale, rows)}
        {chartTooltip(fmt, (x) => pct(Number(x)))}
        {chartLegend(8)}
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

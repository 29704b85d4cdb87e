// Bars per category (an agent, a target), a bar per series.
import { memo, type ReactNode } from 'react'
import { Bar, BarChart, XAxis, YAxis } from 'recharts'
import { axisTick, chartLegend, chartTooltip, ChartFrame, grid } from './parts.tsx'
import type { SeriesDef } from '../../lib/chart-types.ts'

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
        {grid()}
        <XAxis dataKey={category} tick={axisTick} stroke="var(--muted)" />
        <YAxis tick={axisTick} stroke="var(--muted)" width={70} tickFormatter={(v: number) => fmt(v)} />
        {chartTooltip(fmt)}
        {chartLegend()}
        {series.map((s) => (
          <Bar key={s.key} dataKey={s.key} name={s.label} fill={s.colour} isAnimationActive={false} />
        ))}
      </BarChart>
    </ChartFrame>
  )
}

export const Bars = memo(BarsImpl)

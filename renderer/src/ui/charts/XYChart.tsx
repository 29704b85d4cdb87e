// Points of one quantity against another (throughput against CPU, memory against throughput), a
// colour per set.
import { memo, type ReactNode } from 'react'
import { Scatter, ScatterChart, XAxis, YAxis, ZAxis } from 'recharts'
import { axisLabel, axisTick, chartLegend, chartTooltip, ChartFrame, grid } from './parts.tsx'

export interface ScatterSet {
  label: string
  colour: string
  points: readonly { x: number; y: number }[]
}

const oneDecimal = (v: number) => String(Math.round(v * 10) / 10)

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
  return (
    <ChartFrame
      title={title}
      testId={testId}
      height={height}
      empty={sets.every((s) => s.points.length === 0)}
    >
      <ScatterChart margin={{ top: 8, right: 16, bottom: 16, left: 0 }}>
        {grid()}
        <XAxis
          type="number"
          dataKey="x"
          name={xLabel}
          tickFormatter={props.xFormat ?? oneDecimal}
          tick={axisTick}
          stroke="var(--muted)"
          label={axisLabel(xLabel, 'x', -8)}
        />
        <YAxis
          type="number"
          dataKey="y"
          name={yLabel}
          tickFormatter={props.yFormat ?? oneDecimal}
          tick={axisTick}
          stroke="var(--muted)"
          width={70}
          label={axisLabel(yLabel, 'y')}
        />
        <ZAxis range={[18, 18]} />
        {chartTooltip()}
        {chartLegend(14)}
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

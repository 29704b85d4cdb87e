// A study's monitored figures against throughput: one point per value of the study and line, for
// the series the user picks (a Prometheus monitor's heap, GC share, event-loop lag or a query's own
// series, or CPU and memory): the thesis' "memory against throughput" for whatever was monitored.
import { useState } from 'react'
import type { StudyResults } from '#engine/api/types.ts'
import { colour } from '../../lib/format.ts'
import { XYChart } from '../../ui/charts/XYChart.tsx'
import { SelectField } from '../../ui/Field.tsx'
import { seriesMetrics, seriesSets } from './seriesPlot.ts'

export function SeriesChart({
  lines,
  name,
  testId,
}: {
  lines: readonly StudyResults['targets'][number][]
  name: (l: StudyResults['targets'][number]) => string
  testId: string
}) {
  const metrics = seriesMetrics(lines)
  const [picked, setPicked] = useState<string | null>(null)
  if (metrics.length === 0) return null
  const metric = picked !== null && metrics.includes(picked) ? picked : metrics[0]!
  const sets = seriesSets(lines, metric, name)
  const unit = sets[0]?.unit ?? ''
  return (
    <div className="study-series" data-testid={testId} data-metric={metric}>
      <div className="grid-3">
        <SelectField
          label="Monitored series"
          value={metric}
          options={metrics.map((m) => ({ value: m, label: m }))}
          onChange={setPicked}
          testId={`${testId}-metric`}
        />
      </div>
      <XYChart
        title={`${metric} against throughput (one point per value)`}
        sets={sets.map((s, i) => ({ label: s.label, colour: colour(i), points: s.points }))}
        xLabel="requests/s"
        yLabel={unit || metric}
        xFormat={(v) => String(Math.round(v))}
        testId={`${testId}-chart`}
      />
    </div>
  )
}

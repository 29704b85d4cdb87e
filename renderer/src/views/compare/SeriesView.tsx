// Entries that are values of one thing (a sweep, sizes of one target): a curve against the value
// per line, and the figures behind it, instead of a race between them.
import type { CompareSeries } from '#engine/api/types.ts'
import { Card, NumHeads } from '../../ui/Primitives.tsx'
import { SweepCharts, SweepPointCells } from '../studies/SweepCharts.tsx'

export function SeriesView({ series }: { series: CompareSeries }) {
  return (
    <div data-testid="compare-series">
      {series.lines.map((line, i) => (
        <Card key={line.name} title={line.name} testId={`compare-series-${i}`}>
          <SweepCharts
            points={line.points}
            knee={null}
            xLabel={series.name}
            testId={`compare-series-chart-${i}`}
          />
          <table className="table">
            <thead>
              <tr>
                <th scope="col">{series.name}</th>
                <th scope="col">Entry</th>
                <NumHeads names={['Throughput', 'p50', 'p95', 'p99', 'Errors']} />
              </tr>
            </thead>
            <tbody>
              {line.points.map((p) => (
                <tr key={`${p.runId}:${p.target}`}>
                  <td>{p.value}</td>
                  <td>{p.label}</td>
                  <SweepPointCells point={p} errorDigits={2} />
                </tr>
              ))}
            </tbody>
          </table>
        </Card>
      ))}
    </div>
  )
}

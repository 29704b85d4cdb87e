// Entries that are values of one thing (a sweep, sizes of one target): a curve against the value
// per line, and the figures behind it, instead of a race between them.
import type { CompareSeries } from '../../../../engine/api/types.ts'
import { ms, percent, rate } from '../../lib/format.ts'
import { Card } from '../../ui/Common.tsx'
import { SweepCharts } from '../studies/SweepCharts.tsx'

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
                <th scope="col" className="num">
                  Throughput
                </th>
                <th scope="col" className="num">
                  p50
                </th>
                <th scope="col" className="num">
                  p95
                </th>
                <th scope="col" className="num">
                  p99
                </th>
                <th scope="col" className="num">
                  Errors
                </th>
              </tr>
            </thead>
            <tbody>
              {line.points.map((p) => (
                <tr key={`${p.runId}:${p.target}`}>
                  <td>{p.value}</td>
                  <td>{p.label}</td>
                  <td className="num">{rate(p.throughput)}</td>
                  <td className="num">{ms(p.p50)}</td>
                  <td className="num">{ms(p.p95)}</td>
                  <td className="num">{ms(p.p99)}</td>
                  <td className="num">{percent(p.errorRate * 100, 2)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Card>
      ))}
    </div>
  )
}

// The comparison in numbers: each other run/target against the baseline, per metric, with the
// difference, its 95 % confidence interval and whether it is significant, plus the sentence.
import type { CompareMetric, CompareResult } from '../../../../engine/api/types.ts'
import { ms, percent, rate } from '../../lib/format.ts'

function value(m: CompareMetric, v: number): string {
  if (m.metric === 'throughput') return rate(v)
  if (m.metric === 'errorRate') return percent(v * 100, 2)
  return ms(v)
}

function ci(m: CompareMetric): string {
  if (!m.ci95) return '–'
  return `${m.ci95[0].toFixed(1)} … ${m.ci95[1].toFixed(1)} %`
}

const LABEL: Record<CompareMetric['metric'], string> = {
  throughput: 'throughput',
  mean: 'mean latency',
  p50: 'p50',
  p95: 'p95',
  p99: 'p99',
  p999: 'p99.9',
  errorRate: 'error rate',
}

export function DeltaTable({ result }: { result: CompareResult }) {
  return (
    <div data-testid="compare-deltas">
      {result.others.map(({ entry, metrics }) => (
        <section
          key={`${entry.runId}-${entry.target}`}
          className="delta"
          data-testid={`compare-delta-${entry.runId}-${entry.target}`}
        >
          <h3>
            {entry.label} <span className="muted">vs</span> {result.baseline.label}
            {entry.rounds > 1 || result.baseline.rounds > 1 ? (
              <span className="muted">
                {' '}
                ({entry.rounds} vs {result.baseline.rounds} rounds)
              </span>
            ) : null}
          </h3>
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Metric</th>
                <th scope="col" className="num">
                  {result.baseline.label}
                </th>
                <th scope="col" className="num">
                  {entry.label}
                </th>
                <th scope="col" className="num">
                  Difference
                </th>
                <th scope="col" className="num">
                  95 % CI
                </th>
                <th scope="col">Significant</th>
              </tr>
            </thead>
            <tbody>
              {metrics.map((m) => (
                <tr key={m.metric} title={m.sentence}>
                  <th scope="row">{LABEL[m.metric]}</th>
                  <td className="num">{value(m, m.baseline)}</td>
                  <td className="num">{value(m, m.other)}</td>
                  <td className="num">
                    {m.diffPercent === null
                      ? '–'
                      : `${m.diffPercent > 0 ? '+' : ''}${m.diffPercent.toFixed(1)} %`}
                  </td>
                  <td className="num">{ci(m)}</td>
                  <td>{m.significant === null ? 'n/a' : m.significant ? 'yes' : 'no'}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <ul className="sentences">
            {metrics.map((m) => (
              <li key={m.metric}>{m.sentence}</li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  )
}

// The comparison in numbers: per pair, each metric of both sides (the geometric mean of rounds,
// named so: a target's own figure over its rounds is in the summary tables),
// the ratio with its 95 % interval, how many rounds agree and the verdict, worded as the CLI and
// the PDF word them (engine/metrics/compare-words.ts). The method is stated once, below.
import type { CompareResult } from '#engine/api/types.ts'
import {
  CENTRE_NAME,
  fmtAgreeCell,
  fmtEffectCell,
  fmtMetricValue,
  METRIC_LABEL,
  verdictWord,
} from '#engine/metrics/compare-words.ts'

export function PairsTable({ result }: { result: CompareResult }) {
  return (
    <div data-testid="compare-pairs">
      {result.pairs.map((p) => (
        <section
          key={`${p.baseline.runId}:${p.baseline.target}-${p.other.runId}:${p.other.target}`}
          className="delta"
          data-testid={`compare-pair-${p.other.runId}-${p.other.target}`}
        >
          <h3>
            {p.other.label} <span className="muted">against</span> {p.baseline.label}{' '}
            <span className="muted">
              ({p.other.rounds} and {p.baseline.rounds} round{p.baseline.rounds === 1 ? '' : 's'},{' '}
              {p.design === 'paired' ? 'rounds paired' : 'rounds unpaired'}
              {p.corrected ? ', latency corrected for coordinated omission' : ''})
            </span>
          </h3>
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Metric</th>
                <th scope="col" className="num">
                  {p.baseline.label}
                  <br />
                  <span className="muted small">{CENTRE_NAME}</span>
                </th>
                <th scope="col" className="num">
                  {p.other.label}
                  <br />
                  <span className="muted small">{CENTRE_NAME}</span>
                </th>
                <th scope="col" className="num">
                  Ratio (95 % CI)
                </th>
                <th scope="col">Rounds agreeing</th>
                <th scope="col">Verdict</th>
              </tr>
            </thead>
            <tbody>
              {p.metrics.map((m) => (
                <tr key={m.metric} title={m.sentence} data-verdict={m.verdict}>
                  <th scope="row">{METRIC_LABEL[m.metric]}</th>
                  <td className="num">{fmtMetricValue(m.metric, m.baseline)}</td>
                  <td className="num">{fmtMetricValue(m.metric, m.other)}</td>
                  <td className="num">{fmtEffectCell(m)}</td>
                  <td>{m.verdict === 'too-few-rounds' ? '–' : fmtAgreeCell(m.agree)}</td>
                  <td className={`verdict v-${m.verdict}`}>{verdictWord(m, result.minEffect)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ))}
      <p className="muted compare-method" data-testid="compare-method">
        {result.method}
      </p>
    </div>
  )
}

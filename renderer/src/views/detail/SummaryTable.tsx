// The numbers of a run: one row per target and round, its phases and (scenarios) steps beneath it,
// then its connect times (never part of a request's latency) and, in rate mode, how late the
// sends left after their intended time.
import { Fragment } from 'react'
import type { LatencyStats, StatsBlock, TargetRoundSummary } from '../../../../engine/api/types.ts'
import { count, ms, percent, rate } from '../../lib/format.ts'

function errorTotal(s: StatsBlock): number {
  return Object.values(s.errors).reduce((a, b) => a + (b ?? 0), 0)
}

function Cells({ s }: { s: StatsBlock }) {
  const errors = errorTotal(s)
  return (
    <>
      <td className="num">{count(s.requests)}</td>
      <td className="num">{rate(s.throughput)}</td>
      <td className="num">{ms(s.latency.mean)}</td>
      <td className="num">{ms(s.latency.p50)}</td>
      <td className="num">{ms(s.latency.p95)}</td>
      <td className="num">{ms(s.latency.p99)}</td>
      <td className="num">{ms(s.latency.p999)}</td>
      <td className="num">{ms(s.latency.max)}</td>
      <td
        className="num"
        title={Object.entries(s.errors)
          .map(([k, v]) => `${k}: ${v}`)
          .join(', ')}
      >
        {count(errors)} {s.requests > 0 && errors > 0 ? `(${percent((errors / s.requests) * 100)})` : ''}
      </td>
    </>
  )
}

/** A duration row under a target: what it counts, then the latency columns, nothing for errors. */
function TimingRow({
  label,
  n,
  stats,
  title,
  testId,
}: {
  label: string
  n: string
  stats: LatencyStats
  title: string
  testId: string
}) {
  return (
    <tr className="sub-row" title={title} data-testid={testId}>
      <th scope="row">↳ {label}</th>
      <td className="num">{n}</td>
      <td className="num" />
      <td className="num">{ms(stats.mean)}</td>
      <td className="num">{ms(stats.p50)}</td>
      <td className="num">{ms(stats.p95)}</td>
      <td className="num">{ms(stats.p99)}</td>
      <td className="num">{ms(stats.p999)}</td>
      <td className="num">{ms(stats.max)}</td>
      <td className="num" />
    </tr>
  )
}

export function SummaryTable({ results }: { results: readonly TargetRoundSummary[] }) {
  const multiRound = results.some((r) => r.round > 1)
  return (
    <table className="table" data-testid="detail-summary">
      <thead>
        <tr>
          <th scope="col">Target</th>
          <th scope="col" className="num">
            Requests
          </th>
          <th scope="col" className="num">
            Throughput
          </th>
          <th scope="col" className="num">
            Mean
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
            p99.9
          </th>
          <th scope="col" className="num">
            Max
          </th>
          <th scope="col" className="num">
            Errors
          </th>
        </tr>
      </thead>
      <tbody>
        {results.map((r) => (
          <Fragment key={`${r.target}-${r.round}`}>
            <tr data-testid={`detail-summary-${r.target}`}>
              <th scope="row">
                {r.target}
                {multiRound ? ` · round ${r.round}` : ''}
              </th>
              <Cells s={r} />
            </tr>
            {r.phases.length > 1
              ? r.phases.map((p) => (
                  <tr
                    key={p.phase}
                    className={p.warmup ? 'sub-row warmup' : 'sub-row'}
                    data-testid={`detail-summary-${r.target}-phase`}
                  >
                    <th scope="row">
                      ↳ {p.phase}
                      {p.warmup ? <span className="muted"> (warm-up: not in the figures above)</span> : null}
                    </th>
                    <Cells s={p} />
                  </tr>
                ))
              : null}
            {(r.steps ?? []).map((st) => (
              <tr key={`step-${st.step}`} className="sub-row" data-testid={`detail-summary-${r.target}-step`}>
                <th scope="row">↳ step {st.step}</th>
                <Cells s={st} />
              </tr>
            ))}
            {r.connect ? (
              <TimingRow
                label="connect"
                n={`${count(r.connect.count)} conn.`}
                stats={r.connect}
                title="Connections opened: TCP connect and TLS handshake, not part of any request's latency"
                testId={`detail-summary-${r.target}-connect`}
              />
            ) : null}
            {r.schedule ? (
              <TimingRow
                label="sent late"
                n={`${count(r.schedule.late)} > 1 ms`}
                stats={r.schedule.lateness}
                title={`Rate mode: how long after its intended time each request left. ${count(r.schedule.sent)} of ${count(r.schedule.scheduled)} scheduled were sent; up to ${count(r.schedule.peakConnections)} connections were busy`}
                testId={`detail-summary-${r.target}-schedule`}
              />
            ) : null}
          </Fragment>
        ))}
      </tbody>
    </table>
  )
}

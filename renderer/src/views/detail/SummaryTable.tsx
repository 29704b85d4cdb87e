// The numbers of a run: one row per target and round, its phases (each with its own wall time)
// and scenario steps beneath it, the application and database time the target reported
// (Server-Timing) beside the client's latency, its connect times (never part of a request's
// latency) and, in rate mode, how late the sends left after their intended time. Counts and
// rates are engine/metrics/figures.ts's, as in the CLI, the exports and the report: requests in
// flight at the end are a column of their own, never errors; throughput is responses per second.
import { Fragment } from 'react'
import type { LatencyStats, StatsBlock, TargetRoundSummary } from '../../../../engine/api/types.ts'
import { figuresOf } from '../../../../engine/metrics/figures.ts'
import { errorsText } from '../../../../engine/metrics/units.ts'
import { count, ms, percent, rate } from '../../lib/format.ts'
import { NumHeads } from '../../ui/Common.tsx'

const LATENCY_COLUMNS = 7

function LatencyCells({ l }: { l: LatencyStats | null }) {
  if (!l || l.count === 0)
    return (
      <td className="num muted" colSpan={LATENCY_COLUMNS}>
        no responses
      </td>
    )
  return (
    <>
      <td className="num">{ms(l.mean)}</td>
      <td className="num">{ms(l.stddev)}</td>
      <td className="num">{ms(l.p50)}</td>
      <td className="num">{ms(l.p95)}</td>
      <td className="num">{ms(l.p99)}</td>
      <td className="num">{ms(l.p999)}</td>
      <td className="num">{ms(l.max)}</td>
    </>
  )
}

function Cells({ s }: { s: StatsBlock }) {
  const f = figuresOf(s)
  return (
    <>
      <td className="num">{f.seconds.toFixed(1)} s</td>
      <td className="num">{count(f.requests)}</td>
      <td className="num">{rate(f.throughput)}</td>
      <LatencyCells l={s.latency} />
      <td className="num" title={errorsText(f.errors)} data-testid="cell-errors">
        {count(f.failed)} {f.errorRate !== null && f.failed > 0 ? `(${percent(f.errorRate * 100)})` : ''}
      </td>
      <td className="num" data-testid="cell-inflight">
        {f.inflight ? count(f.inflight) : '–'}
      </td>
    </>
  )
}

/**
 * A duration under a target's row: how many it counts (responses that carried a Server-Timing
 * entry, connections opened, sends late by more than 1 ms), then its latency columns.
 */
function TimingRow({
  label,
  l,
  testId,
  n = count(l.count),
  title,
}: {
  label: string
  l: LatencyStats
  testId: string
  n?: string
  title?: string
}) {
  return (
    <tr className="sub-row" data-testid={testId} title={title}>
      <th scope="row">↳ {label}</th>
      <td className="num" />
      <td className="num">{n}</td>
      <td className="num" />
      <LatencyCells l={l} />
      <td className="num" />
      <td className="num" />
    </tr>
  )
}

export function SummaryTable({
  results,
  testId = 'detail-summary',
}: {
  results: readonly TargetRoundSummary[]
  testId?: string
}) {
  const multiRound = results.some((r) => r.round > 1)
  const inflight = results.some((r) => (r.errors.inflight ?? 0) > 0)
  return (
    <>
      <table className="table figures-table" data-testid={testId}>
        <thead>
          <tr>
            <th scope="col">Target</th>
            <th scope="col" className="num" title="Wall time of the window (a phase: its own)">
              Time
            </th>
            <th
              scope="col"
              className="num"
              title="Requests with an outcome: answered, or failed without an answer"
            >
              Requests
            </th>
            <th
              scope="col"
              className="num"
              title="Responses per second, any status; errors without an answer do not count"
            >
              Throughput
            </th>
            <NumHeads names={['Mean', 'Std dev', 'p50', 'p95', 'p99', 'p99.9', 'Max', 'Errors']} />
            <th
              scope="col"
              className="num"
              title="Still waiting when the window closed: neither an error nor a latency"
            >
              In flight at end
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
                        {p.warmup ? (
                          <span className="muted"> (warm-up: not in the figures above)</span>
                        ) : null}
                      </th>
                      <Cells s={p} />
                    </tr>
                  ))
                : null}
              {(r.steps ?? []).map((st) => (
                <tr
                  key={`step-${st.step}`}
                  className="sub-row"
                  data-testid={`detail-summary-${r.target}-step`}
                >
                  <th scope="row">↳ step {st.step}</th>
                  <Cells s={st} />
                </tr>
              ))}
              {r.serverApp ? (
                <TimingRow
                  label="app (Server-Timing)"
                  l={r.serverApp}
                  testId={`detail-summary-${r.target}-app`}
                />
              ) : null}
              {r.serverDb ? (
                <TimingRow
                  label="db (Server-Timing)"
                  l={r.serverDb}
                  testId={`detail-summary-${r.target}-db`}
                />
              ) : null}
              {r.connect ? (
                <TimingRow
                  label="connect"
                  n={`${count(r.connect.count)} conn.`}
                  l={r.connect}
                  title="Connections opened: TCP connect and TLS handshake, not part of any request's latency"
                  testId={`detail-summary-${r.target}-connect`}
                />
              ) : null}
              {r.schedule ? (
                <TimingRow
                  label="sent late"
                  n={`${count(r.schedule.late)} > 1 ms`}
                  l={r.schedule.lateness}
                  title={`Rate mode: how long after its intended time each request left. ${count(r.schedule.sent)} of ${count(r.schedule.scheduled)} scheduled were sent; up to ${count(r.schedule.peakConnections)} connections were busy`}
                  testId={`detail-summary-${r.target}-schedule`}
                />
              ) : null}
            </Fragment>
          ))}
        </tbody>
      </table>
      <p className="muted small" data-testid={`${testId}-note`}>
        Throughput counts responses of any status; timeouts and other errors without an answer do not. Latency
        is of answered requests only.
        {inflight
          ? ' In flight at end: requests still waiting when the window closed, neither errors nor latencies.'
          : ''}
      </p>
    </>
  )
}

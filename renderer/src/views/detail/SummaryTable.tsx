// The numbers of a run: one row per target and round, its phases (each with its own wall time)
// and scenario steps beneath it, in rate mode its latency from the intended send time (corrected)
// and the schedule, the application and database time the target reported (Server-Timing) beside
// the client's latency (and its headers that were not durations), its connect times (never part of a request's latency); and with several
// rounds, each target over its rounds (engine/metrics/over-rounds.ts: the figure the CLI's "all"
// rows and page 1 of the report give it).
import { Fragment } from 'react'
import type { TargetOverRounds, TargetRoundSummary } from '#engine/api/types.ts'
import { errorsText, serverTimingInvalidText } from '#engine/metrics/units.ts'
import { skippedText } from '#engine/metrics/skipped.ts'
import { figuresOf } from '#engine/metrics/figures.ts'
import { count } from '../../lib/format.ts'
import { NumHeads } from '../../ui/Primitives.tsx'
import { Cells, NoteRow, ScheduleRows, TimingRow } from './SummaryRows.tsx'

function Head() {
  return (
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
  )
}

/** A target's round and what is shown beneath it. */
function TargetRows({ r, multiRound }: { r: TargetRoundSummary; multiRound: boolean }) {
  const id = `detail-summary-${r.target}`
  return (
    <>
      <tr data-testid={id} data-round={r.round}>
        <th scope="row">
          {r.target}
          {multiRound ? ` · round ${r.round}` : ''}
        </th>
        <Cells s={r} />
      </tr>
      {r.phases.length > 1
        ? r.phases.map((p) => (
            <tr key={p.phase} className={p.warmup ? 'sub-row warmup' : 'sub-row'} data-testid={`${id}-phase`}>
              <th scope="row">
                ↳ {p.phase}
                {p.warmup ? <span className="muted"> (warm-up: not in the figures above)</span> : null}
              </th>
              <Cells s={p} />
            </tr>
          ))
        : null}
      {(r.steps ?? []).map((st) => (
        <Fragment key={`step-${st.step}`}>
          <tr className="sub-row" data-testid={`${id}-step`}>
            <th scope="row">↳ step {st.step}</th>
            <Cells s={st} />
          </tr>
          {figuresOf(st).failed > 0 || st.skipped ? (
            <NoteRow label={`step ${st.step}`} testId={`${id}-step-failures`}>
              {[
                figuresOf(st).failed > 0
                  ? errorsText(figuresOf(st).errors, count, figuresOf(st).unexpected)
                  : '',
                st.skipped ? skippedText(st.skipped, count) : '',
              ]
                .filter(Boolean)
                .join(' · ')}
            </NoteRow>
          ) : null}
        </Fragment>
      ))}
      {figuresOf(r).failed > 0 ? (
        <NoteRow label="errors" testId={`${id}-errors`}>
          {errorsText(figuresOf(r).errors, count, figuresOf(r).unexpected)}
        </NoteRow>
      ) : null}
      {r.corrected ? (
        <TimingRow label="corrected (from intended send)" l={r.corrected} testId={`${id}-corrected`} />
      ) : null}
      {r.schedule ? <ScheduleRows s={r.schedule} testId={`${id}-schedule`} /> : null}
      {r.serverApp ? <TimingRow label="app (Server-Timing)" l={r.serverApp} testId={`${id}-app`} /> : null}
      {r.serverDb ? <TimingRow label="db (Server-Timing)" l={r.serverDb} testId={`${id}-db`} /> : null}
      {r.serverTimingInvalid > 0 ? (
        <NoteRow label="Server-Timing" testId={`${id}-server-timing-invalid`}>
          {serverTimingInvalidText(r.serverTimingInvalid, count)}
        </NoteRow>
      ) : null}
      {r.connect ? (
        <TimingRow
          label="connect"
          n={`${count(r.connect.count)} conn.`}
          l={r.connect}
          testId={`${id}-connect`}
        />
      ) : null}
    </>
  )
}

/** A target over its rounds, and its corrected latency over them in rate mode. */
function OverRoundsRows({ o }: { o: TargetOverRounds }) {
  const id = `detail-summary-${o.target}`
  return (
    <>
      <tr className="over-rounds" data-testid={`${id}-all`} data-round="all">
        <th scope="row">
          {o.target} · all {o.rounds} rounds
        </th>
        <Cells s={o} />
      </tr>
      {o.corrected ? (
        <TimingRow label="corrected (from intended send)" l={o.corrected} testId={`${id}-all-corrected`} />
      ) : null}
    </>
  )
}

export function SummaryTable({
  results,
  overRounds = [],
  testId = 'detail-summary',
}: {
  results: readonly TargetRoundSummary[]
  overRounds?: readonly TargetOverRounds[]
  testId?: string
}) {
  const multiRound = results.some((r) => r.round > 1)
  const inflight = results.some((r) => (r.errors.inflight ?? 0) > 0)
  const all = overRounds.filter((o) => o.rounds > 1)
  return (
    <>
      <table className="table figures-table" data-testid={testId}>
        <Head />
        <tbody>
          {results.map((r) => (
            <Fragment key={`${r.target}-${r.round}`}>
              <TargetRows r={r} multiRound={multiRound} />
            </Fragment>
          ))}
          {all.map((o) => (
            <OverRoundsRows key={o.target} o={o} />
          ))}
        </tbody>
      </table>
      <p className="muted small" data-testid={`${testId}-note`}>
        Throughput counts responses of any status; timeouts and other errors without an answer do not. Latency
        is of answered requests only; connect times (TCP, and TLS for https) are in none of them.
        {inflight
          ? ' In flight at end: requests still waiting when the window closed, neither errors nor latencies.'
          : ''}
        {all.length
          ? ' All rounds: the target over its rounds, as the CLI and the report give it: requests and errors summed, throughput the mean of the rounds, latency every request of every round.'
          : ''}
      </p>
    </>
  )
}

// The rows of the summary table (SummaryTable.tsx): a block's figures, and the durations and
// counts shown under a target's row. Counts and rates are engine/metrics/figures.ts's, as in the
// CLI, the exports and the report: requests in flight at the end are a column of their own (0
// when there were none, never "–"), throughput is responses per second.
import type { ReactNode } from 'react'
import type { LatencyStats, ScheduleStats, StatsBlock } from '#engine/api/types.ts'
import { figuresOf } from '#engine/metrics/figures.ts'
import { errorsText } from '#engine/metrics/units.ts'
import { count, ms, percent, rate } from '../../lib/format.ts'

const LATENCY_COLUMNS = 7
/** Columns after the row's name: time, requests, throughput, 7 latencies, errors, in flight. */
export const VALUE_COLUMNS = 3 + LATENCY_COLUMNS + 2

export function LatencyCells({ l }: { l: LatencyStats | null }) {
  if (!l || l.count === 0)
    return (
      <td className="num muted" colSpan={LATENCY_COLUMNS}>
        no responses
      </td>
    )
  return (
    <>
      {[l.mean, l.stddev, l.p50, l.p95, l.p99, l.p999, l.max].map((v, i) => (
        <td key={i} className="num">
          {ms(v)}
        </td>
      ))}
    </>
  )
}

export function Cells({ s }: { s: StatsBlock }) {
  const f = figuresOf(s)
  return (
    <>
      <td className="num">{f.seconds.toFixed(1)} s</td>
      <td className="num">{count(f.requests)}</td>
      <td className="num">{rate(f.throughput)}</td>
      <LatencyCells l={s.latency} />
      <td className="num" title={errorsText(f.errors, count, f.unexpected)} data-testid="cell-errors">
        {count(f.failed)} {f.errorRate !== null && f.failed > 0 ? `(${percent(f.errorRate * 100)})` : ''}
      </td>
      <td className="num" data-testid="cell-inflight">
        {count(f.inflight)}
      </td>
    </>
  )
}

/**
 * A duration under a target's row: how many it counts (responses that carried a Server-Timing
 * entry, connections opened, sends late by more than 1 ms), then its latency columns.
 */
export function TimingRow({
  label,
  l,
  testId,
  n = count(l.count),
}: {
  label: string
  l: LatencyStats
  testId: string
  n?: string
}) {
  return (
    <tr className="sub-row" data-testid={testId}>
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

/** A line of words under a target's row, across the value columns. */
export function NoteRow({ label, testId, children }: { label: string; testId: string; children: ReactNode }) {
  return (
    <tr className="sub-row" data-testid={testId}>
      <th scope="row">↳ {label}</th>
      <td colSpan={VALUE_COLUMNS}>{children}</td>
    </tr>
  )
}

/**
 * Rate mode: how the sends kept to the schedule, as rows (not a tooltip): the counts (scheduled,
 * sent, never sent, late, the most connections busy at once), then the lateness percentiles.
 */
export function ScheduleRows({ s, testId }: { s: ScheduleStats; testId: string }) {
  const items: [string, string, number][] = [
    ['scheduled', 'scheduled', s.scheduled],
    ['sent', 'sent', s.sent],
    ['unsent', 'never sent', s.unsent],
    ['late', 'late > 1 ms', s.late],
    ['peak', 'peak connections', s.peakConnections],
  ]
  return (
    <>
      <NoteRow label="schedule" testId={`${testId}-counts`}>
        {items.map(([key, label, n], i) => (
          <span key={key}>
            {i > 0 ? ' · ' : ''}
            {label} <b data-testid={`${testId}-${key}`}>{count(n)}</b>
          </span>
        ))}
      </NoteRow>
      <TimingRow
        label="lateness after the intended time"
        n={`${count(s.late)} late`}
        l={s.lateness}
        testId={testId}
      />
    </>
  )
}

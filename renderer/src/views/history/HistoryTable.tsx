// History's table of runs (one RunRow each) and its pager.
import type { RunListItem, StudyListItem } from '#engine/api/types.ts'
import { count, dateTime, duration } from '../../lib/format.ts'
import { Button } from '../../ui/Primitives.tsx'
import { RunRow } from './RunRow.tsx'
import { PAGE } from './useHistory.ts'

const COLUMNS = ['Run', 'Status', 'Targets', 'Started', 'Length', 'Requests', 'Tags']

export function HistoryTable({
  items,
  loading,
  picked,
  studies,
  onToggle,
  onChanged,
}: {
  items: RunListItem[]
  loading: boolean
  picked: (runId: number) => boolean
  studies: ReadonlyMap<number, StudyListItem>
  onToggle: (run: RunListItem) => void
  onChanged: (runId: number) => void
}) {
  return (
    <table className="table" data-testid="history-table" aria-busy={loading}>
      <thead>
        <tr>
          <th scope="col">
            <span className="sr-only">Select</span>
          </th>
          {COLUMNS.map((c) => (
            <th scope="col" key={c} className={c === 'Requests' ? 'num' : undefined}>
              {c}
            </th>
          ))}
          <th scope="col">
            <span className="sr-only">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {items.map((run) => (
          <RunRow
            key={run.runId}
            run={run}
            selected={picked(run.runId)}
            study={studies.get(run.runId) ?? null}
            onToggle={() => onToggle(run)}
            onChanged={() => onChanged(run.runId)}
            cells={{
              started: dateTime(run.startedAt),
              length: duration(run.durationSeconds),
              requests: count(run.requests),
            }}
          />
        ))}
        {items.length === 0 && !loading ? (
          <tr>
            <td colSpan={COLUMNS.length + 2} className="muted" data-testid="history-no-match">
              No run matches these filters.
            </td>
          </tr>
        ) : null}
      </tbody>
    </table>
  )
}

export function Pager({
  offset,
  total,
  onOffset,
}: {
  offset: number
  total: number
  onOffset: (offset: number) => void
}) {
  return (
    <footer className="pager">
      <Button
        disabled={offset === 0}
        onClick={() => onOffset(Math.max(0, offset - PAGE))}
        data-testid="history-prev"
      >
        Previous
      </Button>
      <span data-testid="history-count">
        {total === 0 ? 'no runs' : `${offset + 1}–${Math.min(offset + PAGE, total)} of ${total}`}
      </span>
      <Button
        disabled={offset + PAGE >= total}
        onClick={() => onOffset(offset + PAGE)}
        data-testid="history-next"
      >
        Next
      </Button>
    </footer>
  )
}

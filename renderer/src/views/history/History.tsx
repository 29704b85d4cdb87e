// History: every run kept, searchable and filterable by status, target and tag; tags edited in
// place; runs opened, deleted, or picked for comparison.
import { useState } from 'react'
import { RUN_STATUSES, type RunListItem, type RunStatus } from '../../../../engine/api/types.ts'
import { useApi, useAsync } from '../../api/context.tsx'
import { Link, navigate } from '../../app/router.tsx'
import { Banner, Button, EmptyState } from '../../ui/Common.tsx'
import { DemoButton } from '../../ui/DemoButton.tsx'
import { ExportReport } from '../../ui/ExportReport.tsx'
import { dateTime, count, duration } from '../../lib/format.ts'
import { RunRow } from './RunRow.tsx'
import { useDebounced } from '../../lib/useDebounced.ts'
import { useStudyIndex } from '../studies/useStudies.ts'

const PAGE = 25
type StatusFilter = '' | RunStatus

export function History() {
  const api = useApi()
  const [search, setSearch] = useState('')
  const [status, setStatus] = useState<StatusFilter>('')
  const [target, setTarget] = useState('')
  const [tag, setTag] = useState('')
  const [offset, setOffset] = useState(0)
  const [selected, setSelected] = useState<number[]>([])
  const filtered = search !== '' || status !== '' || target !== '' || tag !== ''
  // Strings, not an object: the debounced value must compare equal when nothing changed.
  const text = {
    search: useDebounced(search.trim()),
    target: useDebounced(target.trim()),
    tag: useDebounced(tag.trim()),
  }

  const list = useAsync(
    () =>
      api.runs.list({
        search: text.search || undefined,
        status: status || undefined,
        target: text.target || undefined,
        tags: text.tag ? [text.tag] : undefined,
        limit: PAGE,
        offset,
      }),
    [api, text.search, text.target, text.tag, status, offset],
  )

  // Runs of a sweep link to their study (refreshed with the list).
  const studies = useStudyIndex(list.data)
  const toggle = (runId: number) =>
    setSelected((s) => (s.includes(runId) ? s.filter((x) => x !== runId) : [...s, runId]))
  const items: RunListItem[] = list.data?.items ?? []
  const total = list.data?.total ?? 0

  if (!list.loading && !list.error && total === 0 && !filtered) {
    return (
      <EmptyState title="No runs yet" testId="history-empty">
        <p>
          Cannonade keeps every run here. To see what a run looks like, start the demo: a 10-second run
          against a small server built into Cannonade.
        </p>
        <p className="actions">
          <DemoButton />
          <Link className="btn btn-secondary" to="/new" data-testid="history-empty-new">
            Configure a run
          </Link>
          <Link className="btn btn-secondary" to="/stacks">
            Launch a target stack
          </Link>
        </p>
      </EmptyState>
    )
  }

  return (
    <section data-testid="history">
      <header className="view-head">
        <h1>History</h1>
        <div className="actions">
          <Button
            variant="primary"
            disabled={selected.length < 1}
            onClick={() => navigate(`/compare?runs=${selected.join(',')}`)}
            data-testid="history-compare"
            title={selected.length === 1 ? 'Compare the targets of this run' : 'Compare the selected runs'}
          >
            Compare{selected.length > 0 ? ` (${selected.length})` : ''}
          </Button>
          <Link className="btn btn-secondary" to="/new">
            New run
          </Link>
        </div>
      </header>
      {selected.length > 0 ? (
        <div className="selection-bar" data-testid="history-selection">
          <span>{selected.length} selected: compare them, or make a report to hand on.</span>
          <ExportReport runIds={selected} testId="history-report" />
        </div>
      ) : null}
      <form className="filters" role="search" onSubmit={(e) => e.preventDefault()}>
        <label>
          Search
          <input
            type="search"
            value={search}
            placeholder="name or note"
            onChange={(e) => (setSearch(e.target.value), setOffset(0))}
            data-testid="history-search"
          />
        </label>
        <label>
          Status
          <select
            value={status}
            onChange={(e) => (setStatus(e.target.value as StatusFilter), setOffset(0))}
            data-testid="history-status"
          >
            <option value="">any</option>
            {RUN_STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <label>
          Target
          <input
            value={target}
            placeholder="target name"
            onChange={(e) => (setTarget(e.target.value), setOffset(0))}
            data-testid="history-target"
          />
        </label>
        <label>
          Tag
          <input
            value={tag}
            placeholder="tag"
            onChange={(e) => (setTag(e.target.value), setOffset(0))}
            data-testid="history-tag"
          />
        </label>
      </form>
      {list.error ? <Banner kind="error">Could not load runs: {list.error}</Banner> : null}
      <table className="table" data-testid="history-table" aria-busy={list.loading}>
        <thead>
          <tr>
            <th scope="col">
              <span className="sr-only">Select</span>
            </th>
            <th scope="col">Run</th>
            <th scope="col">Status</th>
            <th scope="col">Targets</th>
            <th scope="col">Started</th>
            <th scope="col">Length</th>
            <th scope="col" className="num">
              Requests
            </th>
            <th scope="col">Tags</th>
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
              selected={selected.includes(run.runId)}
              study={studies.byRun.get(run.runId) ?? null}
              onToggle={() => toggle(run.runId)}
              onChanged={() => {
                setSelected((s) => s.filter((x) => x !== run.runId || items.some((i) => i.runId === x)))
                list.reload()
              }}
              cells={{
                started: dateTime(run.startedAt),
                length: duration(run.durationSeconds),
                requests: count(run.requests),
              }}
            />
          ))}
          {items.length === 0 && !list.loading ? (
            <tr>
              <td colSpan={9} className="muted" data-testid="history-no-match">
                No run matches these filters.
              </td>
            </tr>
          ) : null}
        </tbody>
      </table>
      <footer className="pager">
        <Button
          disabled={offset === 0}
          onClick={() => setOffset(Math.max(0, offset - PAGE))}
          data-testid="history-prev"
        >
          Previous
        </Button>
        <span data-testid="history-count">
          {total === 0 ? 'no runs' : `${offset + 1}–${Math.min(offset + PAGE, total)} of ${total}`}
        </span>
        <Button
          disabled={offset + PAGE >= total}
          onClick={() => setOffset(offset + PAGE)}
          data-testid="history-next"
        >
          Next
        </Button>
      </footer>
    </section>
  )
}

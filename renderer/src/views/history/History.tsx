// History: every run kept, searchable and filterable by status, target and tag; tags edited in
// place; runs opened, deleted, or picked for comparison (the oldest picked is the baseline).
import { Link, navigate } from '../../app/router.tsx'
import { Banner, Button, EmptyState } from '../../ui/Primitives.tsx'
import { DemoButton } from '../../ui/DemoButton.tsx'
import { QuickRun } from '../../ui/QuickRun.tsx'
import { ExportReport } from '../../ui/ExportReport.tsx'
import { useStudyIndex } from '../studies/useStudies.ts'
import { HistoryFilters } from './HistoryFilters.tsx'
import { HistoryTable, Pager } from './HistoryTable.tsx'
import { oldestFirst } from './selection.ts'
import { useHistory } from './useHistory.ts'

function NoRunsYet() {
  return (
    <EmptyState title="No runs yet" testId="history-empty">
      <p>Give it a URL and start: 10 connections for 10 seconds unless you say otherwise.</p>
      <QuickRun />
      <p>
        Cannonade keeps every run here. To see what a run looks like, start the demo: a 10-second run against
        a small server built into Cannonade.
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

function CompareButton({ runIds }: { runIds: number[] }) {
  return (
    <Button
      variant="primary"
      disabled={runIds.length < 1}
      onClick={() => navigate(`/compare?runs=${runIds.join(',')}`)}
      data-testid="history-compare"
      title={runIds.length === 1 ? 'Compare the targets of this run' : 'Compare the selected runs'}
    >
      Compare{runIds.length > 0 ? ` (${runIds.length})` : ''}
    </Button>
  )
}

export function History() {
  const h = useHistory()
  // Runs of a sweep link to their study (refreshed with the list).
  const studies = useStudyIndex(h.list.data)
  // The oldest picked is the baseline of the comparison and the report.
  const runIds = oldestFirst(h.picked)
  if (!h.list.loading && !h.list.error && h.total === 0 && !h.filtered) return <NoRunsYet />
  return (
    <section data-testid="history">
      <header className="view-head">
        <h1>History</h1>
        <div className="actions">
          <CompareButton runIds={runIds} />
          <Link className="btn btn-secondary" to="/new">
            New run
          </Link>
        </div>
      </header>
      {runIds.length > 0 ? (
        <div className="selection-bar" data-testid="history-selection">
          <span>{runIds.length} selected: compare them, or make a report to hand on.</span>
          <ExportReport runIds={runIds} testId="history-report" />
        </div>
      ) : null}
      <QuickRun />
      <HistoryFilters filters={h.filters} filter={h.filter} />
      {h.list.error ? <Banner kind="error">Could not load runs: {h.list.error}</Banner> : null}
      <HistoryTable
        items={h.items}
        loading={h.list.loading}
        picked={(runId) => runIds.includes(runId)}
        studies={studies.byRun}
        onToggle={h.toggle}
        onChanged={h.changed}
      />
      <Pager offset={h.offset} total={h.total} onOffset={h.setOffset} />
    </section>
  )
}

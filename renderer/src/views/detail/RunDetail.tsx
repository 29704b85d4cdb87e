// One stored run: what was run (config), how it went (summary per target, round and phase), its
// per-second charts from the stored series (downsampled by the engine to ~2000 points whatever
// the run's length), the requests themselves, notes and tags, exports.
import { useState } from 'react'
import { stringify } from 'yaml'
import { useAction, useApi, useAsync } from '../../api/context.tsx'
import { Link, navigate } from '../../app/router.tsx'
import { Banner, Button, Card, StatusBadge } from '../../ui/Primitives.tsx'
import { RunWarnings } from '../../ui/RunWarnings.tsx'
import { thresholdSentence } from '#engine/metrics/units.ts'
import { targetLine } from '#engine/report/sections.ts'
import { dateTime } from '../../lib/format.ts'
import { MAX_CHART_POINTS } from '../../lib/series.ts'
import { RunCharts } from '../live/RunCharts.tsx'
import { Distribution } from './Distribution.tsx'
import { SampleExplorer } from './SampleExplorer.tsx'
import { SummaryTable } from './SummaryTable.tsx'
import { Rounds } from './Rounds.tsx'
import { Findings } from './Findings.tsx'
import { AgentsBreakdown } from './AgentsBreakdown.tsx'
import { Exports } from './Exports.tsx'
import { Ledger } from './Ledger.tsx'
import { useStudyIndex } from '../studies/useStudies.ts'
import { parseTags } from '../history/RunRow.tsx'
import type { RunSummary } from '#engine/api/types.ts'
import type { RunConfig } from '#engine/config/schema.ts'

function TagsAndNote({
  runId,
  tags,
  note,
  onSaved,
}: {
  runId: number
  tags: string[]
  note: string
  onSaved: () => void
}) {
  const api = useApi()
  const [tagText, setTagText] = useState(tags.join(', '))
  const [noteText, setNoteText] = useState(note)
  const save = useAction(async () => {
    await api.runs.tag(runId, parseTags(tagText))
    await api.runs.note(runId, noteText)
    onSaved()
  })
  const dirty = tagText !== tags.join(', ') || noteText !== note
  return (
    <Card title="Tags and note" testId="detail-notes">
      <label className="field">
        Tags (comma separated)
        <input value={tagText} onChange={(e) => setTagText(e.target.value)} data-testid="detail-tags" />
      </label>
      <label className="field">
        Note
        <textarea
          rows={3}
          value={noteText}
          onChange={(e) => setNoteText(e.target.value)}
          data-testid="detail-note"
        />
      </label>
      <Button
        disabled={!dirty}
        busy={save.busy}
        onClick={() => void save.run()}
        data-testid="detail-save-notes"
      >
        Save
      </Button>
      {save.error ? <span className="field-error">{save.error}</span> : null}
    </Card>
  )
}

type Run = RunSummary & { config: RunConfig }

function Header({ r }: { r: Run }) {
  const targets = [...new Set(r.results.map((x) => x.target))]
  return (
    <>
      <header className="view-head">
        <h1>
          #{r.runId} {r.name} <StatusBadge status={r.status} />
        </h1>
        <div className="actions">
          {r.status === 'running' ? (
            <Link className="btn btn-primary" to={`/live/${r.runId}`}>
              Watch live
            </Link>
          ) : null}
          {targets.length > 1 ? (
            <Button onClick={() => navigate(`/compare?runs=${r.runId}`)} data-testid="detail-compare-targets">
              Compare its targets
            </Button>
          ) : null}
          <Button onClick={() => navigate(`/new?from=${r.runId}`)} data-testid="detail-run-again">
            Run again…
          </Button>
        </div>
      </header>
      <p className="muted">
        Started {dateTime(r.startedAt)}
        {r.endedAt ? `, ended ${dateTime(r.endedAt)}` : ''}. Correlation ids:{' '}
        <code>{r.correlationPrefix}-…</code>
      </p>
      <TargetLines config={r.config} />
    </>
  )
}

/** What each target was sent and over what protocol, in the report's and Review's words. */
function TargetLines({ config }: { config: RunConfig }) {
  return (
    <ul className="muted" data-testid="detail-targets">
      {config.targets.map((t, i) => (
        <li key={t.name} data-testid={`detail-target-${i}`}>
          {targetLine(t)}
        </li>
      ))}
    </ul>
  )
}

function StudyLine({ runId }: { runId: number }) {
  const study = useStudyIndex(runId).byRun.get(runId) ?? null
  if (!study) return null
  return (
    <p data-testid="detail-study">
      One value of the study{' '}
      <Link to={`/studies/${study.studyId}`} data-testid="detail-study-link">
        #{study.studyId} {study.name}
      </Link>{' '}
      (sweep of{' '}
      {study.axes.map((a, i) => (
        <span key={a.path}>
          {i > 0 ? ' against ' : ''}
          <code>{a.path}</code> over {a.labels.join(', ')}
        </span>
      ))}
      ).
    </p>
  )
}

/** How the run went, beside its figures: its end, monitors that failed, the generator, thresholds. */
function Banners({ r }: { r: Run }) {
  return (
    <>
      {r.status === 'failed' ? (
        <Banner kind="error" testId="detail-failed">
          The run failed: {r.error ?? 'no reason recorded'}
        </Banner>
      ) : null}
      <RunWarnings warnings={r.warnings} testId="detail-warnings" />
      {r.status === 'partial' ? (
        <Banner kind="warning" testId="detail-partial">
          The run is partial: {r.error ?? 'a load agent did not finish'}. Its figures hold only what the
          remaining agents measured.
        </Banner>
      ) : null}
      {r.generator.saturated || r.generator.shared ? (
        <Banner kind="warning" testId="detail-saturation">
          {r.generator.message ??
            `The load generator was saturated for ${r.generator.saturatedSeconds} of ${r.generator.seconds} s: these numbers are limited by Cannonade, not the target.`}
        </Banner>
      ) : null}
      {r.thresholds.length > 0 ? (
        <Banner kind={r.thresholdsPassed ? 'success' : 'error'} testId="detail-thresholds">
          Thresholds {r.thresholdsPassed ? 'passed' : 'failed'}:{' '}
          {r.thresholds.map((t) => `${t.passed ? '✓' : '✗'} ${thresholdSentence(t)}`).join(' · ')}
        </Banner>
      ) : null}
    </>
  )
}

/** The run's figures, distribution and per-second charts (with each instance's resources). */
function Figures({ r }: { r: Run }) {
  const api = useApi()
  const runId = r.runId
  const series = useAsync(() => api.runs.series(runId, { maxPoints: MAX_CHART_POINTS }), [api, runId])
  const resources = useAsync(() => api.runs.resources(runId), [api, runId])
  const distribution = useAsync(() => api.runs.distribution(runId), [api, runId])
  const order = r.config.targets.map((t) => t.name)
  return (
    <>
      <Card title="Summary">
        {r.results.length > 0 ? (
          <SummaryTable results={r.results} overRounds={r.overRounds} />
        ) : (
          <p className="muted">No results were recorded.</p>
        )}
      </Card>
      <Rounds rounds={r.rounds} machine={r.machine} results={r.results} targets={r.config.targets.length} />
      <Findings results={r.results} limitedBy={r.limitedBy} />
      {r.distribution ? <AgentsBreakdown distribution={r.distribution} results={r.results} /> : null}
      {series.error ? <Banner kind="error">Could not load the series: {series.error}</Banner> : null}
      <Distribution
        runs={distribution.data ? [{ runId, curves: distribution.data }] : []}
        targets={order}
        testId="detail-chart-distribution"
      />
      <RunCharts
        points={series.data ?? []}
        resources={resources.data ?? []}
        prefix="detail"
        targets={order}
        overlay
        results={r.results}
      />
    </>
  )
}

export default function RunDetail({ runId }: { runId: number }) {
  const api = useApi()
  const run = useAsync(() => api.runs.get(runId), [api, runId])
  if (run.error)
    return (
      <Banner kind="error" testId="detail-error">
        Could not load run #{runId}: {run.error}
      </Banner>
    )
  const r = run.data
  if (!r) return <div className="loading">Loading run #{runId}…</div>
  return (
    <section data-testid="detail" data-run-id={runId}>
      <Header r={r} />
      <StudyLine runId={runId} />
      <Banners r={r} />
      <Figures r={r} />
      <SampleExplorer
        runId={runId}
        prefix={r.correlationPrefix}
        targets={[...new Set(r.results.map((x) => x.target))]}
      />
      <div className="grid-2">
        <TagsAndNote
          key={`${r.tags.join(',')}|${r.note}`}
          runId={runId}
          tags={r.tags}
          note={r.note}
          onSaved={run.reload}
        />
        <Card title="Exports">
          <Exports runId={runId} />
        </Card>
      </div>
      <Ledger runId={runId} running={r.status === 'running'} />
      <details className="advanced">
        <summary>Run config</summary>
        <pre className="yaml" data-testid="detail-config">
          {stringify(r.config, { lineWidth: 0 })}
        </pre>
      </details>
    </section>
  )
}

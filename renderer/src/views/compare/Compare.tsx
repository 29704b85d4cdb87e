// Compare: two or more runs, or the targets of one run. The engine computes the deltas and their
// uncertainty (runs.compare); this view draws the overlays and lets the user pick the baseline.
import { useState } from 'react'
import { useApi, useAsync } from '../../api/context.tsx'
import { Link, navigate } from '../../app/router.tsx'
import { Banner, Button, Card, EmptyState, StatusBadge } from '../../ui/Common.tsx'
import { dateTime } from '../../lib/format.ts'
import { MAX_CHART_POINTS } from '../../lib/series.ts'
import { ExportReport } from '../../ui/ExportReport.tsx'
import { CompareCharts, type RunData } from './CompareCharts.tsx'
import { DeltaTable } from './DeltaTable.tsx'

function parseIds(text: string | null): number[] {
  return [
    ...new Set(
      (text ?? '')
        .split(',')
        .filter((s) => /^\d+$/.test(s))
        .map(Number),
    ),
  ].filter((n) => n > 0)
}

function Picker() {
  const api = useApi()
  const list = useAsync(() => api.runs.list({ limit: 30, status: 'done' }), [api])
  const [picked, setPicked] = useState<number[]>([])
  const items = list.data?.items ?? []
  if (!list.loading && items.length === 0) {
    return (
      <EmptyState title="Nothing to compare yet" testId="compare-empty">
        <p>
          Compare needs finished runs: two runs of different servers, or one run with two targets (say
          node-http and java-jetty).
        </p>
        <p className="actions">
          <Link className="btn btn-primary" to="/new">
            Configure a run
          </Link>
          <Link className="btn btn-secondary" to="/stacks">
            Launch target stacks
          </Link>
        </p>
      </EmptyState>
    )
  }
  return (
    <Card title="Choose runs to compare" testId="compare-picker">
      <p className="muted">Pick two or more runs, or one run with several targets.</p>
      <ul className="pick-list">
        {items.map((r) => (
          <li key={r.runId}>
            <label>
              <input
                type="checkbox"
                checked={picked.includes(r.runId)}
                onChange={() =>
                  setPicked((p) => (p.includes(r.runId) ? p.filter((x) => x !== r.runId) : [...p, r.runId]))
                }
                data-testid={`compare-pick-${r.runId}`}
              />
              #{r.runId} {r.name}{' '}
              <span className="muted">
                ({r.targets.join(', ')}, {dateTime(r.startedAt)})
              </span>
            </label>
          </li>
        ))}
      </ul>
      <Button
        variant="primary"
        disabled={picked.length === 0}
        onClick={() => navigate(`/compare?runs=${picked.join(',')}`)}
        data-testid="compare-go"
      >
        Compare
      </Button>
    </Card>
  )
}

export default function Compare({ query }: { query: URLSearchParams }) {
  const api = useApi()
  const runIds = parseIds(query.get('runs'))
  const baselineParam = query.get('baseline')
  const [baseRun, ...baseTarget] = (baselineParam ?? '').split(':')
  const baseline =
    baselineParam && /^\d+$/.test(baseRun ?? '')
      ? { runId: Number(baseRun), target: baseTarget.join(':') }
      : undefined
  const key = runIds.join(',')

  const result = useAsync(
    () => (runIds.length ? api.runs.compare({ runIds, baseline }) : Promise.resolve(null)),
    [api, key, baselineParam],
  )
  const data = useAsync(
    async (): Promise<RunData[]> =>
      Promise.all(
        runIds.map(async (id) => {
          const [run, series, resources] = await Promise.all([
            api.runs.get(id),
            api.runs.series(id, { maxPoints: Math.ceil(MAX_CHART_POINTS / runIds.length) }),
            api.runs.resources(id),
          ])
          return { run, series, resources }
        }),
      ),
    [api, key],
  )

  if (runIds.length === 0) return <Picker />
  const entries = result.data ? [result.data.baseline, ...result.data.others.map((o) => o.entry)] : []
  const setBaseline = (value: string) =>
    navigate(`/compare?runs=${key}&baseline=${encodeURIComponent(value)}`)
  return (
    <section data-testid="compare">
      <header className="view-head">
        <h1>Compare</h1>
        <div className="actions">
          {entries.length > 1 ? (
            <label className="inline-label">
              Baseline
              <select
                value={result.data ? `${result.data.baseline.runId}:${result.data.baseline.target}` : ''}
                onChange={(e) => setBaseline(e.target.value)}
                data-testid="compare-baseline"
              >
                {entries.map((e) => (
                  <option key={`${e.runId}:${e.target}`} value={`${e.runId}:${e.target}`}>
                    {e.label}
                  </option>
                ))}
              </select>
            </label>
          ) : null}
          <Link className="btn btn-secondary" to="/compare">
            Choose other runs
          </Link>
        </div>
      </header>
      <ExportReport runIds={runIds} testId="compare-report" />
      <ul className="compared" data-testid="compare-runs">
        {(data.data ?? []).map((d) => (
          <li key={d.run.runId}>
            <Link to={`/runs/${d.run.runId}`}>
              #{d.run.runId} {d.run.name}
            </Link>{' '}
            <StatusBadge status={d.run.status} />{' '}
            <span className="muted">
              {d.run.results
                .map((r) => r.target)
                .filter((t, i, a) => a.indexOf(t) === i)
                .join(', ')}
            </span>
          </li>
        ))}
      </ul>
      {result.error ? (
        <Banner kind="error" testId="compare-error">
          Cannot compare: {result.error}
        </Banner>
      ) : null}
      {data.error ? <Banner kind="error">Could not load the runs: {data.error}</Banner> : null}
      {result.data ? (
        <Card title="Differences" testId="compare-result">
          <DeltaTable result={result.data} />
        </Card>
      ) : result.loading ? (
        <div className="loading">Comparing…</div>
      ) : null}
      {data.data ? <CompareCharts data={data.data} /> : null}
    </section>
  )
}

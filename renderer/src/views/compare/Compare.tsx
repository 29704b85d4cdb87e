// Compare: two or more runs, or the targets of one run. The engine pairs the entries, computes the
// ratios, intervals and verdicts and words the headline (runs.compare); this view shows them, draws
// the overlays, and lets the user pick the baseline, the margin that matters, or a curve instead.
import { useState } from 'react'
import { useApi, useAsync } from '../../api/context.tsx'
import { Link, navigate } from '../../app/router.tsx'
import { Banner, Button, Card, EmptyState, StatusBadge } from '../../ui/Common.tsx'
import { dateTime } from '../../lib/format.ts'
import { MAX_CHART_POINTS } from '../../lib/series.ts'
import { ExportReport } from '../../ui/ExportReport.tsx'
import { CompareCharts, type RunData } from './CompareCharts.tsx'
import { PairsTable } from './PairsTable.tsx'
import { SeriesView } from './SeriesView.tsx'

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

/** The comparison options kept in the URL, so a link reopens the same comparison. */
function useOptions(query: URLSearchParams) {
  const baselineParam = query.get('baseline')
  const [baseRun, ...baseTarget] = (baselineParam ?? '').split(':')
  const baseline =
    baselineParam && /^\d+$/.test(baseRun ?? '') && baseTarget.length
      ? { runId: Number(baseRun), target: baseTarget.join(':') }
      : undefined
  const margin = Number(query.get('margin'))
  const minEffect = margin > 0 && margin <= 100 ? margin : undefined
  const asSeries = query.get('series') === '1'
  return { baseline, baselineParam, minEffect, asSeries }
}

export default function Compare({ query }: { query: URLSearchParams }) {
  const api = useApi()
  const runIds = parseIds(query.get('runs'))
  const { baseline, baselineParam, minEffect, asSeries } = useOptions(query)
  const key = runIds.join(',')

  const result = useAsync(
    () =>
      runIds.length
        ? api.runs.compare({
            runIds,
            ...(baseline ? { baseline } : {}),
            ...(minEffect !== undefined ? { minEffect } : {}),
            asSeries,
          })
        : Promise.resolve(null),
    [api, key, baselineParam, minEffect, asSeries],
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
  const entries = result.data?.entries ?? []
  const go = (change: { baseline?: string; margin?: string; series?: boolean }) => {
    const params = new URLSearchParams({ runs: key })
    const b = change.baseline ?? baselineParam
    if (b) params.set('baseline', b)
    const m = change.margin ?? (minEffect !== undefined ? String(minEffect) : '')
    if (m) params.set('margin', m)
    if (change.series ?? asSeries) params.set('series', '1')
    navigate(`/compare?${params.toString()}`)
  }
  const chosen = result.data?.baseline
  return (
    <section data-testid="compare">
      <header className="view-head">
        <h1>Compare</h1>
        <div className="actions">
          {entries.length > 1 && !result.data?.series ? (
            <label className="inline-label">
              Baseline
              <select
                value={chosen ? `${chosen.runId}:${chosen.target}` : ''}
                onChange={(e) => go({ baseline: e.target.value })}
                data-testid="compare-baseline"
                title="Within a run: the target the others are held against. Across runs: the run the others are held against (targets are paired by name)."
              >
                {entries.map((e) => (
                  <option key={`${e.runId}:${e.target}`} value={`${e.runId}:${e.target}`}>
                    {e.label}
                  </option>
                ))}
              </select>
            </label>
          ) : null}
          <label
            className="inline-label"
            title="A smaller difference is reported as no difference that matters"
          >
            Smallest difference that matters ±
            <input
              type="number"
              min={0.5}
              max={100}
              step={0.5}
              className="narrow"
              value={result.data?.minEffect ?? minEffect ?? 5}
              onChange={(e) => go({ margin: e.target.value })}
              data-testid="compare-min-effect"
            />
            %
          </label>
          <label
            className="inline-label"
            title="The entries are sizes of one thing: draw a curve against the value"
          >
            <input
              type="checkbox"
              checked={asSeries}
              onChange={(e) => go({ series: e.target.checked })}
              data-testid="compare-as-series"
            />
            Sizes of one thing
          </label>
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
        <>
          <p className="compare-headline" data-testid="compare-headline">
            {result.data.headline}
          </p>
          {result.data.series ? (
            <SeriesView series={result.data.series} />
          ) : result.data.pairs.length > 0 ? (
            <Card title="Pairs" testId="compare-result">
              <PairsTable result={result.data} />
            </Card>
          ) : null}
        </>
      ) : result.loading ? (
        <div className="loading">Comparing…</div>
      ) : null}
      {data.data ? <CompareCharts data={data.data} /> : null}
    </section>
  )
}

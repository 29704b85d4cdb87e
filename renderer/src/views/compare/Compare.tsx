// Compare: two or more runs, or the targets of one run. The engine pairs the entries, computes the
// ratios, intervals and verdicts and words the headline (runs.compare); this view shows them, draws
// the overlays, and lets the user pick the baseline, the margin that matters, or a curve instead.
// The report it exports compares as the page shows (options.ts shownChoice).
import { useApi, useAsync } from '../../api/context.tsx'
import { Link } from '../../app/router.tsx'
import { Banner, Card, StatusBadge } from '../../ui/Primitives.tsx'
import { MAX_CHART_POINTS } from '../../lib/series.ts'
import { ExportReport } from '../../ui/ExportReport.tsx'
import type { CompareResult } from '#engine/api/types.ts'
import { CompareCharts, type RunData } from './CompareCharts.tsx'
import { CompareControls } from './CompareControls.tsx'
import { ComparePicker } from './ComparePicker.tsx'
import { optionsOf, shownChoice, type CompareOptionsInUrl } from './options.ts'
import { PairsTable } from './PairsTable.tsx'
import { SeriesView } from './SeriesView.tsx'

function useComparison(o: CompareOptionsInUrl) {
  const api = useApi()
  const { runIds, baseline, baselineParam, minEffect, asSeries } = o
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
  return { result, data }
}

function ComparedRuns({ data }: { data: readonly RunData[] }) {
  return (
    <ul className="compared" data-testid="compare-runs">
      {data.map((d) => (
        <li key={d.run.runId}>
          <Link to={`/runs/${d.run.runId}`}>
            #{d.run.runId} {d.run.name}
          </Link>{' '}
          <StatusBadge status={d.run.status} />{' '}
          <span className="muted">{[...new Set(d.run.results.map((r) => r.target))].join(', ')}</span>
        </li>
      ))}
    </ul>
  )
}

function Outcome({ result }: { result: CompareResult }) {
  return (
    <>
      <p className="compare-headline" data-testid="compare-headline">
        {result.headline}
      </p>
      {result.rounds.map((r) => (
        <p key={r.runId} className="muted" data-testid="compare-rounds">
          {r.words}
        </p>
      ))}
      {result.series ? (
        <SeriesView series={result.series} />
      ) : result.pairs.length > 0 ? (
        <Card title="Pairs" testId="compare-result">
          <PairsTable result={result} />
        </Card>
      ) : null}
    </>
  )
}

export default function Compare({ query }: { query: URLSearchParams }) {
  const options = optionsOf(query)
  const { result, data } = useComparison(options)
  if (options.runIds.length === 0) return <ComparePicker />
  return (
    <section data-testid="compare">
      <header className="view-head">
        <h1>Compare</h1>
        <CompareControls options={options} result={result.data ?? null} />
      </header>
      <ExportReport
        runIds={options.runIds}
        compare={shownChoice(options, result.data ?? null)}
        testId="compare-report"
      />
      <ComparedRuns data={data.data ?? []} />
      {result.error ? (
        <Banner kind="error" testId="compare-error">
          Cannot compare: {result.error}
        </Banner>
      ) : null}
      {data.error ? <Banner kind="error">Could not load the runs: {data.error}</Banner> : null}
      {result.data ? (
        <Outcome result={result.data} />
      ) : result.loading ? (
        <div className="loading">Comparing…</div>
      ) : null}
      {data.data ? <CompareCharts data={data.data} /> : null}
    </section>
  )
}

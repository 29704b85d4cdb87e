// One study (a sweep): per target, throughput and p50/p95/p99 against the swept value (a line per
// value of a grid's second setting), the knee marked and said in a sentence, throughput against the
// instances' CPU when they were monitored, any monitored series against throughput, a table of the
// runs behind the points, and the whole study as one CSV. While its runs go on, the page follows
// them: it reloads when a run ends or a new run of the study starts.
import { useEffect, useRef } from 'react'
import { useApi, useAsync } from '../../api/context.tsx'
import { Link } from '../../app/router.tsx'
import type { StudyResults } from '#engine/api/types.ts'
import { colourFor, dateTime } from '../../lib/format.ts'
import { Banner, Card, NumHeads } from '../../ui/Primitives.tsx'
import { ExportReport } from '../../ui/ExportReport.tsx'
import { StudyCsv } from './StudyCsv.tsx'
import { SweepCharts, SweepPointCells } from './SweepCharts.tsx'
import { ScalingChart } from './ScalingChart.tsx'
import { SeriesChart } from './SeriesChart.tsx'

/** The study's results, its runs and which of them go on; reloaded as its runs start and end. */
function useStudy(studyId: number) {
  const api = useApi()
  const results = useAsync(() => api.studies.get(studyId), [api, studyId])
  const list = useAsync(() => api.studies.list(), [api, studyId])
  const active = useAsync(() => api.runs.active(), [api, studyId])
  const meta = list.data?.find((s) => s.studyId === studyId) ?? null
  const runIds = meta?.runIds ?? []
  const running = (active.data ?? []).filter((id) => runIds.includes(id))
  const complete = meta !== null && runIds.length >= meta.size && running.length === 0

  // Follow the study while it runs: any run's end may be ours, and a run we do not know yet may be
  // its next value (started after the cool-down).
  const known = useRef(new Set<number>())
  const [reloadResults, reloadList, reloadActive] = [results.reload, list.reload, active.reload]
  useEffect(() => {
    if (complete) return
    const reload = () => {
      reloadResults()
      reloadList()
      reloadActive()
    }
    const offEnded = api.runs.onEnded(reload)
    const offProgress = api.runs.onProgress((e) => {
      if (known.current.has(e.runId)) return
      known.current.add(e.runId)
      reload()
    })
    return () => {
      offEnded()
      offProgress()
    }
  }, [api, complete, reloadResults, reloadList, reloadActive])
  return { results, meta, runIds, running, complete }
}

/** What was swept over what, how far it got, the knee's rule, and the runs going on now. */
function StudyHead({ r, study }: { r: StudyResults; study: ReturnType<typeof useStudy> }) {
  const { meta, runIds, running, complete } = study
  const [axis, by] = r.axes
  const size = r.axes.reduce((n, a) => n * a.values.length, 1)
  return (
    <>
      <p className="muted" data-testid="study-swept">
        Sweep of <code>{r.path}</code> over {axis?.labels.join(', ')}
        {by ? (
          <>
            {' '}
            against <code>{by.path}</code> over {by.labels.join(', ')} (every pair: a line per {by.name})
          </>
        ) : null}
        {meta ? `, started ${dateTime(meta.createdAt)}` : ''}. {runIds.length} of {size} runs done
        {running.length ? '' : complete ? '.' : ' (the study stopped early).'}
      </p>
      <p className="muted" data-testid="study-knee-rule">
        {axis?.numeric
          ? r.kneeRule
          : `The values of ${axis?.name ?? r.path} are words, not a scale: no knee is looked for.`}
      </p>
      {r.slo && r.capacityRule ? (
        <p className="muted" data-testid="study-capacity-rule">
          Latency target: {r.slo.metric} ≤ {r.slo.ms} ms. {r.capacityRule}
        </p>
      ) : null}
      {running.map((id) => (
        <Banner kind="info" key={id} testId="study-running">
          Run #{id} of this study is going on now. <Link to={`/live/${id}`}>Watch it live</Link>; the figures
          below grow as each value finishes.
        </Banner>
      ))}
    </>
  )
}

/** One target's card: its sentences, the charts against the swept value, and the runs behind them. */
function TargetCard({
  r,
  target,
  lines,
  i,
  colour,
}: {
  r: StudyResults
  target: string
  lines: StudyResults['targets']
  i: number
  colour: string
}) {
  const [axis, by] = r.axes
  const name = axis?.name ?? r.path
  return (
    <Card title={target} className="study-target" testId={`study-target-${i}`}>
      <div
        data-points={lines.reduce((n, l) => n + l.points.length, 0)}
        data-knee={lines[0]?.knee ?? ''}
        data-testid={`study-target-${i}-data`}
      >
        {lines.map((l, j) => (
          <p
            className="study-sentence"
            key={l.by?.label ?? ''}
            data-testid={j === 0 ? `study-sentence-${i}` : `study-sentence-${i}-${j}`}
          >
            {l.sentence}
          </p>
        ))}
        {lines.map((l, j) =>
          l.capacity ? (
            <p
              className="study-sentence study-capacity"
              key={`capacity-${l.by?.label ?? ''}`}
              data-testid={j === 0 ? `study-capacity-${i}` : `study-capacity-${i}-${j}`}
            >
              <strong>Capacity at the latency target:</strong> {l.capacity.sentence}
            </p>
          ) : null,
        )}
        <SweepCharts
          lines={lines.map((l) => ({
            name: l.by && by ? `${by.name}=${l.by.label}` : target,
            points: l.points,
          }))}
          knee={lines.length === 1 ? (lines[0]?.knee ?? null) : null}
          xLabel={name}
          categorical={axis ? !axis.numeric : false}
          testId={`study-chart-${i}`}
          colour={colour}
        />
        {lines.length === 1 ? (
          <ScalingChart points={lines[0]!.points} name={name} testId={`study-scaling-${i}`} />
        ) : null}
        <SeriesChart
          lines={lines}
          name={(l) => (l.by && by ? `${by.name}=${l.by.label}` : target)}
          testId={`study-series-${i}`}
        />
        <PointsTable lines={lines} name={name} by={by?.name ?? null} testId={`study-points-${i}`} />
      </div>
    </Card>
  )
}

export function StudyPage({ studyId }: { studyId: number }) {
  const study = useStudy(studyId)
  const { results, runIds, complete } = study
  if (results.error)
    return (
      <Banner kind="error" testId="study-error">
        Could not load study #{studyId}: {results.error}
      </Banner>
    )
  const r = results.data
  if (!r) return <div className="loading">Loading study #{studyId}…</div>
  // A card per target; in a grid, its lines (one per value of the second setting) share the charts.
  const targets = [...new Set(r.targets.map((t) => t.target))].map((target) => ({
    target,
    lines: r.targets.filter((t) => t.target === target),
  }))
  const colourOf = colourFor(targets.map((t) => t.target))
  return (
    <section data-testid="study" data-study-id={studyId} data-complete={complete ? 'true' : 'false'}>
      <header className="view-head">
        <h1>{r.name}</h1>
        <div className="actions">
          <Link className="btn btn-secondary" to="/studies">
            All studies
          </Link>
        </div>
      </header>
      <StudyHead r={r} study={study} />
      {runIds.length > 0 ? (
        <div className="actions">
          <ExportReport runIds={runIds} testId="study-report" />
          <StudyCsv studyId={studyId} />
        </div>
      ) : null}
      {r.targets.length === 0 ? (
        <p className="muted" data-testid="study-no-points">
          No value has finished yet.
        </p>
      ) : null}
      {targets.map(({ target, lines }, i) => (
        <TargetCard key={target} r={r} target={target} lines={lines} i={i} colour={colourOf(target)} />
      ))}
    </section>
  )
}

function PointsTable({
  lines,
  name,
  by,
  testId,
}: {
  lines: StudyResults['targets']
  name: string
  by: string | null
  testId: string
}) {
  return (
    <table className="table" data-testid={testId}>
      <thead>
        <tr>
          {by ? <th scope="col">{by}</th> : null}
          <th scope="col">{name}</th>
          <th scope="col">Run</th>
          <NumHeads names={['Throughput', 'p50', 'p95', 'p99', 'Error rate']} />
        </tr>
      </thead>
      <tbody>
        {lines.flatMap((l) =>
          l.points.map((p) => (
            <tr key={p.runId} className={p.value === l.knee ? 'selected' : undefined}>
              {by ? <td>{l.by?.label}</td> : null}
              <td>
                {p.label}
                {p.value === l.knee ? <span className="study-badge">knee</span> : null}
                {l.capacity?.runId === p.runId ? (
                  <span className="study-badge" data-testid={`study-capacity-badge-${p.runId}`}>
                    capacity
                  </span>
                ) : null}
              </td>
              <td>
                <Link to={`/runs/${p.runId}`} data-testid={`study-run-${p.runId}`}>
                  #{p.runId}
                </Link>
              </td>
              <SweepPointCells point={p} />
            </tr>
          )),
        )}
      </tbody>
    </table>
  )
}

// One study (a sweep): per target, throughput and p50/p95/p99 against the swept value, the knee
// marked and said in a sentence, throughput against the instances' CPU when they were monitored,
// a table of the runs behind the points. While its runs go on, the
// page follows them: it reloads when a run ends or a new run of the study starts.
import { useEffect, useRef } from 'react'
import { useApi, useAsync } from '../../api/context.tsx'
import { Link } from '../../app/router.tsx'
import { colourFor, count, dateTime, ms, percent, rate } from '../../lib/format.ts'
import { Banner, Card } from '../../ui/Common.tsx'
import { ExportReport } from '../../ui/ExportReport.tsx'
import { SweepCharts } from './SweepCharts.tsx'
import { ScalingChart } from './ScalingChart.tsx'
import { sweptName } from './useStudies.ts'

export function StudyPage({ studyId }: { studyId: number }) {
  const api = useApi()
  const results = useAsync(() => api.studies.get(studyId), [api, studyId])
  const list = useAsync(() => api.studies.list(), [api, studyId])
  const active = useAsync(() => api.runs.active(), [api, studyId])
  const meta = list.data?.find((s) => s.studyId === studyId) ?? null
  const runIds = meta?.runIds ?? []
  const running = (active.data ?? []).filter((id) => runIds.includes(id))
  const complete = meta !== null && runIds.length >= meta.values.length && running.length === 0

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

  if (results.error)
    return (
      <Banner kind="error" testId="study-error">
        Could not load study #{studyId}: {results.error}
      </Banner>
    )
  const r = results.data
  if (!r) return <div className="loading">Loading study #{studyId}…</div>
  const name = sweptName(r.path)
  const colourOf = colourFor(r.targets.map((t) => t.target))
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
      <p className="muted">
        Sweep of <code>{r.path}</code> over {r.values.join(', ')}
        {meta ? `, started ${dateTime(meta.createdAt)}` : ''}. {runIds.length} of {r.values.length} values run
        {running.length ? '' : complete ? '.' : ' (the study stopped early).'}
      </p>
      <p className="muted" data-testid="study-knee-rule">
        {r.kneeRule}
      </p>
      {running.map((id) => (
        <Banner kind="info" key={id} testId="study-running">
          Run #{id} of this study is going on now. <Link to={`/live/${id}`}>Watch it live</Link>; the figures
          below grow as each value finishes.
        </Banner>
      ))}
      {runIds.length > 0 ? <ExportReport runIds={runIds} testId="study-report" /> : null}
      {r.targets.length === 0 ? (
        <p className="muted" data-testid="study-no-points">
          No value has finished yet.
        </p>
      ) : null}
      {r.targets.map((t, i) => (
        <Card key={t.target} title={t.target} className="study-target" testId={`study-target-${i}`}>
          <div data-points={t.points.length} data-knee={t.knee ?? ''} data-testid={`study-target-${i}-data`}>
            <p className="study-sentence" data-testid={`study-sentence-${i}`}>
              {t.sentence}
            </p>
            <SweepCharts
              points={t.points}
              knee={t.knee}
              xLabel={name}
              testId={`study-chart-${i}`}
              colour={colourOf(t.target)}
            />
            <ScalingChart points={t.points} name={name} testId={`study-scaling-${i}`} />
            <table className="table" data-testid={`study-points-${i}`}>
              <thead>
                <tr>
                  <th scope="col">{name}</th>
                  <th scope="col">Run</th>
                  <th scope="col" className="num">
                    Throughput
                  </th>
                  <th scope="col" className="num">
                    p50
                  </th>
                  <th scope="col" className="num">
                    p95
                  </th>
                  <th scope="col" className="num">
                    p99
                  </th>
                  <th scope="col" className="num">
                    Error rate
                  </th>
                </tr>
              </thead>
              <tbody>
                {[...t.points]
                  .sort((a, b) => a.value - b.value)
                  .map((p) => (
                    <tr key={p.runId} className={p.value === t.knee ? 'selected' : undefined}>
                      <td>
                        {count(p.value)}
                        {p.value === t.knee ? <span className="study-badge">knee</span> : null}
                      </td>
                      <td>
                        <Link to={`/runs/${p.runId}`} data-testid={`study-run-${p.runId}`}>
                          #{p.runId}
                        </Link>
                      </td>
                      <td className="num">{rate(p.throughput)}</td>
                      <td className="num">{ms(p.p50)}</td>
                      <td className="num">{ms(p.p95)}</td>
                      <td className="num">{ms(p.p99)}</td>
                      <td className="num">{percent(p.errorRate * 100)}</td>
                    </tr>
                  ))}
              </tbody>
            </table>
          </div>
        </Card>
      ))}
    </section>
  )
}

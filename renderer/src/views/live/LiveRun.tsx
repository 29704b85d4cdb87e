// The live dashboard of one run: progress, headline numbers, charts at 1 Hz, Stop, and how it
// ended. "Running" is shown only between start and an end event (a run has exactly one end, so
// the view never spins forever).
import { useEffect, useState } from 'react'
import { useAction, useApi, useAsync } from '../../api/context.tsx'
import { Link, navigate } from '../../app/router.tsx'
import { Banner, Button, EmptyState, Stat, StatusBadge } from '../../ui/Common.tsx'
import { RunWarnings } from '../../ui/RunWarnings.tsx'
import { DemoButton } from '../../ui/DemoButton.tsx'
import { count, duration, ms, rate } from '../../lib/format.ts'
import { liveStore } from './liveStore.ts'
import { startedStacks } from './startedStacks.ts'
import { RunCharts } from './RunCharts.tsx'
import { AgentsLive } from './AgentsLive.tsx'
import { useLiveRun } from './useLiveRun.ts'
import { useStudyIndex } from '../studies/useStudies.ts'

function NoRun() {
  const api = useApi()
  const active = useAsync(() => api.runs.active(), [api])
  const first = active.data?.[0] ?? liveStore.running()[0]
  useEffect(() => {
    if (first !== undefined) navigate(`/live/${first}`)
  }, [first])
  if (active.loading || first !== undefined) return <div className="loading">Looking for a running run…</div>
  return (
    <EmptyState title="Nothing is running" testId="live-empty">
      <p>
        Start a run and watch it here: throughput, latency percentiles, errors and the targets' CPU and
        memory, second by second.
      </p>
      <p className="actions">
        <DemoButton />
        <Link className="btn btn-secondary" to="/new">
          Configure a run
        </Link>
      </p>
    </EmptyState>
  )
}

function Live({ runId }: { runId: number }) {
  const api = useApi()
  const view = useLiveRun(runId)
  const stop = useAction(() => api.runs.stop(runId))
  const [stopRequested, setStopRequested] = useState(false)
  const running = view.status === 'running' || view.status === 'unknown'
  const progress = view.total ? Math.min(1, view.elapsed / view.total) : null
  const latest = view.points.length ? view.points.reduce((a, b) => (b.t > a.t ? b : a)) : null
  // A sweep's run: say which value it is and link to the study (looked up again at its end).
  const study = useStudyIndex(view.status).byRun.get(runId) ?? null
  const position = study ? [...study.runIds].sort((a, b) => a - b).indexOf(runId) : -1

  return (
    <section data-testid="live" data-run-id={runId} data-status={view.status}>
      <header className="view-head">
        <h1>
          {view.summary?.name ?? `Run #${runId}`} <StatusBadge status={view.status} />
        </h1>
        <div className="actions">
          {running ? (
            <Button
              variant="danger"
              busy={stop.busy}
              disabled={stopRequested}
              onClick={() => {
                setStopRequested(true)
                void stop.run()
              }}
              data-testid="live-stop"
            >
              {stopRequested ? 'Stopping…' : 'Stop'}
            </Button>
          ) : (
            <Link className="btn btn-primary" to={`/runs/${runId}`} data-testid="live-open-detail">
              Open results
            </Link>
          )}
        </div>
      </header>
      {study ? (
        <Banner kind="info" testId="live-study">
          Run {position + 1} of {study.size} of the study “{study.name}” (
          {study.axes.map((a, i) => (
            <span key={a.path}>
              {i > 0 ? ' × ' : ''}
              <code>{a.path}</code>
            </span>
          ))}
          ).{' '}
          {!running && view.status === 'done' && position + 1 < study.size
            ? 'The next value starts after the cool-down. '
            : ''}
          <Link to={`/studies/${study.studyId}`} data-testid="live-study-link">
            Open the study
          </Link>
        </Banner>
      ) : null}
      {startedStacks(runId).length ? (
        <Banner kind="info" testId="live-stacks-started">
          Started for this run, as its config names them and they were not running (or ran otherwise):{' '}
          {startedStacks(runId).join(', ')}. They keep running after it; <Link to="/stacks">Stacks</Link>{' '}
          stops them.
        </Banner>
      ) : null}
      {view.loadError && !view.points.length ? (
        <Banner kind="error">
          Could not load run #{runId}: {view.loadError}
        </Banner>
      ) : null}
      {stop.error ? <Banner kind="error">Stop failed: {stop.error}</Banner> : null}
      <RunWarnings warnings={view.warnings} testId="live-warnings" />
      {view.saturated ? (
        <Banner kind="warning" testId="live-saturation">
          The load generator itself is saturated (its CPU is near 100 %): the numbers measure Cannonade, not
          the target. Use fewer connections, a rate, or a faster machine.
        </Banner>
      ) : null}
      {view.status === 'failed' ? (
        <Banner kind="error" testId="live-failed">
          The run failed: {view.error ?? 'no reason given'}
        </Banner>
      ) : null}
      {view.status === 'partial' ? (
        <Banner kind="warning" testId="live-partial">
          The run is partial: {view.error ?? 'a load agent did not finish'}. The merged figures hold only what
          the remaining agents measured.
        </Banner>
      ) : null}
      {view.status === 'aborted' ? (
        <Banner kind="info" testId="live-aborted">
          The run was stopped; what it measured until then is kept.
        </Banner>
      ) : null}
      {view.status === 'done' ? (
        <Banner kind="success" testId="live-done">
          The run finished.
        </Banner>
      ) : null}

      <div className="progress" data-testid="live-progress">
        <div className="progress-label">
          <span data-testid="live-elapsed">{duration(view.elapsed)} elapsed</span>
          <span data-testid="live-remaining">
            {view.total !== null
              ? `${duration(Math.max(0, view.total - view.elapsed))} remaining`
              : 'request-bound: ends when the requests are done'}
          </span>
        </div>
        <div
          className="progress-track"
          role="progressbar"
          aria-label="Run progress"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={progress !== null ? Math.round(progress * 100) : undefined}
        >
          <div
            className="progress-fill"
            style={{ width: `${progress !== null ? progress * 100 : running ? 100 : 0}%` }}
            data-indeterminate={progress === null && running ? 'true' : undefined}
          />
        </div>
      </div>

      <div className="stats">
        <Stat
          label={running ? 'now running' : 'last target'}
          value={
            view.current
              ? `${view.current.target}${view.current.phase !== 'main' ? ` · ${view.current.phase}` : ''}`
              : '–'
          }
          testId="live-current"
        />
        <Stat label="throughput (last second)" value={rate(latest?.requests)} testId="live-throughput" />
        <Stat label="p99 (last second)" value={ms(latest?.p99)} testId="live-p99" />
        <Stat label="requests" value={count(view.totals.requests)} testId="live-requests" />
        <Stat label="errors" value={count(view.totals.errors)} testId="live-errors" />
      </div>

      <AgentsLive
        live={running || !view.summary?.distribution ? view.agents : null}
        stored={view.summary?.distribution ?? null}
        prefix="live"
      />
      <RunCharts points={view.points} resources={view.resources} prefix="live" />
    </section>
  )
}

export default function LiveRun({ runId }: { runId: number | null }) {
  return runId === null ? <NoRun /> : <Live key={runId} runId={runId} />
}

// The live dashboard of one run: progress, headline numbers, charts at 1 Hz, Stop, and how it
// ended. "Running" is shown only between start and an end event (a run has exactly one end, so
// the view never spins forever).
import { useEffect, useMemo, useState } from 'react'
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
import { upNext } from './upNext.ts'
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

/** The time now, once a second while `on` (the view moves between progress events). */
function useNow(on: boolean): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    if (!on) return
    const timer = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(timer)
  }, [on])
  return now
}

/**
 * A study's run has ended and the study has more values: open the next run as soon as it starts
 * (after the cool-down), so the live view follows the study from value to value.
 */
function useFollowStudy(runId: number, studyId: number | null, waiting: boolean): void {
  const api = useApi()
  useEffect(() => {
    if (studyId === null || !waiting) return
    let live = true
    const check = (candidate: number) => {
      if (candidate <= runId) return
      void api.studies.list().then((list) => {
        if (live && list.find((s) => s.studyId === studyId)?.runIds.includes(candidate))
          navigate(`/live/${candidate}`)
      })
    }
    const off = api.runs.onProgress((e) => check(e.runId))
    // It may have started before this page listened.
    void api.runs.active().then((ids) => ids.forEach(check))
    return () => {
      live = false
      off()
    }
  }, [api, runId, studyId, waiting])
}

function Live({ runId }: { runId: number }) {
  const api = useApi()
  const view = useLiveRun(runId)
  const stop = useAction(() => api.runs.stop(runId))
  const [stopRequested, setStopRequested] = useState(false)
  const running = view.status === 'running' || view.status === 'unknown'
  const now = useNow(running && view.lastAt > 0)
  const quietMs = view.lastAt > 0 ? Math.max(0, now - view.lastAt) : 0
  // Between progress events (and through a cool-down) the clock keeps going.
  const elapsed =
    running && view.lastAt > 0
      ? Math.min(view.total ?? Infinity, view.elapsed + Math.floor(quietMs / 1000))
      : view.elapsed
  const progress = view.total ? Math.min(1, elapsed / view.total) : null
  const latest = view.points.length ? view.points.reduce((a, b) => (b.t > a.t ? b : a)) : null
  const next =
    running && view.summary && view.current ? upNext(view.summary.config, view.current, quietMs) : null
  // A sweep's run: say which value it is and link to the study (looked up again at its end).
  const study = useStudyIndex(view.status).byRun.get(runId) ?? null
  const position = study ? [...study.runIds].sort((a, b) => a - b).indexOf(runId) : -1
  const summary = view.summary
  const targetNames = useMemo(() => summary?.config.targets.map((t) => t.name), [summary])
  const moreValues = study !== null && position + 1 < study.values.length
  useFollowStudy(runId, study?.studyId ?? null, view.status === 'done' && moreValues)

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
            ? 'The next value starts after the cool-down; this page follows it. '
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
      {next ? (
        <Banner kind="info" testId="live-up-next">
          Cool-down between segments: next {next.target}
          {view.summary && view.summary.config.rounds > 1 ? ` · round ${next.round}` : ''} (segment{' '}
          {next.index} of {next.of})
          {next.inSeconds > 0 ? `, starts in about ${next.inSeconds} s` : ', starting now'}.
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
          <span data-testid="live-elapsed">{duration(elapsed)} elapsed</span>
          <span data-testid="live-remaining">
            {view.total !== null
              ? `${duration(Math.max(0, view.total - elapsed))} remaining`
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
          label={next ? 'cooling down, next' : running ? 'now running' : 'last target'}
          value={
            next
              ? next.target
              : view.current
                ? `${view.current.target}${view.current.phase !== 'main' ? ` · ${view.current.phase}` : ''}`
                : '–'
          }
          testId="live-current"
        />
        <Stat
          label="throughput (responses, last second)"
          value={rate(latest?.responses)}
          testId="live-throughput"
        />
        <Stat label="p99 (last second)" value={ms(latest?.p99)} testId="live-p99" />
        <Stat label="requests" value={count(view.totals.requests)} testId="live-requests" />
        <Stat label="errors" value={count(view.totals.errors)} testId="live-errors" />
        {view.totals.inflight !== null ? (
          <Stat label="in flight at end" value={count(view.totals.inflight)} testId="live-inflight" />
        ) : null}
      </div>

      <AgentsLive
        live={running || !view.summary?.distribution ? view.agents : null}
        stored={view.summary?.distribution ?? null}
        prefix="live"
      />
      <RunCharts points={view.points} resources={view.resources} prefix="live" targets={targetNames} />
    </section>
  )
}

export default function LiveRun({ runId }: { runId: number | null }) {
  return runId === null ? <NoRun /> : <Live key={runId} runId={runId} />
}

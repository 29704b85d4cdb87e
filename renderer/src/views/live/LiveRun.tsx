// The live dashboard of one run: progress, headline numbers, charts at 1 Hz, Stop, and how it
// ended. "Running" is shown only between start and an end event (a run has exactly one end, so
// the view never spins forever).
import { useEffect, useMemo, useState } from 'react'
import { useAction, useApi, useAsync } from '../../api/context.tsx'
import { Link, navigate } from '../../app/router.tsx'
import { Banner, Button, EmptyState, Stat, StatusBadge } from '../../ui/Primitives.tsx'
import { DemoButton } from '../../ui/DemoButton.tsx'
import { count, duration, ms, rate } from '../../lib/format.ts'
import { liveStore } from './liveStore.ts'
import { RunCharts } from './RunCharts.tsx'
import { AgentsLive } from './AgentsLive.tsx'
import { EndBanners, StartBanners, StudyBanner } from './LiveBanners.tsx'
import { plannedSeconds, remainingText } from './remaining.ts'
import { upNext, type UpNext } from './upNext.ts'
import { useLiveRun, type LiveView } from './useLiveRun.ts'
import { useStudyIndex } from '../studies/useStudies.ts'
import { maxRounds } from '#engine/config/rounds.ts'

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

/** The run's clock: elapsed, what remains (from the config too: never "request-bound" by default), the bar. */
function Progress({ view, elapsed, running }: { view: LiveView; elapsed: number; running: boolean }) {
  const total = view.total ?? (view.summary ? plannedSeconds(view.summary.config) : null)
  const progress = total && view.lastAt > 0 ? Math.min(1, elapsed / total) : null
  const remaining = remainingText({
    total: view.total,
    elapsed,
    started: view.lastAt > 0,
    running,
    config: view.summary?.config ?? null,
  })
  return (
    <div className="progress" data-testid="live-progress">
      <div className="progress-label">
        <span data-testid="live-elapsed">{duration(elapsed)} elapsed</span>
        <span data-testid="live-remaining">{remaining}</span>
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
  )
}

function Stats({ view, next, running }: { view: LiveView; next: UpNext | null; running: boolean }) {
  const latest = view.points.length ? view.points.reduce((a, b) => (b.t > a.t ? b : a)) : null
  const current = view.current
    ? `${view.current.target}${view.current.phase !== 'main' ? ` · ${view.current.phase}` : ''}`
    : '–'
  return (
    <div className="stats">
      <Stat
        label={next ? 'cooling down, next' : running ? 'now running' : 'last target'}
        value={next ? next.target : current}
        testId="live-current"
      />
      {/* During a cool-down the last second is the last target's, not the one named next: said so. */}
      <Stat
        label={`throughput${next && latest ? ` of ${latest.target}` : ''} (responses, last second)`}
        value={rate(latest?.responses)}
        testId="live-throughput"
      />
      <Stat
        label={`p99${next && latest ? ` of ${latest.target}` : ''} (last second)`}
        value={ms(latest?.p99)}
        testId="live-p99"
      />
      <Stat label="requests" value={count(view.totals.requests)} testId="live-requests" />
      <Stat label="errors" value={count(view.totals.errors)} testId="live-errors" />
      {view.totals.inflight !== null ? (
        <Stat label="in flight at end" value={count(view.totals.inflight)} testId="live-inflight" />
      ) : null}
    </div>
  )
}

function StopOrOpen({ runId, running }: { runId: number; running: boolean }) {
  const api = useApi()
  const stop = useAction(() => api.runs.stop(runId))
  const [stopRequested, setStopRequested] = useState(false)
  return (
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
      {stop.error ? <Banner kind="error">Stop failed: {stop.error}</Banner> : null}
    </div>
  )
}

function Live({ runId }: { runId: number }) {
  const view = useLiveRun(runId)
  const running = view.status === 'running' || view.status === 'unknown'
  const now = useNow(running && view.lastAt > 0)
  const quietMs = view.lastAt > 0 ? Math.max(0, now - view.lastAt) : 0
  // Between progress events (and through a cool-down) the clock keeps going.
  const elapsed =
    running && view.lastAt > 0
      ? Math.min(view.total ?? Infinity, view.elapsed + Math.floor(quietMs / 1000))
      : view.elapsed
  const summary = view.summary
  const next = running && summary && view.current ? upNext(summary.config, view.current, quietMs) : null
  // A sweep's run: say which value it is and link to the study (looked up again at its end).
  const study = useStudyIndex(view.status).byRun.get(runId) ?? null
  const position = study ? [...study.runIds].sort((a, b) => a - b).indexOf(runId) : -1
  const targetNames = useMemo(() => summary?.config.targets.map((t) => t.name), [summary])
  useFollowStudy(
    runId,
    study?.studyId ?? null,
    view.status === 'done' && study !== null && position + 1 < study.values.length,
  )
  return (
    <section data-testid="live" data-run-id={runId} data-status={view.status}>
      <header className="view-head">
        <h1>
          {summary?.name ?? `Run #${runId}`} <StatusBadge status={view.status} />
        </h1>
        <StopOrOpen runId={runId} running={running} />
      </header>
      {study ? (
        <StudyBanner study={study} position={position} running={running} status={view.status} />
      ) : null}
      <StartBanners runId={runId} next={next} rounds={summary ? maxRounds(summary.config) : 1} />
      {view.loadError && !view.points.length ? (
        <Banner kind="error">
          Could not load run #{runId}: {view.loadError}
        </Banner>
      ) : null}
      <EndBanners view={view} />
      <Progress view={view} elapsed={elapsed} running={running} />
      {view.rounds ? (
        <p className="muted" data-testid="live-rounds">
          {view.rounds.stop ?? view.rounds.words}
        </p>
      ) : null}
      <Stats view={view} next={next} running={running} />
      <AgentsLive
        live={running || !summary?.distribution ? view.agents : null}
        stored={summary?.distribution ?? null}
        prefix="live"
      />
      <RunCharts points={view.points} resources={view.resources} prefix="live" targets={targetNames} />
    </section>
  )
}

export default function LiveRun({ runId }: { runId: number | null }) {
  return runId === null ? <NoRun /> : <Live key={runId} runId={runId} />
}

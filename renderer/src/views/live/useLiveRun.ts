// A live run as a view sees it: the bounded series and CPU/memory samples from the live store
// (both come with the progress events; backfilled from the database on open, on reconnect and at
// the end), the run's stored summary, and its end.
import { useEffect, useMemo, useState, useSyncExternalStore } from 'react'
import type { RunConfig } from '#engine/config/schema.ts'
import type {
  AgentLive,
  ResourcePoint,
  RoundsProgress,
  RunStatus,
  RunSummary,
  RunWarning,
  SeriesPoint,
} from '#engine/api/types.ts'
import { figuresOf } from '#engine/metrics/figures.ts'
import { useApi, useConnection } from '../../api/context.tsx'
import { LIVE_CAPACITY, liveStore, mergeWarnings } from './liveStore.ts'

export interface LiveView {
  summary: (RunSummary & { config: RunConfig }) | null
  loadError: string | null
  points: SeriesPoint[]
  resources: ResourcePoint[]
  status: RunStatus | 'unknown'
  error: string | null
  elapsed: number
  /** When the last second arrived (ms since the epoch; 0 before the first). */
  lastAt: number
  total: number | null
  current: { target: string; phase: string; round: number } | null
  /**
   * Requests with an outcome and errors (engine/metrics/figures.ts): from the progress events while
   * the run goes on, from the stored summary once it has ended (which also knows the requests
   * still in flight when a window closed, and the last second's slice the events did not carry).
   */
  totals: { requests: number; errors: number; inflight: number | null }
  saturated: boolean
  /** Monitors that could not read their source: told live, and stored with the run. */
  warnings: RunWarning[]
  /** A run of load agents: each agent that joined as last seen, and the indexes still waiting. */
  agents: { joined: AgentLive[]; waiting: number[] } | null
  /** Where its rounds stand (after each full round), and once ended how many ran and why they stopped. */
  rounds: { words: string; stop: string | null } | null
}

export function useLiveRun(runId: number): LiveView {
  const api = useApi()
  const connection = useConnection()
  const version = useSyncExternalStore(liveStore.subscribe, liveStore.version)
  const [summary, setSummary] = useState<LiveView['summary']>(null)
  const [loadError, setLoadError] = useState<string | null>(null)
  const run = liveStore.get(runId)
  const ended = run?.ended ?? null

  // The stored view of the run: on open, on reconnect (events may have been missed), on end.
  useEffect(() => {
    if (connection !== 'open') return
    let live = true
    api.runs.get(runId).then(
      (s) => {
        if (!live) return
        setSummary(s)
        setLoadError(null)
        if (s.status !== 'running') liveStore.end({ type: 'ended', runId, status: s.status, error: s.error })
      },
      (err: unknown) => live && setLoadError(err instanceof Error ? err.message : String(err)),
    )
    api.runs.series(runId, { maxPoints: LIVE_CAPACITY }).then(
      (points) => live && liveStore.backfill(runId, points),
      () => {},
    )
    // Samples taken before this page listened (or while the socket was down); the store keeps
    // the last LIVE_CAPACITY per series, whatever the stored run holds.
    api.runs.resources(runId).then(
      (points) => live && liveStore.backfillResources(runId, points),
      () => {},
    )
    return () => {
      live = false
    }
  }, [api, runId, connection, ended])

  const points = useMemo(() => {
    const r = liveStore.get(runId)
    if (!r) return []
    const all: SeriesPoint[] = []
    for (const ring of r.series.values()) all.push(...ring.toArray())
    return all
    // version: the store mutates in place and bumps it on every published change.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [runId, version])
  const resources = useMemo(() => {
    const r = liveStore.get(runId)
    if (!r) return []
    const all: ResourcePoint[] = []
    for (const ring of r.resources.values()) all.push(...ring.toArray())
    return all
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [runId, version])

  const last = run?.last ?? null
  const status: LiveView['status'] = ended
    ? ended.status
    : (summary?.status ?? (last ? 'running' : 'unknown'))
  let totals: LiveView['totals'] = { requests: 0, errors: 0, inflight: null }
  if (summary && summary.status !== 'running' && status !== 'running') {
    totals = { requests: 0, errors: 0, inflight: 0 }
    for (const r of summary.results) {
      const f = figuresOf(r)
      totals = {
        requests: totals.requests + f.requests,
        errors: totals.errors + f.failed,
        inflight: (totals.inflight ?? 0) + f.inflight,
      }
    }
  } else
    for (const t of run?.totals.values() ?? [])
      totals = { requests: totals.requests + t.requests, errors: totals.errors + t.errors, inflight: null }
  return {
    summary,
    loadError,
    points,
    resources,
    status,
    error: ended?.error ?? summary?.error ?? null,
    elapsed: last?.elapsedSeconds ?? 0,
    lastAt: run?.lastAt ?? 0,
    total: last?.totalSeconds ?? null,
    current: last ? { target: last.target, phase: last.phase, round: last.round } : null,
    totals,
    saturated: Boolean(run?.saturated) || Boolean(summary?.generator.saturated),
    warnings: mergeWarnings(summary?.warnings ?? [], run?.warnings ?? []),
    agents: run?.agents ?? null,
    rounds: roundsOf(last?.rounds ?? null, summary, status),
  }
}

/** The live rounds line: the latest progress's, or the stored outcome's once the run has ended. */
function roundsOf(
  live: RoundsProgress | null,
  summary: LiveView['summary'],
  status: LiveView['status'],
): LiveView['rounds'] {
  const ended = status !== 'running' && status !== 'unknown' && summary && summary.status !== 'running'
  if (ended) return { words: summary.rounds.words, stop: summary.rounds.stop }
  return live ? { words: live.words, stop: null } : null
}

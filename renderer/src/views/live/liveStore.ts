// Live run data, outside React state: one bounded ring per target and round, so the view stays
// smooth at 1 Hz through a 30-minute run (large payloads kept in React state freeze the UI). Events
// are ingested as they come; views are notified at most every NOTIFY_MS, so a burst of events (a
// replay, a reconnect backlog) costs one render, not one per event. Only the last few runs are
// kept. CPU and memory arrive inside the progress events (the samples taken since the previous
// one), kept in a ring per target, source and instance with the same bound.
import type { Api } from '#engine/api/api.ts'
import type {
  AgentLive,
  AgentsEvent,
  ProgressEvent,
  ResourcePoint,
  RunEndedEvent,
  RunWarning,
  RunWarningEvent,
  SeriesPoint,
  Unsubscribe,
} from '#engine/api/types.ts'
import { Ring } from '../../lib/ring.ts'

/** A 30-minute run at 1 Hz per target and round; longer runs show their last 30 minutes. */
export const LIVE_CAPACITY = 1800
const MAX_RUNS = 4
const NOTIFY_MS = 250

export interface LiveRun {
  runId: number
  series: Map<string, Ring<SeriesPoint>>
  /** Per target, source and instance (the generator is target 'generator'). */
  resources: Map<string, Ring<ResourcePoint>>
  last: ProgressEvent | null
  /** When `last` arrived (ms since the epoch): a long quiet is a cool-down between segments. */
  lastAt: number
  /** Totals per target and round (from the latest event of each): summed, the run's so far. */
  totals: Map<string, { requests: number; errors: number }>
  saturated: boolean
  /** Monitors that could not read their source, as told by runs:warning. */
  warnings: RunWarning[]
  /** A run of load agents: the agents that joined, as last seen, and the indexes still waiting. */
  agents: { joined: AgentLive[]; waiting: number[] } | null
  ended: RunEndedEvent | null
  version: number
}

/**
 * The warnings of a run from both ends: the stored ones (runs.get, on open and at the end) and the
 * ones told live; one per monitor field and message. A stored copy read before the run's start was
 * known has no place on the timeline yet (t null): the other copy's place is kept, and the higher count.
 */
export function mergeWarnings(stored: readonly RunWarning[], live: readonly RunWarning[]): RunWarning[] {
  const out = new Map<string, RunWarning>()
  for (const w of [...live, ...stored]) {
    const key = `${w.field}\u0000${w.message}`
    const seen = out.get(key)
    out.set(key, seen ? { ...w, t: w.t ?? seen.t, count: Math.max(w.count, seen.count) } : w)
  }
  return [...out.values()].sort((a, b) => a.at.localeCompare(b.at))
}

export class LiveStore {
  private readonly runs = new Map<number, LiveRun>()
  private readonly listeners = new Set<() => void>()
  private timer: ReturnType<typeof setTimeout> | null = null
  private published = 0
  private pending = 0

  subscribe = (cb: () => void): Unsubscribe => {
    this.listeners.add(cb)
    return () => {
      this.listeners.delete(cb)
    }
  }

  /** Changes on every published update; a cheap snapshot for useSyncExternalStore. */
  version = (): number => this.published

  get(runId: number): LiveRun | undefined {
    return this.runs.get(runId)
  }

  /** Runs that have sent progress and no end yet. */
  running(): number[] {
    return [...this.runs.values()].filter((r) => !r.ended && r.last).map((r) => r.runId)
  }

  private run(runId: number): LiveRun {
    let run = this.runs.get(runId)
    if (!run) {
      run = {
        runId,
        series: new Map(),
        resources: new Map(),
        last: null,
        lastAt: 0,
        totals: new Map(),
        saturated: false,
        warnings: [],
        agents: null,
        ended: null,
        version: 0,
      }
      this.runs.set(runId, run)
      if (this.runs.size > MAX_RUNS) {
        const evict = [...this.runs.values()]
          .filter((r) => r.runId !== runId)
          .sort((a, b) => Number(!a.ended) - Number(!b.ended) || a.runId - b.runId)[0]
        if (evict) this.runs.delete(evict.runId)
      }
    }
    return run
  }

  private add(run: LiveRun, point: SeriesPoint): void {
    const key = `${point.target}\u0000${point.round}`
    let ring = run.series.get(key)
    if (!ring) {
      ring = new Ring<SeriesPoint>(LIVE_CAPACITY)
      run.series.set(key, ring)
    }
    const last = ring.last()
    if (last && last.t === point.t) ring.replaceLast(point)
    else if (!last || last.t < point.t) ring.push(point)
    // An older second (a backfill overlapping live events) is already there or not worth a re-sort.
  }

  private addResource(run: LiveRun, point: ResourcePoint): void {
    const key = `${point.target}\u0000${point.source}\u0000${point.instance}`
    let ring = run.resources.get(key)
    if (!ring) {
      ring = new Ring<ResourcePoint>(LIVE_CAPACITY)
      run.resources.set(key, ring)
    }
    const last = ring.last()
    if (!last || last.t < point.t) ring.push(point)
  }

  ingest = (event: ProgressEvent): void => {
    const run = this.run(event.runId)
    this.add(run, event.point)
    // Older engines sent no resources in progress events.
    for (const r of event.resources ?? []) this.addResource(run, r)
    run.last = event
    run.lastAt = Date.now()
    run.totals.set(`${event.target}\u0000${event.round}`, event.totals)
    if (event.generatorSaturated) run.saturated = true
    if (event.agents) {
      const joined = new Set(event.agents.map((a) => a.index))
      run.agents = {
        joined: event.agents,
        waiting: (run.agents?.waiting ?? []).filter((i) => !joined.has(i)),
      }
    }
    this.changed(run)
  }

  /** Agents joining, ready, ended or lost (also before any second of load). */
  ingestAgents = (event: AgentsEvent): void => {
    const run = this.run(event.runId)
    // It says who is where; the last second's requests and CPU come with the progress events.
    const before = new Map((run.agents?.joined ?? []).map((a) => [a.index, a]))
    run.agents = {
      joined: event.agents.map((a) => {
        const b = before.get(a.index)
        return b ? { ...a, requests: b.requests, generatorCpu: b.generatorCpu } : a
      }),
      waiting: event.waiting,
    }
    this.changed(run)
  }

  warn = (event: RunWarningEvent): void => {
    const run = this.run(event.runId)
    run.warnings = mergeWarnings(run.warnings, [event.warning])
    this.changed(run, true)
  }

  end = (event: RunEndedEvent): void => {
    const run = this.run(event.runId)
    run.ended = event
    this.changed(run, true)
  }

  /** Stored seconds from before this page was open (reload, navigation from elsewhere). */
  backfill(runId: number, points: readonly SeriesPoint[]): void {
    const run = this.run(runId)
    const byKey = new Map<string, SeriesPoint[]>()
    for (const p of points) {
      const key = `${p.target}\u0000${p.round}`
      const list = byKey.get(key) ?? []
      list.push(p)
      byKey.set(key, list)
    }
    for (const [key, list] of byKey) {
      const existing = run.series.get(key)?.toArray() ?? []
      const merged = new Map<number, SeriesPoint>()
      for (const p of list) merged.set(p.t, p)
      for (const p of existing) merged.set(p.t, p) // live data wins over stored
      const ring = new Ring<SeriesPoint>(LIVE_CAPACITY)
      for (const p of [...merged.values()].sort((a, b) => a.t - b.t)) ring.push(p)
      run.series.set(key, ring)
    }
    this.changed(run, true)
  }

  /** Stored samples from before this page was open; live samples win where both exist. */
  backfillResources(runId: number, points: readonly ResourcePoint[]): void {
    const run = this.run(runId)
    const byKey = new Map<string, ResourcePoint[]>()
    for (const p of points) {
      const key = `${p.target}\u0000${p.source}\u0000${p.instance}`
      const list = byKey.get(key) ?? []
      list.push(p)
      byKey.set(key, list)
    }
    for (const [key, list] of byKey) {
      const merged = new Map<number, ResourcePoint>()
      for (const p of list) merged.set(p.t, p)
      for (const p of run.resources.get(key)?.toArray() ?? []) merged.set(p.t, p)
      const ring = new Ring<ResourcePoint>(LIVE_CAPACITY)
      for (const p of [...merged.values()].sort((a, b) => a.t - b.t)) ring.push(p)
      run.resources.set(key, ring)
    }
    this.changed(run, true)
  }

  private changed(run: LiveRun, now = false): void {
    run.version++
    this.pending++
    if (now) {
      this.flush()
      return
    }
    this.timer ??= setTimeout(() => this.flush(), NOTIFY_MS)
  }

  private flush(): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    if (this.pending === 0) return
    this.pending = 0
    this.published++
    for (const cb of this.listeners) cb()
  }

  /** Listen to the Api's run events for the life of the app. */
  attach(api: Api): Unsubscribe {
    const offs = [
      api.runs.onProgress(this.ingest),
      api.runs.onEnded(this.end),
      api.runs.onWarning(this.warn),
      api.runs.onAgents(this.ingestAgents),
    ]
    return () => {
      for (const off of offs) off()
    }
  }
}

export const liveStore = new LiveStore()

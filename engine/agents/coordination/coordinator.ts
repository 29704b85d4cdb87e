// The coordinator of a run made by load agents: it runs in the engine that started the run and
// polls the coordination store. It releases each segment's barrier once every agent is there
// (segment starts on whole seconds of one run timeline, cooldown kept), names an agent that never
// arrives, calls an agent lost after lostAfterMs without a heartbeat, merges each second as soon
// as every agent reported it (live progress), and stops when every agent has ended or is lost.
// What it writes live is provisional: finish.ts merges everything again from the store at the end.
import type { AgentLive, ProgressEvent, SeriesPoint, TargetRoundSummary } from '../../api/types.ts'
import { compilePlan } from '../../config/compile.ts'
import type { RunConfig } from '../../config/schema.ts'
import { orderSegments, runSeconds, type Segment } from '../../config/segments.ts'
import type { LauncherEvent } from '../launchers/launcher.ts'
import { mergeSecond, mergeSegment } from '../merge/merge.ts'
import type {
  AgentRow,
  AgentSecondRow,
  AgentSegmentRow,
  CoordinatorStore,
  RawBlock,
  Release,
} from './protocol.ts'

/** Lead between a release and the start it names: time for the release to reach every agent. */
const LEAD_MS = 300
const FIRST_LEAD_MS = 500
/** A second is merged live without an agent's report once it is this old (the final merge has it all). */
const LIVE_DEADLINE_MS = 3000
const POLL_MS = 200

export interface CoordinatorHooks {
  /** The first segment's release, on the store's clock. */
  onStarted(t0StoreMs: number): void
  /** One merged second, provisional, with each agent's state. */
  onSecond(
    seg: Segment,
    merged: { point: SeriesPoint; phase: number; statusJson: string },
    event: ProgressEvent,
  ): void
  onSegment(seg: Segment, summary: TargetRoundSummary): void
  onBlocks(blocks: RawBlock[]): void
  onLog(level: 'info' | 'warn' | 'error', message: string): void
  /** The agents that joined and the indexes still waiting to: on a change, and each second before any load. */
  onAgents?(agents: AgentLive[], waiting: number[]): void
}

export interface Lost {
  /** The store's clock at its last heartbeat (or when its process was seen to exit). */
  atMs: number
  why: string
}

/** What the coordinator learnt; finish.ts turns it into the run's end. */
export interface Outcome {
  releases: Release[]
  agents: AgentRow[]
  lost: Map<number, Lost>
  /** Agents that never reached the first barrier (the run did not start), and why in words. */
  missing: number[]
  missingWhy: Map<number, string>
  stopped: boolean
  t0StoreMs: number | null
}

export interface CoordinatorOptions {
  runId: number
  config: RunConfig
  agents: number
  store: CoordinatorStore
  lostAfterMs: number
  barrierTimeoutMs: number
  hooks: CoordinatorHooks
}

export class Coordinator {
  private readonly o: CoordinatorOptions
  private readonly segments: Segment[]
  private readonly phases: string[]
  private readonly totalSeconds: number | null
  private readonly releases: Release[] = []
  private readonly lost = new Map<number, Lost>()
  private readonly exits = new Map<number, string>()
  /** Each agent's last output line, to say why one that ended before joining did. */
  private readonly lastLines = new Map<number, string>()
  private readonly buckets = new Map<string, { rows: Map<number, AgentSecondRow>; since: number }>()
  private readonly emitted = new Set<string>()
  private readonly segmentRows = new Map<number, Map<number, AgentSegmentRow>>()
  private readonly summarized = new Set<number>()
  private readonly totals = new Map<number, { requests: number; errors: number }>()
  /** Who was expected in each released segment. */
  private readonly participants = new Map<number, number[]>()
  private agents: AgentRow[] = []
  private missing: number[] = []
  private readonly missingWhy = new Map<number, string>()
  private stopRequested = false
  private stopSent = false
  private openedAt = 0
  /** What the last onAgents said, and when (performance.now()). */
  private agentsSaid = { what: '', at: -Infinity }

  constructor(o: CoordinatorOptions) {
    this.o = o
    this.segments = orderSegments(o.config)
    const plan = compilePlan(o.config.load)
    this.phases = plan.phases
    this.totalSeconds = runSeconds(o.config, plan)
  }

  stop(): void {
    this.stopRequested = true
  }

  /** What the launcher saw: an agent that exits without having ended is lost at once. */
  onLauncherEvent(e: LauncherEvent): void {
    if (e.type === 'exit' && e.index !== null) {
      this.exits.set(e.index, e.signal ? `signal ${e.signal}` : `exit code ${e.code}`)
    }
    if (e.type === 'log' && e.index !== null && e.line.trim()) this.lastLines.set(e.index, e.line.trim())
  }

  async run(): Promise<Outcome> {
    const store = this.o.store
    this.openedAt = await store.now()
    for (;;) {
      const now = await store.now()
      this.agents = await store.agents()
      const news = await store.take()
      this.ingest(news.seconds, news.segments)
      const blocks = await store.takeBlocks()
      if (blocks.length) this.o.hooks.onBlocks(blocks.map((b) => b.block))
      this.findLost()
      this.sayAgents()
      if (this.stopRequested && !this.stopSent) {
        this.stopSent = true
        await store.stop()
      }
      if (this.missing.length === 0) await this.barrier(now)
      this.emitSeconds()
      this.summarizeSegments()
      if (this.over()) break
      await store.wait(POLL_MS)
    }
    // Whatever arrived with the last ends (the uploads) is taken before the store closes.
    for (;;) {
      const blocks = await store.takeBlocks()
      if (blocks.length === 0) break
      this.o.hooks.onBlocks(blocks.map((b) => b.block))
    }
    return {
      releases: this.releases,
      agents: this.agents,
      lost: this.lost,
      missing: this.missing,
      missingWhy: this.missingWhy,
      stopped: this.stopRequested,
      t0StoreMs: this.releases[0]?.atMs ?? null,
    }
  }

  /** Agents still expected to report: not ended, not lost, not missing. */
  private active(): number[] {
    const out: number[] = []
    for (let i = 0; i < this.o.agents; i++) {
      if (this.lost.has(i) || this.missing.includes(i)) continue
      if (!this.ended(i)) out.push(i)
    }
    return out
  }

  private over(): boolean {
    if (this.missing.length > 0) return this.active().every((i) => !this.agents.find((a) => a.index === i))
    return this.active().length === 0
  }

  private findLost(): void {
    for (const a of this.agents) {
      if (a.end || this.lost.has(a.index)) continue
      const exit = this.exits.get(a.index)
      if (exit) {
        this.markLost(a.index, {
          atMs: a.heartbeatAt,
          why: `its process ended (${exit}) without reporting its end`,
        })
      } else if (a.heartbeatAgeMs > this.o.lostAfterMs) {
        this.markLost(a.index, {
          atMs: a.heartbeatAt,
          why: `no heartbeat for ${(a.heartbeatAgeMs / 1000).toFixed(1)} s (limit ${this.o.lostAfterMs / 1000} s)`,
        })
      }
    }
  }

  private markLost(index: number, lost: Lost): void {
    this.lost.set(index, lost)
    const second = this.releases[0] ? Math.floor((lost.atMs - this.releases[0].atMs) / 1000) : null
    this.o.hooks.onLog(
      'warn',
      `agent ${index} lost${second !== null ? ` at run second ${second}` : ''}: ${lost.why}; the run will be partial`,
    )
  }

  /** Release the next segment once every active agent waits at its barrier. */
  private async barrier(now: number): Promise<void> {
    const next = this.releases.length
    if (next >= this.segments.length || this.stopRequested) return
    const active = this.active()
    const ready = (i: number) => (this.agents.find((a) => a.index === i)?.readySegment ?? -1) >= next
    const waiting = active.filter((i) => !ready(i))
    if (next === 0) {
      // An agent whose process ended before it joined will never come: name it now.
      const gone = waiting.filter((i) => this.exits.has(i) && !this.agents.some((a) => a.index === i))
      if (gone.length > 0 || now - this.openedAt > this.o.barrierTimeoutMs) {
        if (waiting.length === 0) return
        this.missing = waiting
        const why = waiting.map((i) => {
          const exit = this.exits.get(i)
          const row = this.agents.find((a) => a.index === i)
          const said = this.lastLines.get(i)
          const text = exit
            ? `ended (${exit}) before joining${said ? `: ${said}` : ''}`
            : row
              ? 'joined but did not reach the barrier'
              : 'never joined'
          this.missingWhy.set(i, text)
          return `agent ${i} ${text}`
        })
        this.o.hooks.onLog(
          'error',
          `the run cannot start: ${why.join('; ')} (waited ${((now - this.openedAt) / 1000).toFixed(1)} s)`,
        )
        await this.o.store.stop()
        return
      }
    }
    if (waiting.length > 0 || active.length === 0) return
    const t0 = this.releases[0]?.atMs
    let release: Release
    if (t0 === undefined) {
      release = { segment: 0, atMs: now + FIRST_LEAD_MS, startSecond: 0 }
      this.o.hooks.onStarted(release.atMs)
    } else {
      // Cooldown from now (every agent has just finished the last segment), on a whole second.
      const earliest = now + Math.max(LEAD_MS, this.o.config.cooldownSeconds * 1000)
      const startSecond = Math.ceil((earliest - t0) / 1000)
      release = { segment: next, atMs: t0 + startSecond * 1000, startSecond }
    }
    this.participants.set(next, active)
    this.releases.push(release)
    await this.o.store.release(release)
  }

  private ingest(seconds: AgentSecondRow[], segments: AgentSegmentRow[]): void {
    const now = performance.now()
    for (const r of seconds) {
      const key = `${r.second.segment}:${r.second.t}`
      if (this.emitted.has(key)) continue // late for the live view; the final merge has it
      let b = this.buckets.get(key)
      if (!b) this.buckets.set(key, (b = { rows: new Map<number, AgentSecondRow>(), since: now }))
      b.rows.set(r.index, r)
    }
    for (const r of segments) {
      let m = this.segmentRows.get(r.segment.segment)
      if (!m) this.segmentRows.set(r.segment.segment, (m = new Map<number, AgentSegmentRow>()))
      m.set(r.index, r)
    }
  }

  private ended(i: number): boolean {
    const end = this.agents.find((a) => a.index === i)?.end
    return end !== null && end !== undefined
  }

  /** Is agent i done with segment s's seconds so far, one way or another? */
  private accounted(s: number, i: number): boolean {
    return this.lost.has(i) || this.segmentRows.get(s)?.has(i) === true || this.ended(i)
  }

  private emitSeconds(): void {
    const local = performance.now()
    const ready = [...this.buckets.entries()]
      .filter(([key, b]) => {
        const s = Number(key.split(':')[0])
        const expected = this.participants.get(s) ?? []
        const complete = expected.every((i) => b.rows.has(i) || this.accounted(s, i))
        return complete || local - b.since > LIVE_DEADLINE_MS
      })
      .sort(([, a], [, b]) => {
        const x = [...a.rows.values()][0]!.second
        const y = [...b.rows.values()][0]!.second
        return x.segment - y.segment || x.t - y.t
      })
    for (const [key, b] of ready) {
      this.buckets.delete(key)
      this.emitted.add(key)
      const rows = [...b.rows.values()].sort((a, c) => a.index - c.index)
      const segIndex = rows[0]!.second.segment
      const seg = this.segments[segIndex]
      if (!seg) continue
      let merged
      try {
        merged = mergeSecond(seg, this.phases, rows)
      } catch (err) {
        this.o.hooks.onLog('error', err instanceof Error ? err.message : String(err))
        continue
      }
      const totals = this.totals.get(segIndex) ?? { requests: 0, errors: 0 }
      totals.requests += merged.point.requests
      totals.errors += merged.point.errors
      this.totals.set(segIndex, totals)
      const agents = this.liveAgents(b.rows)
      const event: ProgressEvent = {
        type: 'progress',
        runId: this.o.runId,
        elapsedSeconds: merged.point.t + 1,
        totalSeconds: this.totalSeconds,
        target: seg.target,
        round: seg.round,
        phase: merged.point.phase,
        point: merged.point,
        totals: { ...totals },
        generatorSaturated: rows.some((r) => (r.second.generatorCpu ?? 0) > 90),
        resources: [],
        agents,
      }
      this.o.hooks.onSecond(seg, merged, event)
    }
  }

  /** Each agent as the live view shows it; its requests and CPU from this second's rows, if any. */
  private liveAgents(rows?: Map<number, AgentSecondRow>): AgentLive[] {
    return this.agents.map((a) => {
      const mine = rows?.get(a.index)?.second
      return {
        index: a.index,
        host: a.host,
        pid: a.pid,
        state: this.lost.has(a.index) ? 'lost' : a.state,
        offsetMs: a.clock?.offsetMs ?? null,
        requests: mine?.stats.requests ?? 0,
        generatorCpu: mine?.generatorCpu ?? null,
        heartbeatAgeMs: a.heartbeatAgeMs,
      }
    })
  }

  /**
   * The agents joining, getting ready, ending or lost, said when that changes; before the first
   * merged second (which carries them) also once a second, so their heartbeats show as they wait.
   */
  private sayAgents(): void {
    if (!this.o.hooks.onAgents) return
    const live = this.liveAgents()
    const joined = new Set(live.map((a) => a.index))
    const waiting = Array.from({ length: this.o.agents }, (_, i) => i).filter((i) => !joined.has(i))
    const what = `${live.map((a) => `${a.index}:${a.state}`).join(',')}|${waiting.join(',')}`
    const now = performance.now()
    if (what === this.agentsSaid.what && (this.emitted.size > 0 || now - this.agentsSaid.at < 1000)) return
    this.agentsSaid = { what, at: now }
    this.o.hooks.onAgents(live, waiting)
  }

  /** A segment every participant has finished (or was lost in) is summarized live. */
  private summarizeSegments(): void {
    for (const [s, expected] of this.participants) {
      if (this.summarized.has(s)) continue
      const rows = this.segmentRows.get(s)
      if (!rows || !expected.every((i) => rows.has(i) || this.lost.has(i) || this.ended(i))) continue
      this.summarized.add(s)
      const seg = this.segments[s]!
      const steps = this.o.config.targets[seg.targetIndex]?.steps?.map((x) => x.name) ?? []
      try {
        this.o.hooks.onSegment(seg, mergeSegment(seg, this.phases, steps, [...rows.values()]))
      } catch (err) {
        this.o.hooks.onLog('error', err instanceof Error ? err.message : String(err))
      }
    }
  }
}

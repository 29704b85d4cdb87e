// The coordination protocol between a run's coordinator (the engine that started it) and its load
// agents. Two stores speak it: PostgreSQL (pg-agent.ts, pg-coordinator.ts: agents anywhere that
// reach the database) and the embedded one (memory.ts: the coordinator's own process, reached by
// local agents over their IPC channel, ipc.ts). Both hold the same rows; README.md tells the story.
import type { TargetRoundSummary } from '../../api/types.ts'
import type { RunConfig } from '../../config/schema.ts'
import type { EncodedSecond, EncodedSegment } from '../../runner/protocol.ts'
import type { RawBlock } from '../../store/agents.ts'

export type { EncodedSecond, EncodedSegment }

/** What the coordinator publishes for a run, and every agent reads when it joins. */
export interface RunSpec {
  /** The run's key in the store (CANNONADE_RUN): 16 lowercase hex digits. */
  runKey: string
  agents: number
  /** The run's config, target monitors removed: the coordinator monitors the targets, once. */
  config: RunConfig
  /** The run's correlation prefix: every agent's ids are `<prefix>-<seq>`, seqs partitioned by index. */
  correlationPrefix: string
  /** How often an agent heartbeats, and after how long without one the coordinator calls it lost. */
  heartbeatMs: number
  lostAfterMs: number
  /** After the load, upload the raw per-request ledger to the coordinator ('upload') or keep it local. */
  raw: 'keep' | 'upload'
}

/** What an agent says about itself when it joins. */
export interface AgentHello {
  index: number
  /** The agent count it was started with (must be the run's). */
  count: number
  host: string
  pid: number
  /** Where its raw ledger stays (its local SQLite file). */
  ledger: string
}

/** NTP-style: the store's clock minus the agent's, from the round trip with the smallest delay. */
export interface ClockOffset {
  offsetMs: number
  /** That round trip's length: the offset is known to within half of it. */
  delayMs: number
}

/** A segment's start: every agent begins it at `atMs` on the store's clock, as second `startSecond`. */
export interface Release {
  segment: number
  atMs: number
  startSecond: number
}

export type AgentEndState = 'done' | 'stopped' | 'failed'

export interface AgentEnd {
  state: AgentEndState
  error: string | null
  /** Its load thread's CPU % per second (100 = one core): its saturation is judged on its own. */
  generatorCpu: number[]
  /** Raw requests in its ledger. */
  rows: number
}

/** A batch of raw requests (engine/ledger/blocks.ts encoding), uploaded after the load. */
export type { RawBlock }

/**
 * The agent's side. `join` claims (run, index) atomically, once: a second join of the same index
 * is refused, so a restarted agent never doubles the load. Every other call acts as that agent.
 */
export interface AgentStore {
  join(hello: AgentHello & { runKey: string }): Promise<RunSpec>
  /** The store's clock (ms since the epoch): one round trip, for the offset measurement. */
  now(): Promise<number>
  clock(offset: ClockOffset): Promise<void>
  /** Alive; answers whether the run was asked to stop. */
  heartbeat(): Promise<{ stop: boolean }>
  /** At the barrier of `segment`. */
  ready(segment: number): Promise<void>
  /** The release of `segment` once the coordinator gives it; null when the run stops instead. */
  release(segment: number): Promise<Release | null>
  /** The load of `segment` started at `atMs` on the store's clock. */
  started(arg: { segment: number; atMs: number }): Promise<void>
  /** One second of its share; the same second sent again (revised) replaces the one before. */
  second(second: EncodedSecond): Promise<void>
  segment(arg: { segment: EncodedSegment; summary: TargetRoundSummary }): Promise<void>
  upload(block: RawBlock): Promise<void>
  finish(end: AgentEnd): Promise<void>
  close(): Promise<void>
}

/** Thrown by `join` when an agent may not join, e.g. its index joined before. */
export class AgentRefused extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'AgentRefused'
  }
}

export type AgentState = 'joined' | 'ready' | 'running' | AgentEndState

/** One agent as the coordinator sees it. */
export interface AgentRow {
  index: number
  host: string
  pid: number
  ledger: string
  state: AgentState
  /** The barrier it waits at (-1 before the first). */
  readySegment: number
  clock: ClockOffset | null
  /** How long ago its last heartbeat was, by the store's clock. */
  heartbeatAgeMs: number
  /** Its last heartbeat, ms since the epoch on the store's clock. */
  heartbeatAt: number
  /** Segment → when its load started, on the store's clock. */
  starts: Record<number, number>
  end: AgentEnd | null
}

export interface AgentSecondRow {
  index: number
  second: EncodedSecond
}

export interface AgentSegmentRow {
  index: number
  segment: EncodedSegment
  summary: TargetRoundSummary
}

/** The coordinator's side, polled by coordinator.ts. */
export interface CoordinatorStore {
  readonly kind: 'embedded' | 'postgres'
  /** Publish the run: agents may join it from now on. */
  open(spec: RunSpec): Promise<void>
  now(): Promise<number>
  agents(): Promise<AgentRow[]>
  /** Seconds and segments reported since the last call, each once, in each agent's order. */
  take(): Promise<{ seconds: AgentSecondRow[]; segments: AgentSegmentRow[] }>
  /** Every second reported for `segment` (the final merge reads them all again). */
  allSeconds(segment: number): Promise<AgentSecondRow[]>
  allSegments(): Promise<AgentSegmentRow[]>
  /** Raw blocks uploaded since the last call. */
  takeBlocks(): Promise<{ index: number; block: RawBlock }[]>
  release(release: Release): Promise<void>
  /** Ask every agent to stop (heartbeats and barriers answer so). */
  stop(): Promise<void>
  /** Resolves when an agent reported something, or after `ms`. */
  wait(ms: number): Promise<void>
  /** The run is over: later joins are refused; `purge` deletes its rows. */
  close(opts: { purge: boolean }): Promise<void>
}

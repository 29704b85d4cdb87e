// A run and its data: summary, warnings, per-second series, samples, resources, the live events a
// run sends, and the list item and validation result the Api returns.
import type { RunConfig } from '../config/schema.ts'
import type { AgentJoin, AgentLive, Distribution } from './types-agents.ts'
import type {
  ErrorCounts,
  ErrorKind,
  GeneratorHealth,
  LimitedBy,
  RunStatus,
  TargetOverRounds,
  TargetRoundSummary,
  ThresholdResult,
} from './types-stats.ts'

/**
 * Something that went wrong beside the load without ending the run: a monitor that could not read
 * its source. Kept with the run, shown live and wherever the run is shown (engine/monitor/warnings.ts
 * puts it in words).
 */
export interface RunWarning {
  kind: 'monitor'
  /** The config field of the monitor: targets.0.monitor (targets.0.monitor.1 in a list). */
  field: string
  target: string
  /** docker, process, cloudfoundry, postgres */
  source: string
  /** What failed, as the monitor says it ("container x: no such container"). */
  message: string
  /** The monitor gave up (it could not start): no figures from it for the rest of the run. */
  stopped: boolean
  /** When it was first reported: ISO 8601. */
  at: string
  /** The same moment in seconds since the run's start (negative: before it); null if the run never started. */
  t: number | null
  /** How often the monitor reported it (the same failure is reported once until it changes). */
  count: number
}

export interface RunWarningEvent {
  type: 'warning'
  runId: number
  warning: RunWarning
}

export interface RunSummary {
  runId: number
  /** The prefix of every correlation id in this run: `<prefix>-<sequence>`. */
  correlationPrefix: string
  name: string
  status: RunStatus
  error: string | null
  startedAt: string
  endedAt: string | null
  tags: string[]
  note: string
  /** Per target and round, never merged: a figure always says which target and round it is from. */
  results: TargetRoundSummary[]
  /** Each target over its rounds (one entry per target, in config order): the target's figure. */
  overRounds: TargetOverRounds[]
  thresholds: ThresholdResult[]
  thresholdsPassed: boolean
  generator: GeneratorHealth
  /** Set for a run made by load agents (`--agents N`): who they were and how they kept time. */
  distribution: Distribution | null
  /** Monitors that could not read their source, in the order they first failed. */
  warnings: RunWarning[]
  /** Per target (config order), what limited it while it was measured (engine/metrics/limiting.ts). */
  limitedBy: LimitedBy[]
}

/** One per-second row of a run's timeline, per target and round. */
export interface SeriesPoint {
  target: string
  round: number
  /** Second since run start (the shared timeline of series and resource samples). */
  t: number
  phase: string
  connections: number
  /** Requests with an outcome in this second (answered or failed; not those in flight at the end). */
  requests: number
  /** Responses of any status in this second: the throughput (engine/metrics/figures.ts). */
  responses: number
  /** Failed requests (every error kind but `inflight`). */
  errors: number
  /** Errors by kind; `inflight` (in flight when the window closed) is listed but is not an error. */
  errorsByKind: ErrorCounts
  bytes: number
  /** Latency of this second's responses, µs; null when nothing was answered in it (never 0). */
  mean: number | null
  p50: number | null
  p90: number | null
  p95: number | null
  p99: number | null
  p999: number | null
  max: number | null
  generatorCpu: number | null
  /** A run of load agents: how many agents' reports this merged second holds. */
  agents?: number
}

/**
 * A target's latency distribution (engine/metrics/distribution.ts): points [x, µs] with
 * x = log10(1 / (1 − q)) — 0.30 is p50, 1 p90, 2 p99 … 5 p99.999 — all its rounds merged.
 */
export interface DistributionCurve {
  target: string
  rounds: number
  points: [number, number][]
  /** With several rounds: per point, the lowest and the highest round's latency there (µs). */
  band: [number, number][] | null
  /** Rate mode: latency from each request's intended send time (coordinated omission corrected). */
  corrected?: boolean
}

export interface ProgressEvent {
  type: 'progress'
  runId: number
  elapsedSeconds: number
  /** Whole run including cooldowns; null when request-bound. */
  totalSeconds: number | null
  target: string
  round: number
  phase: string
  point: SeriesPoint
  totals: { requests: number; errors: number }
  generatorSaturated: boolean
  /** Resource samples (targets' CPU and memory, the generator's) taken since the last event. */
  resources: ResourcePoint[]
  /** A run of load agents: each agent's state in this second. */
  agents?: AgentLive[]
}

/**
 * The agents of a distributed run as the coordinator sees them, sent when one joins, gets ready,
 * ends or is lost, and every second until the run's seconds (which carry them too) flow: the live
 * view shows agents joining and waiting at the barrier before any load.
 */
export interface AgentsEvent {
  type: 'agents'
  runId: number
  /** The agents that joined. */
  agents: AgentLive[]
  /** Indexes of the run's agents that have not joined yet. */
  waiting: number[]
  /** Agents a person starts (`agents.on: external`): what each runs to join, while any is awaited. */
  join?: AgentJoin
}

export interface RunEndedEvent {
  type: 'ended'
  runId: number
  status: Exclude<RunStatus, 'running'>
  error: string | null
}

export interface RunListItem {
  runId: number
  name: string
  status: RunStatus
  startedAt: string
  endedAt: string | null
  targets: string[]
  tags: string[]
  requests: number
  durationSeconds: number | null
}

export interface SampleRow {
  correlationId: string
  seq: number
  target: string
  round: number
  phase: string
  startUs: number
  /** µs; null when no response came (an error without an answer, or in flight at the end). */
  latencyUs: number | null
  correctedUs: number | null
  status: number
  bytes: number
  error: ErrorKind
  serverAppUs: number | null
  serverDbUs: number | null
}

export interface ResourcePoint {
  t: number
  target: string
  source: string
  /** A container, a process (per-process with a tree monitor), a CF instance, or a connection state (postgres). */
  instance: string
  cpuPercent: number | null
  memoryBytes: number | null
  /** Database connections in this state (postgres monitor only; null for every other source). */
  connections: number | null
  /**
   * A named series of the prometheus monitor (`heap_bytes`, `gc_pause_ratio`, a query's name; the
   * unit is its Prometheus suffix) and its value; CPU, memory and connections are then null.
   */
  metric?: string | null
  value?: number | null
}

export interface ValidationResult {
  ok: boolean
  issues: { field: string; message: string }[]
  config: RunConfig | null
}

/**
 * A run's raw per-request ledger (`runs:ledger`): how many requests this database holds, whether
 * they were pruned, how many are still being written as `samples` rows, and where the rest are
 * when its load agents kept them.
 */
export interface LedgerInfo {
  /** Requests stored here: `samples` rows and those still in ledger blocks. */
  rows: number
  /** ≈ bytes on disk (56 a request). */
  bytes: number
  prunedAt: string | null
  /** Of `rows`, still in ledger blocks: being written as rows (every reader reads both meanwhile). */
  pending: number
  /** The run's requests its load agents kept (`--raw keep`), or null when none are elsewhere. */
  elsewhere: LedgerElsewhere | null
}

export interface LedgerElsewhere {
  /** Requests of the run whose raw rows are not in this database. */
  requests: number
  /** Each agent that kept its ledger: where it is (its host and file), or that it is gone. */
  agents: { index: number; host: string; path: string; rows: number; gone: boolean }[]
  /** What brings them in, in words naming the command (the same on every screen). */
  advice: string
  /** One line per agent, as every screen shows it: `agent 0 on HOST: PATH (N requests)`. */
  where: string[]
}

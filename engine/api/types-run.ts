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
  /** A monitor that could not read its source, or a target that reopened connections (runner/reconnects.ts). */
  kind: 'monitor' | 'connections'
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
  /** How its rounds were ordered, how many ran and why they stopped (engine/metrics/rounds-words.ts). */
  rounds: RoundsOutcome
  /** How busy the machine was as it started (null for runs recorded before it was kept). */
  machine: MachineLoad | null
  /** Per target (config order), what limited it while it was measured (engine/metrics/limiting.ts). */
  limitedBy: LimitedBy[]
}

/**
 * How busy the machine was before a run started (engine/monitor/machine.ts): kept in the run's
 * environment, and asked for by the wizard and the CLI before they start one.
 */
export interface MachineLoad {
  cores: number
  /** The 1-minute load average. */
  loadAverage: number | null
  /** The host's CPU over a short sample, 100 = one core. */
  busyPercent: number | null
  /** Busier than its cores: load average above them, or every core near full. */
  busy: boolean
  /** What used the CPU in the sample, by process name, most first. */
  top: { name: string; cpuPercent: number }[]
  sampledAt: string
  /** "This machine is busier than its cores: …", or null when it is not. */
  words: string | null
}

/** Why a run made the rounds it made. */
export const STOP_REASONS = ['fixed', 'precise', 'decided', 'max', 'budget', 'stopped'] as const
export type StopReason = (typeof STOP_REASONS)[number]

/** One headline interval of a pair (the baseline against another target) after a round. */
export interface RoundsWidth {
  baseline: string
  other: string
  metric: 'p50' | 'p99' | 'throughput'
  /** ± % : exp of the log interval's half-width, − 1; null without an interval (too few rounds). */
  halfWidth: number | null
  /** Precise (within the goal), decided (beyond or within ± minEffect), or neither yet. */
  settled: 'precise' | 'decided' | null
}

/** Where rounds until precise stand after a round (live), or ended (stored). */
export interface RoundsProgress {
  /** Rounds finished, repeated ones included. */
  round: number
  /** Rounds in the figures (a repeated disturbed round is not). */
  kept: number
  max: number
  adaptive: boolean
  /** ± % goal; null for a fixed number of rounds. */
  precision: number | null
  widths: RoundsWidth[]
  /** The widest interval not yet settled (or the widest of all): what the run waits for. */
  worst: RoundsWidth | null
  /** "round 7 of at most 40: p50 ±3.1 %, goal ±2 %" */
  words: string
}

export interface RoundsOutcome extends RoundsProgress {
  schedule: 'sequential' | 'interleaved' | 'randomized'
  /** A randomized schedule's seed (config scheduleSeed). */
  seed: number | null
  /** Each round's targets in the order they ran, from the stored segments. */
  orders: { round: number; targets: string[] }[]
  /** Null while running. */
  reason: StopReason | null
  min: number
  budgetMinutes: number | null
  disturbed: number
  repeated: number
  /** How many rounds ran and why they stopped, in words (engine/metrics/rounds-words.ts). */
  stop: string
  /** "2 of 12 rounds disturbed: other processes used 1.30 cores (load 5.2 on 2 cores)", or null. */
  noise: string | null
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
  /** Where its rounds stand after the last finished round (set once one has). */
  rounds?: RoundsProgress
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
  /**
   * An ended run's length: the seconds its timeline covers (the live view's elapsed at its end),
   * or its wall clock when it recorded no second; null while it goes on.
   */
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
  agents: { index: number; host: string; path: string; rows: number; gone: boolean; lost: boolean }[]
  /** What brings them in, in words naming the command (the same on every screen). */
  advice: string
  /** One line per agent, as every screen shows it: `agent 0 on HOST: PATH (N requests)`. */
  where: string[]
}

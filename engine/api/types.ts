// Data shapes shared by the engine, its transports and the UI: what the Api's operations take and
// return. Plain types only (no runtime code but the ERROR_KINDS list), so the renderer and every
// engine module can import them without pulling the Api, zod or Node modules.
import type { RunConfig } from '../config/schema.ts'

/**
 * A run's possible ends: it has exactly one of them, once. `partial`: a run of several load agents
 * lost one (no heartbeat) or one failed, so it holds less load than asked for.
 */
export const RUN_ENDS = ['done', 'partial', 'aborted', 'failed'] as const
export const RUN_STATUSES = ['running', ...RUN_ENDS] as const
export type RunStatus = (typeof RUN_STATUSES)[number]

/** Why a request did not produce a 2xx response. Codes are stored as integers (see ERROR_KINDS). */
// Append only: samples store the index. 'capture': a scenario step's expected status or captured value was missing.
// 'parse': the response broke HTTP/1.1 (a malformed status line, an invalid Content-Length or chunk size).
export const ERROR_KINDS = [
  'none',
  'timeout',
  'refused',
  'reset',
  'non2xx',
  'tls',
  'dns',
  'other',
  'inflight',
  'capture',
  'parse',
] as const
export type ErrorKind = (typeof ERROR_KINDS)[number]
export type ErrorCounts = Partial<Record<Exclude<ErrorKind, 'none'>, number>>

/**
 * Requests that failed, as the error rate, thresholds, comparisons and the CLI count them: every
 * kind but `inflight` (still waiting when the window closed, so not known to have failed).
 */
export function failedRequests(errors: ErrorCounts): number {
  return Object.entries(errors).reduce((a, [k, n]) => a + (k === 'inflight' ? 0 : (n ?? 0)), 0)
}

/** Latency statistics in microseconds. */
export interface LatencyStats {
  count: number
  min: number
  mean: number
  stddev: number
  p50: number
  p90: number
  p95: number
  p99: number
  p999: number
  max: number
}

/** One block of requests (a target's round, a phase, a step); engine/metrics/figures.ts defines each figure. */
export interface StatsBlock {
  /** Requests with an outcome: answered or failed (not those still in flight at the window's end). */
  requests: number
  /** Completed with a 2xx status. */
  ok: number
  /** By kind; includes `inflight`, which is not an error (failedRequests leaves it out). */
  errors: ErrorCounts
  statusClasses: Record<'1xx' | '2xx' | '3xx' | '4xx' | '5xx', number>
  bytes: number
  /** Responses (any status) per second of the window; requests without an answer do not count. */
  throughput: number
  /** Wall time of the window (a phase: the phase's own time). */
  seconds: number
  latency: LatencyStats
  /** Rate mode only: latency from the intended send time (coordinated omission corrected). */
  corrected: LatencyStats | null
  /** Server-Timing durations when the target sends them (µs). */
  serverApp: LatencyStats | null
  serverDb: LatencyStats | null
}

export interface PhaseSummary extends StatsBlock {
  phase: string
  /** A warm-up phase: shown, but left out of the target's figures, thresholds and comparisons. */
  warmup?: boolean
}

export interface StepSummary extends StatsBlock {
  step: string
}

/**
 * Rate mode: how the sends kept to the open-loop schedule. A request never leaves before its
 * intended time; it leaves late when the generator's timer fires late or every connection it may
 * use is busy (then its corrected latency counts from the intended time).
 */
export interface ScheduleStats {
  /** Sends whose intended time fell in the window (rate × the profile's active seconds, or the request count). */
  scheduled: number
  sent: number
  /** Due but never sent: every connection it could use was busy until the window closed. */
  unsent: number
  /** Sends that left more than 1 ms after their intended time. */
  late: number
  /** How long after its intended time each send left, µs. */
  lateness: LatencyStats
  /** Most connections busy at once (above the profile's count only with load.maxConnections). */
  peakConnections: number
}

export interface TargetRoundSummary extends StatsBlock {
  target: string
  round: number
  phases: PhaseSummary[]
  /** Scenario targets: one block per step. */
  steps?: StepSummary[]
  /**
   * Connections opened, µs from the socket's creation until a request can be written (TCP
   * connect, plus the TLS handshake for https). Not part of any request's latency. Null when
   * unknown (a run summarized after its runner died, or from an older version).
   */
  connect: LatencyStats | null
  /** Rate mode only (null in closed loop). */
  schedule: ScheduleStats | null
  /** Base64 compressed HDR histogram of latency (µs), lossless and mergeable. */
  histogram: string
  correctedHistogram: string | null
}

export interface ThresholdResult {
  metric: string
  target: string
  max?: number
  min?: number
  actual: number | null
  passed: boolean
}

export interface GeneratorHealth {
  /** Seconds the load thread was above 90 % CPU, and all seconds observed. */
  saturatedSeconds: number
  seconds: number
  saturated: boolean
  peakCpu: number
  /** Another run used the same load generator at the same time (only when allowed explicitly). */
  shared?: boolean
  sharedWith?: number[]
  message: string | null
}

/** One load agent of a distributed run, as the run keeps it (engine/agents/). */
export interface AgentReport {
  index: number
  host: string
  pid: number | null
  /** done, stopped, failed; lost: no heartbeat for `lostAfterMs`; missing: never reached the barrier. */
  state: 'done' | 'stopped' | 'failed' | 'lost' | 'missing'
  error: string | null
  /** The coordination store's clock minus the agent's (ms), and the uncertainty (half the best round trip). */
  offsetMs: number | null
  offsetErrorMs: number | null
  /** Per segment (run order): how much later than the release the agent's load started, ms. */
  startSkewMs: (number | null)[]
  /** When it was lost: the run second of its last heartbeat. */
  lostAtSecond: number | null
  /** Its own totals over the run's segments. */
  requests: number
  errors: number
  throughput: number
  /** Its own figures per target and round (latency in µs). */
  results: {
    target: string
    round: number
    requests: number
    errors: number
    throughput: number
    p50: number
    p99: number
  }[]
  /** Its generator's CPU, judged on its own. */
  generator: GeneratorHealth
  /** Where its raw per-request ledger is: its local SQLite file, and whether it was uploaded here. */
  ledger: { path: string; rows: number; uploaded: boolean }
}

export interface Distribution {
  agents: number
  /** The launcher: local processes, Docker, Swarm, Kubernetes… */
  on: string
  store: 'embedded' | 'postgres'
  /** Largest spread of the agents' start times in any segment (ms). */
  skewMs: number
  /** Largest clock offset of any agent to the store (ms, absolute). */
  maxOffsetMs: number
  heartbeatMs: number
  lostAfterMs: number
  warnings: string[]
  perAgent: AgentReport[]
}

/** One agent in the live view of a distributed run. */
export interface AgentLive {
  index: number
  host: string
  pid: number
  state: 'joined' | 'ready' | 'running' | 'done' | 'stopped' | 'failed' | 'lost'
  offsetMs: number | null
  /** Requests it completed in the second just merged. */
  requests: number
  generatorCpu: number | null
  heartbeatAgeMs: number
}

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
  thresholds: ThresholdResult[]
  thresholdsPassed: boolean
  generator: GeneratorHealth
  /** Set for a run made by load agents (`--agents N`): who they were and how they kept time. */
  distribution: Distribution | null
  /** Monitors that could not read their source, in the order they first failed. */
  warnings: RunWarning[]
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
}

export interface ValidationResult {
  ok: boolean
  issues: { field: string; message: string }[]
  config: RunConfig | null
}

/** The metrics a comparison covers, in the order the compare view and the report list them. */
export const COMPARE_METRICS = ['throughput', 'mean', 'p50', 'p95', 'p99', 'p999', 'errorRate'] as const
export type CompareMetricName = (typeof COMPARE_METRICS)[number]

/**
 * How the other entry's figure stands against the baseline's, judged on the 95 % interval and a
 * practical-equivalence margin (± minEffect %): `higher`/`lower` when the whole interval lies beyond
 * the margin, `same` when it lies inside it, `inconclusive` when it crosses it, `too-few-rounds`
 * when there is no interval (engine/metrics/compare.ts states the method).
 */
export type CompareVerdict = 'higher' | 'lower' | 'same' | 'inconclusive' | 'too-few-rounds'

export interface CompareMetric {
  metric: CompareMetricName
  /**
   * Each side's value: the geometric mean of its rounds (latency in µs, throughput in req/s), so
   * that `change` is exactly other / baseline − 1; the error rate (a fraction) is the plain mean.
   */
  baseline: number
  other: number
  /** other / baseline − 1; null when the baseline is 0. */
  change: number | null
  /** The 95 % interval of `change`, on the same scale; null without one (too few rounds, baseline 0). */
  ci: [number, number] | null
  /** The interval excludes no change (ratio 1); null when there is no interval. */
  significant: boolean | null
  verdict: CompareVerdict
  /** Which side is better on this metric when the verdict is higher or lower. */
  better: 'baseline' | 'other' | null
  /** How many rounds point the same way as the estimate, out of `of`. */
  agree: { rounds: number; of: number }
  /** Plain words, e.g. "b's p50 is 3.90× a's (95 % CI 3.70–4.10×, all 5 rounds agree): higher". */
  sentence: string
}

export interface CompareEntry {
  runId: number
  target: string
  label: string
  rounds: number
}

export interface ComparePair {
  baseline: CompareEntry
  other: CompareEntry
  /** paired: round i with round i (interleaved rounds of one run); unpaired: Welch on the rounds. */
  design: 'paired' | 'unpaired'
  /** Latency compared as corrected for coordinated omission (both sides ran with a rate). */
  corrected: boolean
  metrics: CompareMetric[]
  /** What keeps this pair from being like for like (config, environment, generator), in words. */
  notes: string[]
}

/** One point of a curve: an entry that is a value of one thing (a sweep, sizes of one target). */
export interface CompareSeriesPoint {
  value: number
  runId: number
  target: string
  label: string
  rounds: number
  throughput: number
  p50: number
  p95: number
  p99: number
  errorRate: number
}

/** Entries that are values of one series, drawn as a curve against the value, not compared as rivals. */
export interface CompareSeries {
  /** What the value is: the swept config path's last part, or the targets' series name. */
  name: string
  lines: { name: string; points: CompareSeriesPoint[] }[]
}

export interface CompareResult {
  /** A few sentences a team lead can read: who is faster at the median and the tail, how sure, and any caveat, once. */
  headline: string
  /** The statistical method in words (stated once, under the table). */
  method: string
  /** The practical-equivalence margin, ± % (default 5). */
  minEffect: number
  entries: CompareEntry[]
  /** The chosen baseline: within a run, what each other target is held against; across runs, its run. */
  baseline: CompareEntry | null
  pairs: ComparePair[]
  /** Every caveat of the comparison, each once (they are in the headline too). */
  notes: string[]
  /** Set when the entries are values of one thing: then `pairs` is empty. */
  series: CompareSeries | null
}

export interface StackInfo {
  name: string
  description: string
  url: string
  runtime: string
  /** In list(): the manifest's defaults. In status(): what the app containers really run with (Docker's HostConfig); null = no limit (native). */
  limits: { cpus: number | null; memory: string | null }
}

export interface StackStatus extends StackInfo {
  state: 'down' | 'starting' | 'healthy' | 'unhealthy' | 'native'
  /** The compose project of this stack in this data folder; null for a native stack. */
  project: string | null
  /** App instances running (behind the balancer when more than one). */
  replicas: number
  containers: {
    name: string
    service: string
    state: string
    health: string | null
    cpus: number | null
    memory: string | null
  }[]
}

export interface StackLogEvent {
  type: 'stack-log'
  stack: string
  line: string
}

export interface ExportResult {
  runIds: number[]
  rows: number
  path: string | null
  /** PostgreSQL: per run, what happened to its archived samples (an archive never loses rows). */
  archive?: PgArchiveResult[]
}

export interface PgArchiveResult {
  runId: number
  /**
   * written: first export (or no samples archived before); replaced: the archive's samples were
   * replaced by the same or more local ones; kept: the local ledger has fewer (pruned), so the
   * archived samples stayed and only the run, its summaries, series and resources were updated.
   */
  samples: 'written' | 'replaced' | 'kept'
  /** Samples of this run in PostgreSQL after the export. */
  archivedSamples: number
  /** In words, for the CLI and the app; null when there is nothing to say. */
  note: string | null
}

/** One value of a sweep: a number, a word, true/false, or a set of target names. */
export type SweepValue = number | string | boolean | string[]

/** One setting a study sweeps (engine/config/sweep.ts). */
export interface StudyAxis {
  path: string
  /** Its name on charts and tables: `connections`, `iterations`, `stack`. */
  name: string
  values: SweepValue[]
  labels: string[]
  /** Every value a number: a scale, on which a knee can be found; else the values are categories. */
  numeric: boolean
}

export interface StudyListItem {
  studyId: number
  name: string
  /** The first setting swept and its values (`axes` lists a grid's second one too). */
  path: string
  values: SweepValue[]
  axes: StudyAxis[]
  /** How many runs the study makes: one per value, or per pair of values. */
  size: number
  runIds: number[]
  createdAt: string
}

export interface SweepPoint {
  /** Where the point sits on the first axis: the value when it is a number, else its index. */
  value: number
  /** The value as written: `64`, `node-cluster`, `java-jetty+node-http`. */
  label: string
  runId: number
  /** Throughput: the mean of the rounds; latency: all rounds' histograms merged. */
  throughput: number
  p50: number
  p95: number
  p99: number
  errorRate: number
  rounds: number
  /** Round-to-round spread: the rounds' relative standard deviation (0 with one round). */
  spread: { throughput: number; p99: number }
  /** The target's instances' CPU next to its throughput, when a monitor sampled them. */
  scaling?: ScalingPoint | null
}

/**
 * Throughput against CPU per instance count (engine/study/scaling.ts): what one run's target did
 * with the CPU of all its instances together. CPU in % of one core.
 */
export interface ScalingPoint {
  /** Instances that reported CPU (app containers of a stack with replicas, processes, CF instances). */
  instances: number
  /** The CPU one instance may use (its limit × 100 %), when the monitor knows it. */
  capacityPerInstance: number | null
  /** The highest CPU of all instances together in one second. */
  peakCpu: number
  /** peakCpu / (instances × capacityPerInstance): the share of the instances' CPU they used. */
  utilization: number | null
  /** The highest throughput in one second (requests/s). */
  peakThroughput: number
  /** Each second where every instance reported: its throughput and the instances' CPU together. */
  seconds: { t: number; throughput: number; cpu: number }[]
}

export interface StudyResults {
  studyId: number
  name: string
  path: string
  values: SweepValue[]
  axes: StudyAxis[]
  /** How the knee is found, in words (engine/study/results.ts). */
  kneeRule: string
  /**
   * One line per target (and, in a grid, per value of the second setting): the figures against
   * the first setting's values and the knee, in words too. The knee needs a numeric first axis.
   */
  targets: {
    target: string
    by: { value: SweepValue; label: string } | null
    points: SweepPoint[]
    knee: number | null
    sentence: string
  }[]
}

export interface TemplateInfo {
  id: string
  name: string
  description: string
  config: RunConfig
}

export interface ProbeResult {
  ok: boolean
  status: number | null
  latencyMs: number | null
  /** Why it did not answer, in words (refused, DNS, TLS, time-out). */
  error: string | null
}

/** The stages a report goes through, in order (engine/report/index.ts). */
export type ReportStage = 'loading data' | 'building html' | 'rendering pdf' | 'done'

/** A report on its way: one event per stage, for the runs it is about. */
export interface ReportProgressEvent {
  type: 'report-progress'
  runIds: number[]
  format: 'pdf' | 'html'
  stage: ReportStage
  /** Milliseconds since the report started. */
  elapsedMs: number
}

export interface ExportProgressEvent {
  type: 'export-progress'
  runId: number
  runsDone: number
  runsTotal: number
  rowsDone: number
  rowsTotal: number
}

export type Unsubscribe = () => void

// Data shapes shared by the engine, its transports and the UI. Plain types only: no runtime code,
// so the renderer can import them without pulling Node modules.

export type RunStatus = 'running' | 'done' | 'aborted' | 'failed'

/** Why a request did not produce a 2xx response. Codes are stored as integers (see ERROR_KINDS). */
// Append only: samples store the index. 'capture': a scenario step's expected status or captured value was missing.
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
] as const
export type ErrorKind = (typeof ERROR_KINDS)[number]
export type ErrorCounts = Partial<Record<Exclude<ErrorKind, 'none'>, number>>

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

export interface StatsBlock {
  requests: number
  /** Completed with a 2xx status. */
  ok: number
  errors: ErrorCounts
  statusClasses: Record<'1xx' | '2xx' | '3xx' | '4xx' | '5xx', number>
  bytes: number
  /** Completed requests per second of the window. */
  throughput: number
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
}

export interface StepSummary extends StatsBlock {
  step: string
}

export interface TargetRoundSummary extends StatsBlock {
  target: string
  round: number
  phases: PhaseSummary[]
  /** Scenario targets: one block per step. */
  steps?: StepSummary[]
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
  message: string | null
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
  /** Per target and round, never merged (issue: results kept apart). */
  results: TargetRoundSummary[]
  thresholds: ThresholdResult[]
  thresholdsPassed: boolean
  generator: GeneratorHealth
}

/** One per-second row of a run's timeline, per target and round. */
export interface SeriesPoint {
  target: string
  round: number
  /** Second since run start (the shared timeline of series and resource samples). */
  t: number
  phase: string
  connections: number
  requests: number
  errors: number
  errorsByKind: ErrorCounts
  bytes: number
  mean: number
  p50: number
  p90: number
  p95: number
  p99: number
  p999: number
  max: number
  generatorCpu: number | null
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
  latencyUs: number
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
  instance: string
  cpuPercent: number | null
  memoryBytes: number | null
}

// A run's statuses and error kinds, and the statistics of a block of requests (latency, schedule,
// thresholds, the generator's health): the figures every other shape is built from.

/**
 * A run's possible ends: it has exactly one of them, once. `partial`: a run of several load agents
 * lost one (no heartbeat) or one failed, so it holds less load than asked for.
 */
export const RUN_ENDS = ['done', 'partial', 'aborted', 'failed'] as const
export const RUN_STATUSES = ['running', ...RUN_ENDS] as const
export type RunStatus = (typeof RUN_STATUSES)[number]

/** Why a request did not succeed. Codes are stored as integers (see ERROR_KINDS). */
// Append only: samples store the index. 'status': an answer outside its success statuses
// (engine/config/status-rule.ts: 200–399 unless the config says; called 'non2xx' before issue 28,
// when only 2xx succeeded). 'capture': a scenario step's captured value was missing.
// 'parse': the response broke HTTP/1.1 (a malformed status line, an invalid Content-Length or chunk size).
// 'closed': the server ended the connection (in order, not a reset) before the request's response was whole
// (HTTP/2: a stream above the last one a GOAWAY without an error says the server processed).
// HTTP/2 (engine/runner/h2/): 'stream_reset': the server reset the stream (RST_STREAM, any code but
// REFUSED_STREAM); 'stream_refused': RST_STREAM with REFUSED_STREAM (the server did not process it);
// 'goaway': the server ended the connection with a GOAWAY that carried an error code. A frame or
// header block that breaks HTTP/2 is 'parse', as a response that breaks HTTP/1.1.
export const ERROR_KINDS = [
  'none',
  'timeout',
  'refused',
  'reset',
  'status',
  'tls',
  'dns',
  'other',
  'inflight',
  'capture',
  'parse',
  'closed',
  'stream_reset',
  'stream_refused',
  'goaway',
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
  /** Succeeded: answered with a status its rule counts as a success (200–399 by default), captures found. */
  ok: number
  /** By kind; includes `inflight`, which is not an error (failedRequests leaves it out). */
  errors: ErrorCounts
  /** The `status` errors by the status code they got: `{ "404": 1204 }` (absent in older runs). */
  unexpected?: Record<string, number>
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
  /**
   * Passes in which this step was not sent because a step before it failed (an unexpected status, a
   * capture that found nothing, a timeout…), by the step that failed: `{ login: 1204 }`.
   */
  skipped?: Record<string, number>
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

/**
 * A segment's steady state as load.warmup: auto found it (engine/metrics/steady.ts STEADY_RULE):
 * its first `warmupSeconds` are its warm-up phase, and every figure of the segment is of the rest.
 */
export interface SteadyState {
  /** Whole seconds from the segment's start cut as its warm-up (0: measured from its start). */
  warmupSeconds: number
  /** The measured window's first second on the run's timeline (a series point's `t`). */
  from: number
  /** The most the rule may cut: half the segment's seconds. */
  limit: number
  /** The window after the cut holds its level; false: its figures include a trend (or it was too short to tell). */
  settled: boolean
  why: 'trend' | 'short' | null
  /** Over the measured window, from its start to its end, relative (Theil–Sen): −0.18 fell 18 %. */
  change: { throughput: number; p50: number }
}

export interface TargetRoundSummary extends StatsBlock {
  target: string
  round: number
  phases: PhaseSummary[]
  /** load.warmup: auto only: where the segment's measured window starts, and whether it settled. */
  steady?: SteadyState
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
  /**
   * Server-Timing headers whose `app` or `db` duration was not a duration (NaN, negative,
   * infinite, longer than an hour): kept out of serverApp/serverDb and counted here. 0 for runs
   * recorded before it was counted.
   */
  serverTimingInvalid: number
  /**
   * HTTP/2: the lowest SETTINGS_MAX_CONCURRENT_STREAMS a server set on the segment's connections
   * (absent for HTTP/1.1, a server that set none, or a run recorded before it was kept).
   */
  streamLimit?: number
  /**
   * What else went on while this target's round ran (engine/metrics/noise.ts), from run_targets.noise;
   * absent for a run recorded before it was measured, or a round still running.
   */
  noise?: RoundNoise | null
  /** The segment's place in the run (0 first): the order it ran in; absent for older runs. */
  segment?: number | null
}

/**
 * One target's round, and what shared the machine with it (engine/metrics/noise.ts: measured by
 * the runner's parent from /proc, the runner and the monitors; and when it counts as disturbed).
 */
export interface RoundNoise {
  /** The host's 1-minute load average, the mean of the round's seconds. */
  loadAverage: number | null
  /** The host's CPUs (the load average is read against them). */
  cores: number
  /** CPU time the hypervisor gave to others (steal), % of the host's CPU time. */
  stealPercent: number | null
  /**
   * CPU used on the generator's host by everything but the run (the generator, the engine, the
   * monitored local targets): 100 = one core.
   */
  otherCpuPercent: number | null
  /** The load generator's process, all its threads (100 = one core). */
  generatorCpuPercent: number | null
  /** Rate mode: how late the 99th percentile of sends left their schedule, ms; null in a closed loop. */
  sendLagMs: number | null
  /** The round's target's CPU (mean while measured, 100 = one core) and its limit, where a monitor reads them. */
  targetCpuPercent: number | null
  targetCpuLimitPercent: number | null
  /** Busier than the stated rule allows, or the round's ratio a robust outlier (noise.ts). */
  disturbed: boolean
  /** Why, in words ("other processes used 1.30 cores"); empty when not disturbed. */
  reasons: string[]
  /** `rounds.skipDisturbed`: the round was run again, and is left out of the figures and the verdict. */
  repeated: boolean
}

/**
 * A target over all its rounds, defined once (engine/metrics/over-rounds.ts): counts summed,
 * throughput the mean of the rounds' throughputs, latency of every answered request of every
 * round (their HDR histograms merged). The figure every screen shows for "the target" of a
 * multi-round run; with one round, that round's own figures.
 */
export interface TargetOverRounds extends StatsBlock {
  target: string
  rounds: number
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
  /**
   * Seconds the load thread was the limit, and all seconds observed: above 90 % CPU, or ready to
   * run for more than 90 % of the second (its CPU plus the time it waited for a CPU, Linux).
   */
  saturatedSeconds: number
  seconds: number
  saturated: boolean
  peakCpu: number
  /**
   * Of saturatedSeconds, those it was not busy itself but waited for a CPU other processes held:
   * the machine's other work, not the target, set the pace (absent: not measured, or none).
   */
  waitedSeconds?: number
  /** Another run used the same load generator at the same time (only when allowed explicitly). */
  shared?: boolean
  sharedWith?: number[]
  message: string | null
}

/** What limited a target (engine/metrics/limiting.ts LIMIT_RULE). */
export type LimitKind = 'generator' | 'cpu' | 'memory' | 'db-connections' | 'errors' | 'none'

export interface LimitFinding {
  kind: Exclude<LimitKind, 'none'>
  /** The evidence in words: "its CPU: 97 % of its limit of 1 core on average, …". */
  text: string
}

export interface LimitedBy {
  target: string
  /** The first limit found (LIMIT_ORDER), or 'none'. */
  kind: LimitKind
  /** In words: "limited by its CPU: …", or "nothing found at its limit; not known: …". */
  text: string
  /** Every limit found, the named one first. */
  found: LimitFinding[]
  /** What could not be looked at (no monitor, no limit known). */
  unknown: string[]
}

// Messages between the parent (supervisor), the runner process and its writer thread: discriminated
// unions, so each side's switch is checked by the compiler. The run lifecycle is start → progress*
// → done | aborted | failed.
import type { Plan } from '../config/compile.ts'
import type { RunConfig } from '../config/schema.ts'
import type {
  PhaseSummary,
  ProgressEvent,
  SeriesPoint,
  StatsBlock,
  TargetRoundSummary,
} from '../api/types.ts'
import type { Segment } from '../config/segments.ts'
import type { Columns } from '../ledger/columns.ts'
import type { ScheduleCounts } from './openloop.ts'
import type { EncodedStats } from '../metrics/encoded.ts'

export type { Segment }

/** A runner that runs one agent's share of a run (engine/agents/). */
export interface AgentShare {
  index: number
  count: number
}

// parent → runner process
export type ToRunner =
  | {
      type: 'start'
      runId: number
      dbPath: string
      config: RunConfig
      plan: Plan
      correlationPrefix: string
      /** How often to send a heartbeat: the parent kills a runner silent for 4 of these. */
      heartbeatMs: number
      /**
       * Set for a load agent: `plan` is its share already (config/split.ts); each segment waits at
       * a barrier ('barrier' → 'go'), and seconds and segments carry their encoded statistics.
       */
      agent?: { share: AgentShare }
    }
  | { type: 'stop' }
  /** Rounds until precise: after round `round`, whether another one runs (its rows are written). */
  | { type: 'rounds'; round: number; next: boolean }
  /** The barrier of `segment` is released: start it at `atMs` (wall clock, ms) as second `startSecond`. */
  | { type: 'go'; segment: number; atMs: number; startSecond: number }

/** One second of one agent, as it travels to the coordinator and is summed with the others. */
export interface EncodedSecond {
  segment: number
  t: number
  /** Index into the plan's phases. */
  phase: number
  connections: number
  generatorCpu: number | null
  stats: EncodedStats
}

/** One segment of one agent: totals, per phase (by index) and per scenario step. */
export interface EncodedSegment {
  segment: number
  seconds: number
  phaseSeconds: number[]
  total: EncodedStats
  phases: (EncodedStats | null)[]
  steps: (EncodedStats | null)[] | null
  /** Connect times (encoded histogram, µs) of the connections this agent opened. */
  connect?: string | null
  /** Rate mode: this agent's part of the send schedule, lateness as an encoded histogram (µs). */
  schedule?: EncodedSchedule | null
  /** Server-Timing headers this agent counted as not durations (absent from older agents: 0). */
  serverTimingInvalid?: number
  /** Scenario: steps this agent skipped after a failed step, [j × steps + k] (segment.ts SkipTally). */
  skipped?: number[]
}

export interface EncodedSchedule {
  scheduled: number
  sent: number
  unsent: number
  late: number
  peakConnections: number
  lateness: string | null
}

// runner process → parent
export type FromRunner =
  | { type: 'started'; runId: number; t0Epoch: number; pid: number }
  | { type: 'progress'; event: ProgressEvent; encoded?: EncodedSecond }
  | { type: 'segment'; summary: TargetRoundSummary; encoded?: EncodedSegment }
  /** Agent mode: a second already sent, revised: it replaces the one sent before. */
  | { type: 'second-revised'; encoded: EncodedSecond }
  /** Agent mode: ready to start `segment`, waiting for 'go'. */
  | { type: 'barrier'; segment: number }
  /** `segment` (target `targetIndex`, round `round`) started at `atMs` (wall clock, ms). */
  | { type: 'segment-started'; segment: number; atMs: number; targetIndex?: number; round?: number }
  /** Rounds until precise: round `round` is over; the runner waits for 'rounds' before the next. */
  | { type: 'round-end'; round: number }
  | { type: 'log'; level: 'info' | 'warn' | 'error'; message: string }
  | { type: 'done'; stopped: boolean; generator: GeneratorSeconds }
  | { type: 'failed'; error: string }
  /** Every few seconds, so the parent can tell a hung runner from a quiet one (a cooldown). */
  | { type: 'heartbeat' }

export interface GeneratorSeconds {
  /** One entry per second of load: the load thread's CPU % (100 = one core). */
  cpu: number[]
  /** The same seconds: % of each the load thread was ready to run but waited for a CPU (Linux). */
  wait?: number[]
}

// load thread → writer thread
export type ToWriter =
  /**
   * `warmup`: per phase, whether it is a warm-up (kept, out of the figures). `encode`: agent mode,
   * each second and segment also as encoded statistics. `autoWarmup`: load.warmup: auto, each
   * segment's first `hold` seconds (null: all) held until its cut is known (auto-warmup.ts).
   */
  | {
      type: 'open'
      dbPath: string
      runId: number
      phases: string[]
      warmup: boolean[]
      encode?: boolean
      autoWarmup?: { hold: number | null }
    }
  | { type: 'segment-start'; segment: Segment; stepNames: string[] }
  | { type: 'batch'; segment: number; columns: Columns }
  /** Connect times (µs) of connections opened, and rate mode's send lateness (µs) per request. */
  | { type: 'timings'; segment: number; connects: Float64Array; lags: Float64Array }
  | {
      type: 'tick'
      segment: number
      t: number
      phase: number
      connections: number
      generatorCpu: number | null
      generatorWait: number | null
      /** The window closed just after a whole second: fold this slice into the second before. */
      merge?: boolean
    }
  | {
      type: 'segment-end'
      segment: number
      seconds: number
      phaseSeconds: number[]
      schedule: ScheduleCounts | null
      /** Invalid Server-Timing headers by phase (the writer leaves warm-up phases out, as app/db time). */
      serverTimingInvalid: number[]
      /** Scenario: steps skipped after a failed step (segment.ts SkipTally). */
      skipped?: number[] | undefined
      /** HTTP/2: the lowest SETTINGS_MAX_CONCURRENT_STREAMS a server set (null: none, or HTTP/1.1). */
      streamLimit?: number | null
    }
  | { type: 'close' }

// writer thread → load thread
export type FromWriter =
  | { type: 'ready' }
  | { type: 'free'; columns: Columns }
  | {
      type: 'second'
      segment: number
      point: SeriesPoint
      totals: { requests: number; errors: number }
      /** % of the second the load thread waited for a CPU (cpu.ts), beside the point's own CPU. */
      generatorWait: number | null
      encoded?: EncodedSecond
    }
  | { type: 'segment-summary'; summary: TargetRoundSummary; encoded?: EncodedSegment }
  /** Agent mode: a second already sent changed (the window's last few ms were folded into it). */
  | { type: 'second-revised'; encoded: EncodedSecond }
  | { type: 'closed'; rows: number }
  /** fatal: the disk failed (full, I/O error): nothing more can be written. */
  | { type: 'error'; error: string; fatal: boolean }

export type { PhaseSummary, StatsBlock }

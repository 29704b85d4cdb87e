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
import type { Columns } from './columns.ts'
import type { ScheduleCounts } from './openloop.ts'

export type { Segment }

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
    }
  | { type: 'stop' }

// runner process → parent
export type FromRunner =
  | { type: 'started'; runId: number; t0Epoch: number; pid: number }
  | { type: 'progress'; event: ProgressEvent }
  | { type: 'segment'; summary: TargetRoundSummary }
  | { type: 'log'; level: 'info' | 'warn' | 'error'; message: string }
  | { type: 'done'; stopped: boolean; generator: GeneratorSeconds }
  | { type: 'failed'; error: string }
  /** Every few seconds, so the parent can tell a hung runner from a quiet one (a cooldown). */
  | { type: 'heartbeat' }

export interface GeneratorSeconds {
  /** One entry per second of load: the load thread's CPU % (100 = one core). */
  cpu: number[]
}

// load thread → writer thread
export type ToWriter =
  | { type: 'open'; dbPath: string; runId: number; phases: string[] }
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
      /** The window closed just after a whole second: fold this slice into the second before. */
      merge?: boolean
    }
  | {
      type: 'segment-end'
      segment: number
      seconds: number
      phaseSeconds: number[]
      schedule: ScheduleCounts | null
    }
  | { type: 'close' }

// writer thread → load thread
export type FromWriter =
  | { type: 'ready' }
  | { type: 'free'; columns: Columns }
  | { type: 'second'; segment: number; point: SeriesPoint; totals: { requests: number; errors: number } }
  | { type: 'segment-summary'; summary: TargetRoundSummary }
  | { type: 'closed'; rows: number }
  /** fatal: the disk failed (full, I/O error): nothing more can be written. */
  | { type: 'error'; error: string; fatal: boolean }

export type { PhaseSummary, StatsBlock }

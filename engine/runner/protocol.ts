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

export type { Segment }

// parent → runner process
export type ToRunner =
  | { type: 'start'; runId: number; dbPath: string; config: RunConfig; plan: Plan; correlationPrefix: string }
  | { type: 'stop' }

// runner process → parent
export type FromRunner =
  | { type: 'started'; runId: number; t0Epoch: number; pid: number }
  | { type: 'progress'; event: ProgressEvent }
  | { type: 'segment'; summary: TargetRoundSummary }
  | { type: 'log'; level: 'info' | 'warn' | 'error'; message: string }
  | { type: 'done'; stopped: boolean; generator: GeneratorSeconds }
  | { type: 'failed'; error: string }

export interface GeneratorSeconds {
  /** One entry per second of load: the load thread's CPU % (100 = one core). */
  cpu: number[]
}

// load thread → writer thread
export type ToWriter =
  | { type: 'open'; dbPath: string; runId: number; phases: string[] }
  | { type: 'segment-start'; segment: Segment; stepNames: string[] }
  | { type: 'batch'; segment: number; columns: Columns }
  | {
      type: 'tick'
      segment: number
      t: number
      phase: number
      connections: number
      generatorCpu: number | null
    }
  | { type: 'segment-end'; segment: number; seconds: number; phaseSeconds: number[] }
  | { type: 'close' }

// writer thread → load thread
export type FromWriter =
  | { type: 'ready' }
  | { type: 'free'; columns: Columns }
  | { type: 'second'; segment: number; point: SeriesPoint; totals: { requests: number; errors: number } }
  | { type: 'segment-summary'; summary: TargetRoundSummary }
  | { type: 'closed'; rows: number }
  | { type: 'error'; error: string }

export type { PhaseSummary, StatsBlock }

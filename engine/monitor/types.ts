import type { MonitorKind } from '../config/schema-monitor.ts'

/** Where a resource sample came from. 'generator' is the load generator's own process. */
export type SampleSource = MonitorKind | 'generator'

/**
 * One reading of one instance (a container, a process tree, a Cloud Foundry app instance).
 * Every field that a source cannot provide is null, never 0: 0 % CPU is a real reading.
 */
export type ResourceSample = {
  /** Wall clock, epoch milliseconds, taken when the sample was produced. */
  t: number
  source: SampleSource
  /** The benchmark target this monitor belongs to (a RunConfig target name). */
  target: string
  /** Container name, root pid(s), or Cloud Foundry instance index. */
  instance: string
  /** 100 = one core fully busy. */
  cpuPercent: number | null
  memoryBytes: number | null
  memoryLimitBytes: number | null
  /** In cores (docker NanoCpus / 1e9, or CpuQuota / CpuPeriod). */
  cpuLimit: number | null
  /** 'running', 'exited', CF states (RUNNING, CRASHED, DOWN, STARTING), … */
  state: string | null
  /** Database connections in the state `instance` names: the postgres source only. */
  connections?: number | null
  /** How many connections the database accepts (max_connections less superusers'): postgres only. */
  connectionLimit?: number | null
  /**
   * A named series other than CPU and memory (the prometheus source: heap_bytes, gc_pause_ratio, a
   * query's own name), its value in `value`; CPU, memory and connections are then null.
   */
  metric?: string | null
  value?: number | null
}

export type SampleHandler = (sample: ResourceSample) => void
export type ErrorHandler = (error: MonitorError) => void

/**
 * A resource sampler. `start` resolves once the monitor has found what it watches (a container,
 * a process, an app and a token); it rejects with a MonitorError when it cannot (not found, auth,
 * engine unavailable). Problems after that go to `onError` and the monitor keeps trying: a run is
 * never aborted because a sampler hiccupped. Consecutive identical errors are reported once.
 */
export interface Monitor {
  start(onSample: SampleHandler, onError: ErrorHandler): Promise<void>
  stop(): Promise<void>
}

export type MonitorErrorCode =
  | 'docker-unavailable'
  | 'not-found'
  | 'auth'
  | 'unreachable'
  | 'ambiguous'
  | 'unsupported'
  | 'bad-response'
  | 'config'

export class MonitorError extends Error {
  readonly code: MonitorErrorCode
  constructor(code: MonitorErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'MonitorError'
    this.code = code
  }
}

/** Wraps anything thrown into a MonitorError, keeping MonitorErrors as they are. */
export function toMonitorError(error: unknown, code: MonitorErrorCode, context: string): MonitorError {
  if (error instanceof MonitorError) return error
  const detail = error instanceof Error ? error.message : String(error)
  return new MonitorError(code, `${context}: ${detail}`, { cause: error })
}

/**
 * Finds a bundled stack's parts in this data folder, for monitors that name a `stack`: its compose
 * project (the name carries a hash of the data folder) and its running database. engine/stacks
 * provides it.
 */
export interface StackLocator {
  project(stack: string): string
  appService(stack: string): string
  databaseUrl(stack: string): Promise<string>
}

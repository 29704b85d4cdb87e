// Data shapes shared by the engine, its transports and the UI: what the Api's operations take and
// return. Plain types only (no runtime code but the ERROR_KINDS list), so the renderer and every
// engine module can import them without pulling the Api, zod or Node modules.
// The groups live in sibling modules (types-*.ts); this file re-exports them so importers need
// only this one. Stacks, exports, templates, probes and reports stay here.
import type { RunConfig } from '../config/schema.ts'

export * from './types-stats.ts'
export * from './types-agents.ts'
export * from './types-run.ts'
export * from './types-compare.ts'
export * from './types-study.ts'
export type { ImportedScenario, ImportedSecret, ImportKind } from '../import/types.ts'

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
  /**
   * Runs whose raw samples this export could not hold, and where they are: pruned (the user's
   * choice), or kept by the run's load agents (then the export is incomplete: exit 1 in the CLI).
   */
  missing?: MissingSamples[]
}

export interface MissingSamples {
  runId: number
  pruned: boolean
  /** Where the raw rows are and what brings them in, in words. */
  message: string
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

export interface TemplateInfo {
  id: string
  name: string
  description: string
  config: RunConfig
}

export type { ProbeResult } from '../config/probe.ts'

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

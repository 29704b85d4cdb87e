// What a client on this machine (the `cannonade` command) may ask of the engine beyond the Api:
// write a file at a path the user typed, read one from a path, kill a runner, hear the runner's
// log lines and a sweep's steps. None of it is in engine/api/: no transport (HTTP, IPC) offers it,
// so a page in a browser can never write where it likes or kill a process.
import type { ExportResult, StackStatus, SweepValue, Unsubscribe } from '../api/types.ts'
import {
  exportCsv,
  exportJson,
  exportJunit,
  exportStudyCsv,
  importJson,
  type ImportResult,
} from '../exports/index.ts'
import {
  createReport,
  type CreatedReport,
  type CreateReportOptions,
  type ReportProgress,
} from '../report/index.ts'
import type { RunHandle } from '../runner/supervisor.ts'
import type { StackStep } from '../study/run-study.ts'
import type { Stacks } from '../stacks/stacks.ts'
import type { Db } from '../db/db.ts'
import { importAgentLedger, type LedgerImport } from '../store/ledger-import.ts'
import type { HistoryStore } from '../store/history-store.ts'
import type { LedgerUpkeep, PendingLedger } from './upkeep.ts'

/** A line the runner logged: a CPU it could not pin, a monitor that failed… */
export interface RunLogEvent {
  type: 'run-log'
  level: 'info' | 'warn' | 'error'
  message: string
}

/**
 * A sweep's steps, in order: stacks restarted for a value (with the warm-up their run opens with),
 * each run as it starts with its values, the stacks restored to how the study found them, the end.
 */
export type StudyEvent =
  | StackStep
  | { type: 'run'; studyId: number; index: number; point: SweepValue[]; labels: string[]; runId: number }
  /** The sweep is over: every value ran, a run did not end `done`, or `error` stopped it. */
  | { type: 'study-ended'; studyId: number; error: string | null }

export interface LocalCapabilities {
  /** Kill a run's runner outright (a second Ctrl-C). The run still ends once, `aborted`, samples kept. */
  kill(runId: number): void
  onLog(cb: (event: RunLogEvent) => void): Unsubscribe
  onStudy(cb: (event: StudyEvent) => void): Unsubscribe
  /** The Api's exports, written to `out` instead of the data folder. */
  exportCsv(runId: number, opts: { kind: 'samples' | 'series'; out: string }): Promise<ExportResult>
  /** The Api's exports.studyCsv, written to `out`. */
  exportStudyCsv(studyId: number, out: string): Promise<ExportResult>
  exportJson(runIds: readonly number[], out: string): Promise<ExportResult>
  exportJunit(runId: number, out: string): Promise<ExportResult & { failures: number }>
  /** Runs exported by `exportJson` (here or elsewhere) become new runs of this database. */
  importJson(file: string): Promise<ImportResult>
  /** The Api's reports.create, written to `out` (and the HTML to `html`), titled, with its stages. */
  report(
    runIds: readonly number[],
    opts: {
      out: string
      html?: string
      title?: string
      compare?: CreateReportOptions['compare']
      onProgress?: (p: ReportProgress) => void
    },
  ): Promise<CreatedReport>
  /** The Api's stacks.up on a port of the user's choosing. */
  stackUp(name: string, opts: { native?: boolean; port?: number; replicas?: number }): Promise<StackStatus>
  /** Requests of ended runs still in ledger blocks, not yet `samples` rows, per run. */
  ledgerPending(): PendingLedger[]
  /** Why they are not being written now (a run measuring on this database, read-only), or null. */
  ledgerHeld(): string | null
  /** Write them as rows now; resolves once none is left that can be written. */
  completeLedger(): Promise<void>
  /** Why writing them failed last (a full disk…), or null. */
  ledgerFailed(): string | null
  /** An agent's kept raw ledger (its SQLite file) into the run it belongs to. */
  importLedger(file: string, runId: number): Promise<LedgerImport>
}

export interface LocalDeps {
  db: Db
  upkeep: LedgerUpkeep
  /** Throws when the database was opened read-only. */
  writable: () => void
  history: HistoryStore
  stacks: Stacks
  active: ReadonlyMap<number, RunHandle>
  subscribe<T>(event: 'run-log' | 'study', cb: (e: T) => void): Unsubscribe
}

export function createLocal(d: LocalDeps): LocalCapabilities {
  return {
    kill(runId) {
      d.active.get(runId)?.kill('SIGKILL')
    },
    onLog: (cb) => d.subscribe('run-log', cb),
    onStudy: (cb) => d.subscribe('study', cb),
    exportCsv: (runId, o) => exportCsv(d.db, runId, { kind: o.kind }, o.out),
    exportStudyCsv: (studyId, out) => exportStudyCsv(d.db, studyId, out),
    exportJson: (runIds, out) => exportJson(d.db, runIds, out),
    exportJunit: (runId, out) => exportJunit(d.db, runId, out),
    importJson: async (file) => importJson(d.db, file),
    report: (runIds, o) => createReport(d.history, runIds, o),
    stackUp: (name, o) => d.stacks.up(name, o),
    ledgerPending: () => d.upkeep.pending(),
    ledgerHeld: () => d.upkeep.held(),
    completeLedger: () => d.upkeep.complete(),
    ledgerFailed: () => d.upkeep.failed(),
    importLedger: async (file, runId) => {
      d.writable()
      const imported = importAgentLedger(d.db, runId, file)
      // Its blocks become rows like any run's (the command completes them before it exits).
      d.upkeep.expander.kick()
      return imported
    },
  }
}

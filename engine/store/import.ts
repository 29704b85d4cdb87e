// Writing runs another Cannonade exported (engine/exports/json-import.ts reads the file): new rows
// with new ids, all in one transaction, so a bad record or a run already present leaves the
// database as it was. Values come in as stored: JSON columns as text, table rows as cells in the
// column order of export-read.ts.
import type { RunWarning } from '../api/types.ts'
import type { Db, Statement } from '../db/db.ts'
import type { EnvironmentRow } from './environment.ts'
import { TABLES, type Cell } from './export-read.ts'
import type { RunRow, RunTargetRow } from './history-rows.ts'
import { redactText, redactUrl } from '../config/redact.ts'

export type ImportedRun = Pick<
  RunRow,
  | 'name'
  | 'status'
  | 'config'
  | 'correlation_prefix'
  | 'started_at'
  | 'ended_at'
  | 'error'
  | 'tags'
  | 'note'
  | 'generator'
  | 'thresholds'
  | 'distribution'
  | 'rounds'
>
export type ImportedTarget = Omit<RunTargetRow, 'run_id'>

function insertRow(db: Db, table: keyof typeof TABLES): Statement {
  const { columns } = TABLES[table]
  return db.prepare(
    `INSERT INTO ${table} (run_id, ${columns.join(', ')}) VALUES (${'?, '.repeat(columns.length)}?)`,
  )
}

export class RunImporter {
  private readonly findRun: Statement
  private readonly findImport: Statement
  private readonly run: Statement
  private readonly target: Statement
  private readonly series: Statement
  private readonly resource: Statement
  private readonly sample: Statement
  private readonly environment: Statement
  private readonly imported: Statement
  private readonly warning: Statement

  constructor(db: Db) {
    this.findRun = db.prepare('SELECT id FROM runs WHERE correlation_prefix = ? AND started_at = ?')
    this.findImport = db.prepare('SELECT run_id FROM imports WHERE origin = ?')
    this.run = db.prepare(
      `INSERT INTO runs (name, status, config, correlation_prefix, started_at, ended_at, error, tags, note, generator, thresholds, distribution, rounds)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    this.target = db.prepare(
      `INSERT INTO run_targets (run_id, target_index, round, target, url, summary, histogram, corrected_histogram, segment, noise)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    this.series = insertRow(db, 'series')
    this.resource = insertRow(db, 'resource_samples')
    this.sample = insertRow(db, 'samples')
    this.environment = db.prepare(
      'INSERT INTO environment (run_id, host, cpu, cores, os, node, app, details) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    )
    this.warning = db.prepare(
      `INSERT OR IGNORE INTO run_warnings (run_id, kind, field, target, source, message, stopped, first_ms, t, count)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    this.imported = db.prepare(
      'INSERT INTO imports (run_id, origin, source_run_id, source, imported_at) VALUES (?, ?, ?, ?, ?)',
    )
  }

  /** The local run that already is this one: imported from the same origin, or the original itself. */
  existing(origin: string, correlationPrefix: string, startedAt: string): number | undefined {
    return (
      (this.findImport.get(origin) as { run_id: number } | undefined)?.run_id ??
      (this.findRun.get(correlationPrefix, startedAt) as { id: number } | undefined)?.id
    )
  }

  insertRun(r: ImportedRun): number {
    return Number(
      this.run.run(
        r.name,
        r.status,
        // An export made before passwords were masked, or by another tool: none is kept.
        redactText(r.config),
        r.correlation_prefix,
        r.started_at,
        r.ended_at,
        r.error,
        r.tags,
        r.note,
        r.generator,
        r.thresholds,
        r.distribution,
        r.rounds ?? null,
      ).lastInsertRowid,
    )
  }

  insertTarget(runId: number, t: ImportedTarget): void {
    this.target.run(
      runId,
      t.target_index,
      t.round,
      t.target,
      redactUrl(t.url),
      t.summary,
      t.histogram,
      t.corrected_histogram,
      t.segment ?? null,
      t.noise ?? null,
    )
  }

  /** A series row: the cells of TABLES.series.columns, in order. */
  insertSeries(runId: number, row: readonly Cell[]): void {
    this.series.run(runId, ...row)
  }

  /** A resource sample: the cells of TABLES.resource_samples.columns, in order. */
  insertResource(runId: number, row: readonly Cell[]): void {
    this.resource.run(runId, ...row)
  }

  /** A sample: the cells of TABLES.samples.columns, in order. */
  insertSample(runId: number, row: readonly Cell[]): void {
    this.sample.run(runId, ...row)
  }

  insertEnvironment(runId: number, env: EnvironmentRow): void {
    this.environment.run(
      runId,
      env.host,
      env.cpu,
      env.cores,
      env.os,
      env.node,
      env.app,
      redactText(env.details),
    )
  }

  /** A warning of the run (a monitor that could not read its source), as exported. */
  insertWarning(runId: number, w: RunWarning): void {
    const at = Date.parse(w.at)
    this.warning.run(
      runId,
      w.kind,
      w.field,
      w.target,
      w.source,
      redactText(w.message),
      w.stopped ? 1 : 0,
      Number.isFinite(at) ? at : 0,
      w.t,
      w.count,
    )
  }

  /** Where the run came from, so importing the same file again is refused. */
  recordImport(runId: number, origin: string, sourceRunId: number, source: string): void {
    this.imported.run(runId, origin, sourceRunId, source, new Date().toISOString())
  }
}

/** Run `write` in one transaction with an importer: an exception rolls every row back. */
export function importRuns<T>(db: Db, write: (importer: RunImporter) => T): T {
  const importer = new RunImporter(db)
  return db.transaction(() => write(importer))()
}

// `cannonade import json FILE`: runs exported by another Cannonade (json.ts) become new runs here,
// with new ids. Everything is imported in one transaction: a bad record or a run already present
// (same origin) leaves the database as it was.
import { statSync } from 'node:fs'
import { ApiError } from '../api/errors.ts'
import type { ExportResult } from '../api/types.ts'
import type { Db } from '../store/db.ts'
import { readConfig } from '../store/rows.ts'
import { bad, records } from './json-read.ts'
import { TABLES } from './source.ts'

export interface ImportResult extends ExportResult {
  /** The ids the runs had in the database they were exported from, in the order of runIds. */
  sourceRunIds: number[]
}

export function importJson(db: Db, file: string): ImportResult {
  try {
    statSync(file)
  } catch {
    throw new ApiError('bad-input', `file not found: ${file}`, 'file')
  }
  const findRun = db.prepare('SELECT id FROM runs WHERE correlation_prefix = ? AND started_at = ?')
  const findImport = db.prepare('SELECT run_id FROM imports WHERE origin = ?')
  const insRun = db.prepare(
    `INSERT INTO runs (name, status, config, correlation_prefix, started_at, ended_at, error, tags, note, generator, thresholds)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  const insTarget = db.prepare(
    `INSERT INTO run_targets (run_id, target_index, round, target, url, summary, histogram, corrected_histogram)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  const insSeries = db.prepare(
    `INSERT INTO series (run_id, ${TABLES.series.columns.join(', ')}) VALUES (${'?, '.repeat(TABLES.series.columns.length)}?)`,
  )
  const insResource = db.prepare(
    `INSERT INTO resource_samples (run_id, ${TABLES.resource_samples.columns.join(', ')}) VALUES (${'?, '.repeat(TABLES.resource_samples.columns.length)}?)`,
  )
  const insSample = db.prepare(
    `INSERT INTO samples (run_id, ${TABLES.samples.columns.join(', ')}) VALUES (${'?, '.repeat(TABLES.samples.columns.length)}?)`,
  )
  const insEnv = db.prepare(
    'INSERT INTO environment (run_id, host, cpu, cores, os, node, app, details) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  )
  const insImport = db.prepare(
    'INSERT INTO imports (run_id, origin, source_run_id, source, imported_at) VALUES (?, ?, ?, ?, ?)',
  )
  const json = (v: unknown): string | null => (v === null || v === undefined ? null : JSON.stringify(v))

  const run = db.transaction((): ImportResult => {
    const result: ImportResult = { runIds: [], sourceRunIds: [], rows: 0, path: file }
    let runId = 0
    for (const event of records(file)) {
      if (event.kind === 'sample') {
        const width = TABLES.samples.columns.length
        // A file from before scenario steps were exported has one column less: no step.
        if (runId === 0 || (event.row.length !== width && event.row.length !== width - 1))
          throw bad(file, `run ${result.runIds.length}`, 'malformed sample row')
        insSample.run(runId, ...event.row, ...(event.row.length === width ? [] : [null]))
        result.rows++
        continue
      }
      const { run: r, origin } = event.run
      const existing =
        (findImport.get(origin) as { run_id: number } | undefined)?.run_id ??
        (findRun.get(r.correlationPrefix, r.startedAt) as { id: number } | undefined)?.id
      if (existing !== undefined) {
        throw new ApiError(
          'conflict',
          `run "${r.name}" (run ${event.run.sourceRunId} where it was exported, origin ${origin}) is already in this database as run ${existing}; nothing was imported`,
        )
      }
      const config = JSON.stringify(r.config)
      try {
        readConfig(config)
      } catch (err) {
        throw bad(file, `run ${event.run.sourceRunId}`, `its config is not valid: ${(err as Error).message}`)
      }
      runId = Number(
        insRun.run(
          r.name,
          r.status,
          config,
          r.correlationPrefix,
          r.startedAt,
          r.endedAt,
          r.error,
          JSON.stringify(r.tags),
          r.note,
          json(r.generator),
          json(r.thresholds),
        ).lastInsertRowid,
      )
      for (const t of event.run.runTargets) {
        insTarget.run(
          runId,
          t.targetIndex,
          t.round,
          t.target,
          t.url,
          json(t.summary),
          t.histogram,
          t.correctedHistogram,
        )
      }
      for (const row of event.run.series.rows) insSeries.run(runId, ...row)
      for (const row of event.run.resources.rows) insResource.run(runId, ...row)
      const env = event.run.environment
      if (env)
        insEnv.run(
          runId,
          env.host,
          env.cpu,
          env.cores,
          env.os,
          env.node,
          env.app,
          JSON.stringify(env.details ?? {}),
        )
      insImport.run(runId, origin, event.run.sourceRunId, file, new Date().toISOString())
      result.runIds.push(runId)
      result.sourceRunIds.push(event.run.sourceRunId)
    }
    return result
  })
  try {
    return run()
  } catch (err) {
    if (err instanceof ApiError) throw err
    // A value of the wrong type for a STRICT column, and the like.
    throw bad(file, 'record', (err as Error).message)
  }
}

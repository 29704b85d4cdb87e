// `cannonade import json FILE`: runs exported by another Cannonade (json.ts) become new runs here,
// with new ids. Everything is imported in one transaction: a bad record or a run already present
// (same origin) leaves the database as it was.
import { ApiError } from '../api/errors.ts'
import type { ExportResult } from '../api/types.ts'
import type { Db } from '../db/db.ts'
import { FIRST_SAMPLE_COLUMNS, TABLES } from '../store/export-read.ts'
import { importRuns } from '../store/import.ts'
import { readConfig } from '../store/history-rows.ts'
import { bad, checkImportFile, records } from './json-read.ts'

export interface ImportResult extends ExportResult {
  /** The ids the runs had in the database they were exported from, in the order of runIds. */
  sourceRunIds: number[]
}

export function importJson(db: Db, file: string): ImportResult {
  checkImportFile(file)
  const json = (v: unknown): string | null => (v === null || v === undefined ? null : JSON.stringify(v))

  const run = (): ImportResult =>
    importRuns(db, (importer) => {
      const result: ImportResult = { runIds: [], sourceRunIds: [], rows: 0, path: file }
      let runId = 0
      for (const event of records(file)) {
        if (event.kind === 'sample') {
          const width = TABLES.samples.columns.length
          // A file from before a column was added (scenario steps, say) has fewer: those are null.
          if (runId === 0 || event.row.length > width || event.row.length < FIRST_SAMPLE_COLUMNS)
            throw bad(file, `run ${result.runIds.length}`, 'malformed sample row')
          const row = event.row.length === width ? event.row : [...event.row]
          while (row.length < width) row.push(null)
          importer.insertSample(runId, row)
          result.rows++
          continue
        }
        const { run: r, origin } = event.run
        const existing = importer.existing(origin, r.correlationPrefix, r.startedAt)
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
          throw bad(
            file,
            `run ${event.run.sourceRunId}`,
            `its config is not valid: ${(err as Error).message}`,
          )
        }
        runId = importer.insertRun({
          name: r.name,
          status: r.status,
          config,
          correlation_prefix: r.correlationPrefix,
          started_at: r.startedAt,
          ended_at: r.endedAt,
          error: r.error,
          tags: JSON.stringify(r.tags),
          note: r.note,
          generator: json(r.generator),
          thresholds: json(r.thresholds),
          distribution: json(r.distribution),
          rounds: json(r.rounds),
        })
        for (const t of event.run.runTargets) {
          importer.insertTarget(runId, {
            target_index: t.targetIndex,
            round: t.round,
            target: t.target,
            url: t.url,
            summary: json(t.summary),
            histogram: t.histogram,
            corrected_histogram: t.correctedHistogram,
            segment: t.segment,
            noise: json(t.noise),
          })
        }
        for (const w of r.warnings) importer.insertWarning(runId, w)
        for (const row of event.run.series.rows) importer.insertSeries(runId, row)
        // A file from before the postgres monitor has no connections column, one from before the
        // prometheus monitor no metric and value.
        const missing = TABLES.resource_samples.columns.length - event.run.resources.columns.length
        for (const row of event.run.resources.rows)
          importer.insertResource(runId, [...row, ...Array<null>(missing).fill(null)])
        const env = event.run.environment
        if (env) importer.insertEnvironment(runId, { ...env, details: JSON.stringify(env.details ?? {}) })
        importer.recordImport(runId, origin, event.run.sourceRunId, file)
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

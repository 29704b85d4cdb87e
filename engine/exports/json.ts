// `cannonade export json`: whole runs (run, targets with summaries and histograms, series,
// resources, environment, every sample) in one JSON document another Cannonade can import.
//
// The document is ordinary JSON, laid out one record per line so that a million samples can be
// written and read back as a stream (json-import.ts reads this layout line by line, and falls back
// to parsing the whole document when it was reformatted):
//   {"format":"cannonade-runs","version":1,...,"runs":[
//   {"origin":...,"run":{...},...,"sampleColumns":[...],"samples":[
//   [0,0,1,0,125,2030,null,200,512,0,1200,600],
//   ...
//   [999,...]
//   ]}
//   ,{"origin":...  (the next run)
//   ]}
import { plainColumns } from '../ledger/derive.ts'
import { ApiError } from '../api/errors.ts'
import type { ExportResult } from '../api/types.ts'
import type { Db } from '../db/db.ts'
import { environmentRow } from '../store/environment.ts'
import { missingOf } from '../store/ledger-elsewhere.ts'
import {
  chunks,
  finishedRun,
  originOf,
  runTargetRows,
  S,
  sampleChunks,
  TABLES,
  type Row,
  type SampleTuple,
} from '../store/export-read.ts'
import type { RunRow } from '../store/history-rows.ts'
import { runWarnings } from '../store/warnings.ts'
import { APP_VERSION } from '../store/runs.ts'
import { withSnapshot } from '../store/snapshot.ts'
import { writeOutput } from './write.ts'
import { redactConfigJson } from '../config/redact.ts'

export const JSON_FORMAT = 'cannonade-runs'
/** 2: a run's config holds the success statuses it ran with (a version 1 file's runs had 2xx only). */
export const JSON_VERSION = 2

function parsed(text: string | null, runId: number, column: string): unknown {
  if (text === null) return null
  try {
    return JSON.parse(text) as unknown
  } catch {
    throw new ApiError('internal', `run ${runId}: column ${column} is not valid JSON; nothing was exported`)
  }
}

/** The record's columns the sample array below does not write by name (none today). */
const PLAIN = plainColumns()

/** A sample row as JSON: numbers and nulls only (bigints do not occur in these columns). */
/** A sample as a JSON array, fields by position (the hot path of a JSON export). */
function sampleJson(r: SampleTuple): string {
  let text = `[${r[S.seq]},${r[S.target]},${r[S.round]},${r[S.phase]},${r[S.start]},${r[S.latency]},${r[S.corrected] ?? 'null'},${r[S.status]},${r[S.bytes]},${r[S.error]},${r[S.app] ?? 'null'},${r[S.db] ?? 'null'},${r[S.step] ?? 'null'}`
  // Columns of the record this line does not name: their values as stored.
  for (const k of PLAIN) text += `,${r[k] ?? 'null'}`
  return `${text}]`
}

function allRows(db: Db, table: 'series' | 'resource_samples', runId: number): Row[] {
  const out: Row[] = []
  for (const rows of chunks(db, TABLES[table], runId)) {
    for (const row of rows) out.push(row.slice(0, TABLES[table].columns.length))
  }
  return out
}

function runMeta(db: Db, run: RunRow): string {
  const targets = runTargetRows(db, run.id)
  const env = environmentRow(db, run.id)
  const meta = {
    origin: originOf(run),
    sourceRunId: run.id,
    run: {
      name: run.name,
      status: run.status,
      config: redactConfigJson(parsed(run.config, run.id, 'runs.config'), 'shared'),
      correlationPrefix: run.correlation_prefix,
      startedAt: run.started_at,
      endedAt: run.ended_at,
      error: run.error,
      tags: parsed(run.tags, run.id, 'runs.tags'),
      note: run.note,
      generator: parsed(run.generator, run.id, 'runs.generator'),
      thresholds: parsed(run.thresholds, run.id, 'runs.thresholds'),
      distribution: parsed(run.distribution, run.id, 'runs.distribution'),
      // Monitors that could not read their source (engine/store/warnings.ts).
      warnings: runWarnings(db, run.id),
      // How its rounds ended (015_rounds_noise.sql).
      rounds: parsed(run.rounds ?? null, run.id, 'runs.rounds'),
    },
    runTargets: targets.map((t) => ({
      targetIndex: t.target_index,
      round: t.round,
      target: t.target,
      url: t.url,
      summary: parsed(t.summary, run.id, 'run_targets.summary'),
      histogram: t.histogram,
      correctedHistogram: t.corrected_histogram,
      segment: t.segment ?? null,
      noise: parsed(t.noise ?? null, run.id, 'run_targets.noise'),
    })),
    series: { columns: TABLES.series.columns, rows: allRows(db, 'series', run.id) },
    resources: { columns: TABLES.resource_samples.columns, rows: allRows(db, 'resource_samples', run.id) },
    environment: env ? { ...env, details: parsed(env.details, run.id, 'environment.details') } : null,
    sampleColumns: TABLES.samples.columns,
  }
  const text = JSON.stringify(meta)
  // The samples array is opened here and filled line by line.
  return `${text.slice(0, -1)},"samples":[\n`
}

function* documentLines(db: Db, runs: RunRow[], count: (n: number) => void): Generator<string> {
  yield `${JSON.stringify({ format: JSON_FORMAT, version: JSON_VERSION, app: APP_VERSION, exportedAt: new Date().toISOString() }).slice(0, -1)},"runs":[\n`
  for (const [i, run] of runs.entries()) {
    yield (i > 0 ? ',' : '') + runMeta(db, run)
    let first = true
    for (const rows of sampleChunks(db, run.id)) {
      let text = ''
      for (const row of rows) {
        text += `${first ? '' : ',\n'}${sampleJson(row)}`
        first = false
      }
      count(rows.length)
      yield text
    }
    yield `${first ? '' : '\n'}]}\n`
  }
  yield ']}\n'
}

/**
 * Write whole runs to `outPath`, read from one snapshot; rows counts samples. Unknown or running
 * runs are refused first.
 */
export async function exportJson(
  db: Db,
  runIds: readonly number[],
  outPath: string,
  onRows?: (rows: number) => void,
): Promise<ExportResult> {
  return withSnapshot(db, async (snap) => {
    const runs = [...new Set(runIds)].map((id) => finishedRun(snap, id))
    // Broken JSON columns fail before anything is written (the file is written atomically anyway).
    for (const run of runs) runMeta(snap, run)
    let rows = 0
    await writeOutput(
      outPath,
      documentLines(snap, runs, (n) => {
        rows += n
        onRows?.(rows)
      }),
      { dbPath: db.name },
    )
    const missing = missingOf(
      snap,
      runs.map((r) => r.id),
    )
    return { runIds: runs.map((r) => r.id), rows, path: outPath, ...(missing.length ? { missing } : {}) }
  })
}

// `cannonade export pg`: whole runs into a PostgreSQL database, schema `cannonade`.
// One transaction per run: delete the run's previous copy, insert it again, samples (and series,
// resources) through COPY FROM STDIN streamed out of SQLite chunk by chunk. Exporting twice leaves
// one copy; a connection lost mid-run rolls that run back entirely, and a retry starts it afresh.
import { hostname } from 'node:os'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import pg from 'pg'
import { from as copyFrom } from 'pg-copy-streams'
import { ApiError } from '../api/errors.ts'
import { ERROR_KINDS, type ExportResult } from '../api/types.ts'
import type { Db } from '../store/db.ts'
import { environmentRow } from '../store/environment.ts'
import {
  chunks,
  countRows,
  finishedRun,
  originOf,
  runTargetRows,
  S,
  sampleChunks,
  TABLES,
  type Row,
  type SampleTuple,
  type TableSpec,
} from '../store/export-read.ts'
import { readConfig, type RunRow } from '../store/rows.ts'
import { describePgError, parsePgUrl, withPassword, type PgTarget } from './pg-errors.ts'
import { ensurePgSchema, PG_SCHEMA } from './pg-schema.ts'
import { redactConfig } from '../config/redact.ts'

export interface ExportProgress {
  runId: number
  /** Runs finished (committed) so far, of runsTotal. */
  runsDone: number
  runsTotal: number
  /** Rows of samples, series and resource samples sent so far, over all runs, of rowsTotal. */
  rowsDone: number
  rowsTotal: number
}

export interface PgExportOptions {
  /** Connection timeout (default 10 s). */
  connectTimeoutMs?: number
  /** Used when the URL has none (the desktop app's stored secret); else pg falls back to PGPASSWORD. */
  password?: string
}

/** PostgreSQL COPY text format: \N for NULL; backslash, tab, newline and CR escaped. */
function copyCell(v: Row[number]): string {
  if (v === null) return '\\N'
  if (typeof v === 'number' || typeof v === 'bigint') return String(v)
  const s = typeof v === 'string' ? v : v.toString('utf8')
  return /[\\\t\n\r]/.test(s)
    ? s.replace(/[\\\t\n\r]/g, (c) => ({ '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' })[c] ?? c)
    : s
}

const KINDS: readonly string[] = ERROR_KINDS

/** One COPY line per sample, fields by position: the hot path of an export (bench/history.ts). */
function sampleLines(rows: readonly SampleTuple[], pgRunId: string): string {
  let text = ''
  for (const r of rows) {
    text += `${pgRunId}\t${r[S.seq]}\t${r[S.target]}\t${r[S.round]}\t${r[S.phase]}\t${r[S.start]}\t${r[S.latency]}\t${r[S.corrected] ?? '\\N'}\t${r[S.status]}\t${r[S.bytes]}\t${KINDS[Number(r[S.error])] ?? 'other'}\t${r[S.app] ?? '\\N'}\t${r[S.db] ?? '\\N'}\t${r[S.step] ?? '\\N'}\n`
  }
  return text
}

function genericLines(rows: readonly Row[], pgRunId: string, width: number): string {
  let text = ''
  for (const row of rows) text += `${pgRunId}\t${row.slice(0, width).map(copyCell).join('\t')}\n`
  return text
}

async function copyTable(
  client: pg.ClientBase,
  db: Db,
  spec: TableSpec,
  runId: number,
  pgRunId: string,
  onRows: (n: number) => void,
): Promise<void> {
  function* lines(): Generator<string> {
    if (spec.table === 'samples') {
      for (const rows of sampleChunks(db, runId)) {
        const text = sampleLines(rows, pgRunId)
        onRows(rows.length)
        yield text
      }
      return
    }
    for (const rows of chunks(db, spec, runId)) {
      const text = genericLines(rows, pgRunId, spec.columns.length)
      onRows(rows.length)
      yield text
    }
  }
  const copy = client.query(
    copyFrom(`COPY ${PG_SCHEMA}.${spec.table} (run_id, ${spec.columns.join(', ')}) FROM STDIN`),
  )
  await pipeline(Readable.from(lines(), { objectMode: false }), copy)
}

async function insertRun(client: pg.ClientBase, db: Db, run: RunRow): Promise<string> {
  const { config, phases } = readConfig(run.config)
  const res = await client.query<{ id: string }>(
    `INSERT INTO ${PG_SCHEMA}.runs (origin, local_run_id, source_host, name, status, config, phases, correlation_prefix,
       started_at, ended_at, error, tags, note, generator, thresholds)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) RETURNING id`,
    [
      originOf(run),
      run.id,
      hostname(),
      run.name,
      run.status,
      JSON.stringify(redactConfig(config, 'shared')),
      JSON.stringify(phases),
      run.correlation_prefix,
      run.started_at,
      run.ended_at,
      run.error,
      run.tags,
      run.note,
      run.generator,
      run.thresholds,
    ],
  )
  const id = res.rows[0]?.id
  if (id === undefined) throw new ApiError('internal', `run ${run.id}: PostgreSQL returned no id`)
  const targets = runTargetRows(db, run.id)
  await client.query(
    `INSERT INTO ${PG_SCHEMA}.run_targets (run_id, target_index, round, target, url, summary, histogram, corrected_histogram)
     SELECT $1, x.target_index, x.round, x.target, x.url, x.summary::jsonb, x.histogram, x.corrected_histogram
     FROM jsonb_to_recordset($2::jsonb) AS x(target_index int, round int, target text, url text, summary text,
       histogram text, corrected_histogram text)`,
    [id, JSON.stringify(targets)],
  )
  const env = environmentRow(db, run.id)
  await client.query(
    `INSERT INTO ${PG_SCHEMA}.environment (run_id, host, cpu, cores, os, node, app, details)
     SELECT $1, x.host, x.cpu, x.cores, x.os, x.node, x.app, x.details::jsonb
     FROM jsonb_to_recordset($2::jsonb) AS x(host text, cpu text, cores int, os text, node text, app text, details text)`,
    [id, JSON.stringify(env ? [env] : [])],
  )
  return id
}

/** Parse the stored JSON columns before writing: a broken row fails here, naming run and column. */
function checkJsonColumns(db: Db, run: RunRow): void {
  const bad = (column: string, text: string | null): void => {
    if (text === null) return
    try {
      JSON.parse(text)
    } catch {
      throw new ApiError(
        'internal',
        `run ${run.id}: column ${column} is not valid JSON; nothing of this run was exported`,
      )
    }
  }
  for (const c of ['config', 'tags', 'generator', 'thresholds'] as const) bad(`runs.${c}`, run[c])
  for (const r of runTargetRows(db, run.id)) bad('run_targets.summary', r.summary)
}

export async function exportPg(
  db: Db,
  runIds: readonly number[],
  url: string,
  onProgress: (p: ExportProgress) => void = () => undefined,
  opts: PgExportOptions = {},
): Promise<ExportResult> {
  const target: PgTarget = parsePgUrl(url)
  // Every run is checked before anything is written: an unknown id is bad input, not half an export.
  const runs = [...new Set(runIds)].map((id) => finishedRun(db, id))
  for (const run of runs) {
    checkJsonColumns(db, run)
    try {
      readConfig(run.config)
    } catch (err) {
      throw new ApiError(
        'internal',
        `run ${run.id}: column runs.config is not a valid run config (${(err as Error).message})`,
      )
    }
  }
  const specs = [TABLES.series, TABLES.resource_samples, TABLES.samples]
  const rowsTotal = runs.reduce(
    (s, r) => s + specs.reduce((t, spec) => t + countRows(db, spec.table, r.id), 0),
    0,
  )
  const progress: ExportProgress = {
    runId: runs[0]?.id ?? 0,
    runsDone: 0,
    runsTotal: runs.length,
    rowsDone: 0,
    rowsTotal,
  }

  const client = new pg.Client({
    connectionString: withPassword(url, opts.password),
    connectionTimeoutMillis: opts.connectTimeoutMs ?? 10_000,
    application_name: 'cannonade export',
  })
  // A connection that dies between queries emits 'error' on the client; the failing query reports it.
  client.on('error', () => undefined)
  try {
    await client.connect()
  } catch (err) {
    throw describePgError(err, target)
  }
  const exported: number[] = []
  try {
    try {
      await ensurePgSchema(client)
    } catch (err) {
      throw describePgError(err, target, 'creating the cannonade schema')
    }
    for (const run of runs) {
      progress.runId = run.id
      const rowsBefore = progress.rowsDone
      try {
        await client.query('BEGIN')
        const origin = originOf(run)
        await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [origin])
        await client.query(
          `DELETE FROM ${PG_SCHEMA}.samples WHERE run_id IN (SELECT id FROM ${PG_SCHEMA}.runs WHERE origin = $1)`,
          [origin],
        )
        await client.query(`DELETE FROM ${PG_SCHEMA}.runs WHERE origin = $1`, [origin])
        const pgRunId = await insertRun(client, db, run)
        for (const spec of specs) {
          await copyTable(client, db, spec, run.id, pgRunId, (n) => {
            progress.rowsDone += n
            onProgress({ ...progress })
          })
        }
        await client.query('COMMIT')
      } catch (err) {
        progress.rowsDone = rowsBefore
        await client.query('ROLLBACK').catch(() => undefined)
        const done = exported.length ? ` (runs ${exported.join(', ')} were exported before)` : ''
        const e = describePgError(err, target, `exporting run ${run.id}`)
        throw new ApiError(
          e.code,
          `${e.message}; nothing of run ${run.id} was written (its transaction rolled back)${done}. Retry the export.`,
          e.field,
        )
      }
      exported.push(run.id)
      progress.runsDone++
      onProgress({ ...progress })
    }
  } finally {
    await client.end().catch(() => undefined)
  }
  return { runIds: exported, rows: progress.rowsDone, path: null }
}

// `cannonade export pg`: whole runs into a PostgreSQL database, schema `cannonade`, read from one
// snapshot of the local database (a prune or delete meanwhile changes nothing of it). One
// transaction per run: the run row is inserted or updated in place, its children replaced, samples
// (and series, resources) through COPY FROM STDIN streamed out of SQLite chunk by chunk. Exporting
// twice leaves one copy; a connection lost mid-run rolls that run back entirely. PostgreSQL is an
// archive: a run whose local samples were pruned (or are fewer than archived) keeps its archived
// samples, and only its run row, summaries, series and resources are updated; the result says so.
import { plainColumns } from '../ledger/derive.ts'
import { hostname } from 'node:os'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { pgCopyStreams } from '../lazy-deps.ts'
import { ApiError } from '../api/errors.ts'
import { ERROR_KINDS, type ExportResult, type PgArchiveResult } from '../api/types.ts'
import type { Db } from '../db/db.ts'
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
import { readConfig, type RunRow } from '../store/history-rows.ts'
import { withSnapshot } from '../store/snapshot.ts'
import { parsePgUrl, type PgTarget } from '../pg/errors.ts'
import { ensurePgSchema, PG_SCHEMA } from './pg-schema.ts'
import { redactConfig } from '../config/redact.ts'
import { PgSession, type PgSessionOptions } from '../pg/session.ts'

export interface ExportProgress {
  runId: number
  /** Runs finished (committed) so far, of runsTotal. */
  runsDone: number
  runsTotal: number
  /** Rows of samples, series and resource samples sent so far, over all runs, of rowsTotal. */
  rowsDone: number
  rowsTotal: number
}

export type PgExportOptions = PgSessionOptions

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

/** The record's columns the COPY line below does not format by name (none today). */
const PLAIN = plainColumns()

/** One COPY line per sample, fields by position: the hot path of an export (bench/history.ts). */
function sampleLines(rows: readonly SampleTuple[], pgRunId: string): string {
  let text = ''
  for (const r of rows) {
    text += `${pgRunId}\t${r[S.seq]}\t${r[S.target]}\t${r[S.round]}\t${r[S.phase]}\t${r[S.start]}\t${r[S.latency]}\t${r[S.corrected] ?? '\\N'}\t${r[S.status]}\t${r[S.bytes]}\t${KINDS[Number(r[S.error])] ?? 'other'}\t${r[S.app] ?? '\\N'}\t${r[S.db] ?? '\\N'}\t${r[S.step] ?? '\\N'}`
    // Columns of the record this line does not name: their values as stored, \N for null.
    for (const k of PLAIN) text += `\t${r[k] ?? '\\N'}`
    text += '\n'
  }
  return text
}

function genericLines(rows: readonly Row[], pgRunId: string, width: number): string {
  let text = ''
  for (const row of rows) text += `${pgRunId}\t${row.slice(0, width).map(copyCell).join('\t')}\n`
  return text
}

async function copyTable(
  session: PgSession,
  db: Db,
  spec: TableSpec,
  runId: number,
  pgRunId: string,
  onRows: (n: number) => void,
): Promise<void> {
  // The next chunk is read once the COPY took the last one: that is the watchdog's progress.
  function* lines(): Generator<string> {
    if (spec.table === 'samples') {
      for (const rows of sampleChunks(db, runId)) {
        session.progress()
        const text = sampleLines(rows, pgRunId)
        onRows(rows.length)
        yield text
      }
      return
    }
    for (const rows of chunks(db, spec, runId)) {
      session.progress()
      const text = genericLines(rows, pgRunId, spec.columns.length)
      onRows(rows.length)
      yield text
    }
  }
  session.busy(`exporting run ${runId} (COPY ${spec.table})`)
  try {
    const copy = session.client.query(
      pgCopyStreams().from(`COPY ${PG_SCHEMA}.${spec.table} (run_id, ${spec.columns.join(', ')}) FROM STDIN`),
    )
    await pipeline(Readable.from(lines(), { objectMode: false }), copy)
  } finally {
    session.idle()
  }
}

const RUN_COLUMNS = `origin, local_run_id, source_host, name, status, config, phases, correlation_prefix,
  started_at, ended_at, error, tags, note, generator, thresholds`

function runValues(run: RunRow): unknown[] {
  const { config, phases } = readConfig(run.config)
  return [
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
  ]
}

/** The run row, new or updated in place (its id, which archived samples refer to, stays). */
async function upsertRun(session: PgSession, run: RunRow, existing: string | null): Promise<string> {
  const what = `exporting run ${run.id}`
  if (existing !== null) {
    await session.query(
      what,
      `UPDATE ${PG_SCHEMA}.runs SET (${RUN_COLUMNS}, exported_at) =
         ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, now()) WHERE id = $16`,
      [...runValues(run), existing],
    )
    return existing
  }
  const res = await session.query<{ id: string }>(
    what,
    `INSERT INTO ${PG_SCHEMA}.runs (${RUN_COLUMNS})
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) RETURNING id`,
    runValues(run),
  )
  const id = res.rows[0]?.id
  if (id === undefined) throw new ApiError('internal', `run ${run.id}: PostgreSQL returned no id`)
  return id
}

/** run_targets and environment of the run, replacing what was there. */
async function writeChildren(session: PgSession, db: Db, run: RunRow, id: string): Promise<void> {
  const what = `exporting run ${run.id}`
  for (const table of ['run_targets', 'series', 'resource_samples', 'environment'])
    await session.query(what, `DELETE FROM ${PG_SCHEMA}.${table} WHERE run_id = $1`, [id])
  const targets = runTargetRows(db, run.id)
  await session.query(
    what,
    `INSERT INTO ${PG_SCHEMA}.run_targets (run_id, target_index, round, target, url, summary, histogram, corrected_histogram)
     SELECT $1, x.target_index, x.round, x.target, x.url, x.summary::jsonb, x.histogram, x.corrected_histogram
     FROM jsonb_to_recordset($2::jsonb) AS x(target_index int, round int, target text, url text, summary text,
       histogram text, corrected_histogram text)`,
    [id, JSON.stringify(targets)],
  )
  const env = environmentRow(db, run.id)
  await session.query(
    what,
    `INSERT INTO ${PG_SCHEMA}.environment (run_id, host, cpu, cores, os, node, app, details)
     SELECT $1, x.host, x.cpu, x.cores, x.os, x.node, x.app, x.details::jsonb
     FROM jsonb_to_recordset($2::jsonb) AS x(host text, cpu text, cores int, os text, node text, app text, details text)`,
    [id, JSON.stringify(env ? [env] : [])],
  )
}

/** What becomes of the archived samples: the archive never ends up with fewer than it had. */
function archivePlan(
  run: RunRow,
  local: number,
  archived: number | null,
): Omit<PgArchiveResult, 'archivedSamples'> {
  const count = (n: number) => n.toLocaleString('en-US')
  if (archived === null || archived === 0)
    return {
      runId: run.id,
      samples: 'written',
      note: run.ledger_pruned_at
        ? `run ${run.id}: exported without raw samples (they were pruned locally on ${run.ledger_pruned_at})`
        : null,
    }
  if (local >= archived && !run.ledger_pruned_at) return { runId: run.id, samples: 'replaced', note: null }
  const why = run.ledger_pruned_at
    ? `its raw samples were pruned locally on ${run.ledger_pruned_at}`
    : `only ${count(local)} of its samples are stored locally`
  return {
    runId: run.id,
    samples: 'kept',
    note: `run ${run.id}: ${why}, so the ${count(archived)} archived samples in PostgreSQL were kept; its run row, summaries, series and resources were updated`,
  }
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
  return withSnapshot(db, (snap) => exportRuns(snap, runIds, url, target, onProgress, opts))
}

const COPIED = [TABLES.series, TABLES.resource_samples, TABLES.samples]

/** The runs, each checked before anything is written: an unknown id is bad input, not half an export. */
function checkedRuns(db: Db, runIds: readonly number[]): RunRow[] {
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
  return runs
}

async function createSchema(session: PgSession): Promise<void> {
  try {
    session.busy('creating the cannonade schema')
    await ensurePgSchema(session.client)
  } catch (err) {
    throw session.describe(err, 'creating the cannonade schema')
  } finally {
    session.idle()
  }
}

/**
 * One run in one transaction, under an advisory lock on its origin: its row upserted, its children
 * replaced, its samples replaced or kept (archivePlan), the rows COPYed with progress. Errors are
 * PostgreSQL's; the caller rolls back.
 */
async function exportRun(
  session: PgSession,
  db: Db,
  run: RunRow,
  progress: ExportProgress,
  onProgress: (p: ExportProgress) => void,
): Promise<PgArchiveResult> {
  const what = `exporting run ${run.id}`
  await session.query(what, 'BEGIN')
  const origin = originOf(run)
  await session.query(what, 'SELECT pg_advisory_xact_lock(hashtext($1))', [origin])
  // Under the lock: what the archive holds of this run now.
  const prior = await session.query<{ id: string; samples: string }>(
    what,
    `SELECT r.id, (SELECT count(*) FROM ${PG_SCHEMA}.samples s WHERE s.run_id = r.id) AS samples
     FROM ${PG_SCHEMA}.runs r WHERE r.origin = $1`,
    [origin],
  )
  const existing = prior.rows[0] ?? null
  const archived = existing ? Number(existing.samples) : null
  const local = countRows(db, 'samples', run.id)
  const plan = archivePlan(run, local, archived)
  if (plan.samples === 'kept') progress.rowsTotal -= local
  const pgRunId = await upsertRun(session, run, existing?.id ?? null)
  await writeChildren(session, db, run, pgRunId)
  if (plan.samples === 'replaced')
    await session.query(what, `DELETE FROM ${PG_SCHEMA}.samples WHERE run_id = $1`, [pgRunId])
  const copied = plan.samples === 'kept' ? COPIED.filter((x) => x.table !== 'samples') : COPIED
  for (const spec of copied) {
    await copyTable(session, db, spec, run.id, pgRunId, (n) => {
      progress.rowsDone += n
      onProgress({ ...progress })
    })
  }
  await session.query(what, 'COMMIT')
  return { ...plan, archivedSamples: plan.samples === 'kept' ? (archived ?? 0) : local }
}

async function exportRuns(
  db: Db,
  runIds: readonly number[],
  url: string,
  target: PgTarget,
  onProgress: (p: ExportProgress) => void,
  opts: PgExportOptions,
): Promise<ExportResult> {
  const runs = checkedRuns(db, runIds)
  const rowsTotal = runs.reduce(
    (s, r) => s + COPIED.reduce((t, spec) => t + countRows(db, spec.table, r.id), 0),
    0,
  )
  const progress: ExportProgress = {
    runId: runs[0]?.id ?? 0,
    runsDone: 0,
    runsTotal: runs.length,
    rowsDone: 0,
    rowsTotal,
  }

  const session = new PgSession(url, target, opts)
  await session.connect()
  const exported: number[] = []
  const archive: PgArchiveResult[] = []
  try {
    await createSchema(session)
    for (const run of runs) {
      progress.runId = run.id
      const rowsBefore = progress.rowsDone
      try {
        archive.push(await exportRun(session, db, run, progress, onProgress))
      } catch (err) {
        progress.rowsDone = rowsBefore
        progress.rowsTotal = rowsTotal
        if (!session.connectionLost)
          await session.query(`exporting run ${run.id}`, 'ROLLBACK').catch(() => undefined)
        const done = exported.length ? ` (runs ${exported.join(', ')} were exported before)` : ''
        const e = session.describe(err, `exporting run ${run.id}`)
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
    await session.end()
  }
  return { runIds: exported, rows: progress.rowsDone, path: null, archive }
}

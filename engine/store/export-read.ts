// Reading whole runs for the exports (engine/exports/): the run and run_targets rows as stored,
// and the big tables without holding them in memory: keyset-paged chunks along an index, each
// chunk read with iterate() in one synchronous stretch. Between chunks the exporter awaits its
// output (a file, a COPY stream), and the SQLite connection is free for other work then (an open
// iterator would make every other statement on it fail as "busy").
import { ApiError } from '../api/errors.ts'
import { blockRows, blockSample, runBlocks, type BlockSample } from '../ledger/blocks.ts'
import { LEDGER } from '../ledger/derive.ts'
import type { Db } from '../db/db.ts'
import type { RunRow, RunTargetRow } from './history-rows.ts'
import { redactUrl } from '../config/redact.ts'

export type Cell = string | number | bigint | Buffer | null
export type Row = Cell[]

export interface TableSpec {
  table: 'samples' | 'series' | 'resource_samples'
  /** Columns in output order. */
  columns: readonly string[]
  /** A unique ordering after run_id along an index: the keyset cursor. */
  key: readonly string[]
}

/**
 * The request record's columns (engine/ledger/record.ts), in its order. A JSON file written before
 * a column was added holds fewer: importJson reads those rows with the later columns null.
 */
export const SAMPLE_COLUMNS = LEDGER.sqlColumns
/** The columns of the first JSON files (before scenario steps): the fewest a file may hold. */
export const FIRST_SAMPLE_COLUMNS = 12

export const SERIES_COLUMNS = [
  'target_index',
  'round',
  't',
  'phase',
  'connections',
  'requests',
  'errors',
  'errors_json',
  'status_json',
  'bytes',
  'mean',
  'p50',
  'p90',
  'p95',
  'p99',
  'p999',
  'max',
  'generator_cpu',
] as const

export const RESOURCE_COLUMNS = [
  't',
  'target',
  'source',
  'instance',
  'cpu_percent',
  'memory_bytes',
  'memory_limit',
  'cpu_limit',
  'state',
  // Added with the postgres monitor, then the prometheus monitor's named series: importJson still
  // reads rows without them.
  'connections',
  'metric',
  'value',
] as const

export const TABLES = {
  samples: { table: 'samples', columns: SAMPLE_COLUMNS, key: ['seq', 'rowid'] },
  series: { table: 'series', columns: SERIES_COLUMNS, key: ['target_index', 'round', 't'] },
  resource_samples: { table: 'resource_samples', columns: RESOURCE_COLUMNS, key: ['t', 'rowid'] },
} as const satisfies Record<string, TableSpec>

export const CHUNK_ROWS = 20_000

/** Positions of the sample columns in a row of `chunks(db, TABLES.samples, …)`, by short name. */
export const S = LEDGER.index

/**
 * A run's rows of one table, CHUNK_ROWS at a time, in key order. Each row holds the spec's columns
 * in order, followed by the key columns (the cursor); formatters index the columns they need,
 * which is what keeps a million rows fast (no per-row copies, PERF: see bench/history.ts).
 */
export function* chunks(db: Db, spec: TableSpec, runId: number, chunkRows = CHUNK_ROWS): Generator<Row[]> {
  const width = spec.columns.length
  const select = `SELECT ${[...spec.columns, ...spec.key].join(', ')} FROM ${spec.table} WHERE run_id = ?`
  const order = `ORDER BY ${spec.key.join(', ')} LIMIT ${chunkRows}`
  const first = db.prepare(`${select} ${order}`).raw()
  const next = db
    .prepare(`${select} AND (${spec.key.join(', ')}) > (${spec.key.map(() => '?').join(', ')}) ${order}`)
    .raw()
  let cursor: Row | null = null
  for (;;) {
    const rows: Row[] = []
    const it = (
      cursor === null ? first.iterate(runId) : next.iterate(runId, ...cursor)
    ) as IterableIterator<Row>
    for (const row of it) rows.push(row)
    const last = rows.at(-1)
    if (last) yield rows
    if (rows.length < chunkRows || !last) return
    cursor = last.slice(width)
  }
}

/**
 * A sample row as SQLite returns it: every sample column is a STRICT INTEGER (001_initial.sql),
 * so values are numbers, or null where the column allows it (the columns of a block's sample,
 * ledger/blocks.ts); the cursor follows.
 */
export type SampleTuple = [...BlockSample, ...cursor: number[]]

/**
 * Every request of a run: its `samples` rows in seq order, then those still in ledger blocks (a
 * run that ended moments ago, expanded in the background), block by block, each in seq order.
 * Read it inside one snapshot (snapshot.ts): an expansion moves a block to rows in one commit.
 */
export function* sampleChunks(db: Db, runId: number, chunkRows = CHUNK_ROWS): Generator<SampleTuple[]> {
  // The column types are the table's (STRICT), which is what this assertion states.
  yield* chunks(db, TABLES.samples, runId, chunkRows) as unknown as Generator<SampleTuple[]>
  let rows: SampleTuple[] = []
  for (const b of runBlocks(db, runId)) {
    const block: SampleTuple[] = []
    for (let i = 0; i < b.columns.count; i++) block.push(blockSample(b.columns, b.targetIndex, b.round, i))
    block.sort((x, y) => x[0] - y[0])
    rows = rows.concat(block)
    if (rows.length >= chunkRows) {
      yield rows
      rows = []
    }
  }
  if (rows.length > 0) yield rows
}

export function countRows(db: Db, table: TableSpec['table'], runId: number): number {
  const n = (db.prepare(`SELECT count(*) AS n FROM ${table} WHERE run_id = ?`).get(runId) as { n: number }).n
  return table === 'samples' ? n + blockRows(db, runId) : n
}

/** The run row, refusing runs still being written (an export would be silently incomplete). */
export function finishedRun(db: Db, runId: number): RunRow {
  const run = db.prepare('SELECT * FROM runs WHERE id = ?').get(runId) as RunRow | undefined
  if (!run) throw new ApiError('not-found', `run ${runId} does not exist`)
  if (run.status === 'running') {
    throw new ApiError('conflict', `run ${runId} is still running; export it once it has ended`)
  }
  return run
}

/**
 * A run's run_targets rows as stored (JSON columns unparsed), by target and round, for an export; a
 * URL password (a run stored before passwords were masked) and a query's credentials are masked here.
 */
export function runTargetRows(db: Db, runId: number): RunTargetRow[] {
  const rows = db
    .prepare('SELECT * FROM run_targets WHERE run_id = ? ORDER BY target_index, round')
    .all(runId) as RunTargetRow[]
  // Rows leave the machine (exports): a credential in the query is masked as a header is.
  return rows.map((r) => ({ ...r, url: redactUrl(r.url, 'shared') }))
}

/** Where a run came from, stable across databases: `<correlation prefix>@<started at>`. */
export function originOf(run: Pick<RunRow, 'correlation_prefix' | 'started_at'>): string {
  return `${run.correlation_prefix}@${run.started_at}`
}

/** The target's own time per second, from its Server-Timing header (app and database), µs. */
export interface ServerSecond {
  /** Responses in the second that carried a Server-Timing app / db duration. */
  appCount: number
  appMean: number | null
  dbCount: number
  dbMean: number | null
}

/**
 * Per target index, round and second: the mean app and db time of the responses answered in that
 * second (the second the series counts them in), from the raw samples, rows and ledger blocks
 * alike (none once pruned). Read it inside one snapshot, as the other readers here.
 */
export function serverSeconds(db: Db, runId: number): Map<string, ServerSecond> {
  const sums = new Map<string, { appCount: number; appSum: number; dbCount: number; dbSum: number }>()
  const add = (key: string, appCount: number, appSum: number, dbCount: number, dbSum: number) => {
    const s = sums.get(key)
    if (s) {
      s.appCount += appCount
      s.appSum += appSum
      s.dbCount += dbCount
      s.dbSum += dbSum
    } else sums.set(key, { appCount, appSum, dbCount, dbSum })
  }
  const rows = db
    .prepare(
      `SELECT target_index AS target, round, CAST((start_us + latency_us) / 1000000 AS INTEGER) AS t,
         count(app_us) AS appCount, total(app_us) AS appSum, count(db_us) AS dbCount, total(db_us) AS dbSum
       FROM samples WHERE run_id = ? AND latency_us >= 0 AND (app_us IS NOT NULL OR db_us IS NOT NULL)
       GROUP BY target_index, round, 3`,
    )
    .all(runId) as {
    target: number
    round: number
    t: number
    appCount: number
    appSum: number
    dbCount: number
    dbSum: number
  }[]
  for (const r of rows) add(`${r.target}:${r.round}:${r.t}`, r.appCount, r.appSum, r.dbCount, r.dbSum)
  for (const b of runBlocks(db, runId)) {
    for (let i = 0; i < b.columns.count; i++) {
      const s = blockSample(b.columns, b.targetIndex, b.round, i)
      const [start, latency] = [s[S.start] as number, s[S.latency] as number]
      const [app, dbUs] = [s[S.app] ?? null, s[S.db] ?? null]
      if (latency < 0 || (app === null && dbUs === null)) continue
      add(
        `${b.targetIndex}:${b.round}:${Math.trunc((start + latency) / 1_000_000)}`,
        app === null ? 0 : 1,
        app ?? 0,
        dbUs === null ? 0 : 1,
        dbUs ?? 0,
      )
    }
  }
  const out = new Map<string, ServerSecond>()
  for (const [key, s] of sums)
    out.set(key, {
      appCount: s.appCount,
      appMean: s.appCount ? s.appSum / s.appCount : null,
      dbCount: s.dbCount,
      dbMean: s.dbCount ? s.dbSum / s.dbCount : null,
    })
  return out
}

// A ledger block into `samples` rows, fast: the time from a run's window to a complete file is
// this loop's (issue 19: at most 1 s per million requests). Measured with better-sqlite3 13 on a
// 2-core machine (CPU time per row, 1 M rows): the pure SQLite insert of a row with its
// (run_id, seq) index entry costs ~0.5 µs (INSERT … SELECT of generated rows), but binding a JS
// value costs ~75 ns (N-API, one call per value), so 14 bound values a row cost ~1.6 µs in all
// (0.63 M rows/s). JSON decoded by SQLite (json_each, ->>) cost 5 µs a row and fixed-width text
// cut with substr 6 µs. What is left: bind few values. The block's constants (run, target,
// round, the smallest seq and start) are bound once per statement, and a row's values are packed
// into 3 JS numbers (exact below 2^53) that SQLite unpacks with shifts and masks: ~0.8 µs a row
// (~1.2 M rows/s). Every other column of the record (corrected, Server-Timing app and db, any
// column record.ts adds: an extra) costs a value of its own, and only in
// blocks that have one. A block whose values do not fit the packing (a seq or start spread, a
// latency or body size beyond its bits) is inserted value by value, as before.
import type { BlockColumns } from './blocks.ts'
import type { Db, Statement } from '../db/db.ts'
import { LEDGER, type Ledger } from './derive.ts'

/** Rows per statement: the last chunk of a block is padded with rows the statement skips. */
const CHUNK = 1024
const TWO15 = 2 ** 15
const TWO16 = 2 ** 16
const TWO32 = 2 ** 32

/**
 * The packing's SQL per column: column1 = (seq − s0)·2^32 + (start − t0), column2 = (latency + 1)·2^15
 * + status·32 + error, column3 = bytes·2^16 + phase·256 + step; the block's constants from `b`.
 * Every other column of the record is an extra, a value of its own (below).
 */
const PACKED: Record<string, string> = {
  seq: 'b.s0 + (v.column1 >> 32)',
  target_index: 'b.t',
  round: 'b.n',
  phase: '(v.column3 >> 8) & 255',
  start_us: 'b.t0 + (v.column1 & 4294967295)',
  latency_us: '(v.column2 >> 15) - 1',
  status: '(v.column2 >> 5) & 1023',
  bytes: 'v.column3 >> 16',
  error: 'v.column2 & 31',
  step: 'nullif(v.column3 & 255, 255)',
}

type Cols = Record<string, ArrayLike<number>>

/** A column outside the packing: bound as its own value, and only in blocks that have one. */
interface Extra {
  key: string
  sql: string
  /** Absent is negative: bound as value + 1, 0 for absent (nullif(v, 0) − 1 in SQL). */
  shifted: boolean
  /** Whether row `i` has a value (a column that cannot be null always has). */
  has: (c: Cols, i: number) => boolean
  toRow: (v: number) => number | null
}

/** What a block's rows need: packed or one value per column, and which extras. */
interface Layout {
  packed: boolean
  extras: boolean[]
}

/** The statements of one record: the product's (LEDGER) or a test's. */
function statementsOf(ledger: Ledger) {
  const extras: Extra[] = ledger.stored
    .filter((c) => !(c.sql in PACKED))
    .map((c) => ({
      key: c.key,
      sql: c.sql,
      shifted: c.absent === -1,
      has: !c.nullable
        ? () => true
        : c.absent === -1
          ? (cols, i) => cols[c.key]![i]! >= 0
          : (cols, i) => cols[c.key]![i] !== c.absent,
      toRow: c.toRow,
    }))
  const insert = `INSERT INTO samples (run_id, ${ledger.sqlColumns.join(', ')})`
  /**
   * The statement of a layout. Its first five (anonymous) parameters are the block's constants;
   * then CHUNK rows of VALUES; a padding row has column1 NULL.
   */
  function statementText(l: Layout): string {
    let width: number
    const expr = new Map<string, string>()
    if (l.packed) {
      width = 3
      extras.forEach((x, k) => {
        const v = `v.column${width + 1}`
        expr.set(x.sql, !l.extras[k] ? 'NULL' : x.shifted ? `nullif(${v}, 0) - 1` : v)
        if (l.extras[k]) width++
      })
    } else {
      // Every stored column as its `samples` value, in the record's order.
      width = ledger.stored.length
      ledger.stored.forEach((c, j) => expr.set(c.sql, `v.column${j + 1}`))
    }
    const select = ledger.record
      .map((c) => expr.get(c.sql) ?? PACKED[c.sql] ?? (c.sql === 'round' ? 'b.n' : 'b.t'))
      .join(', ')
    const row = `(${Array.from({ length: width }, () => '?').join(',')})`
    return `${insert} SELECT b.r, ${select}
    FROM (SELECT ? AS r, ? AS t, ? AS n, ? AS s0, ? AS t0) AS b,
         (VALUES ${Array.from({ length: CHUNK }, () => row).join(',')}) AS v
    WHERE v.column1 IS NOT NULL`
  }
  return { extras, statementText }
}

/** The block's layout, and its smallest seq and start (the packing's bases). */
function layoutOf(c: BlockColumns, extras: readonly Extra[]): Layout & { s0: number; t0: number } {
  let s0 = Infinity
  let s1 = -Infinity
  let t0 = Infinity
  let t1 = -Infinity
  let fits = true
  const has = extras.map(() => false)
  const cols = c as unknown as Cols
  for (let i = 0; i < c.count; i++) {
    const seq = c.seq[i]!
    const start = Math.round(c.startUs[i]!)
    const latency = Math.round(c.latencyUs[i]!)
    const bytes = c.bytes[i]!
    if (seq < s0) s0 = seq
    if (seq > s1) s1 = seq
    if (start < t0) t0 = start
    if (start > t1) t1 = start
    // Written positively, so that a NaN anywhere fails the packing too.
    if (
      !(latency >= -1 && latency + 1 < 2 ** 38) ||
      !(bytes >= 0 && bytes < 2 ** 37 && bytes % 1 === 0) ||
      !(seq % 1 === 0 && start === start) ||
      c.status[i]! >= 1024 ||
      c.error[i]! >= 32
    )
      fits = false
    for (let k = 0; k < extras.length; k++) if (!has[k] && extras[k]!.has(cols, i)) has[k] = true
  }
  const packed = fits && c.count > 0 && s1 - s0 < 2 ** 21 && t1 - t0 < TWO32
  return { packed, extras: has, s0: packed ? s0 : 0, t0: packed ? t0 : 0 }
}

/** Row `i` of a block into `args` at `at`, as the layout's statement reads it. */
function fillPacked(
  c: BlockColumns,
  l: Layout & { s0: number; t0: number },
  extras: readonly Extra[],
  i: number,
  args: (number | null)[],
  at: number,
): number {
  args[at] = (c.seq[i]! - l.s0) * TWO32 + (Math.round(c.startUs[i]!) - l.t0)
  args[at + 1] = (Math.round(c.latencyUs[i]!) + 1) * TWO15 + c.status[i]! * 32 + c.error[i]!
  args[at + 2] = c.bytes[i]! * TWO16 + c.phase[i]! * 256 + c.step[i]!
  let k = at + 3
  const cols = c as unknown as Cols
  for (let x = 0; x < extras.length; x++) {
    if (!l.extras[x]) continue
    const e = extras[x]!
    const v = e.toRow(cols[e.key]![i]!)
    // Absent (negative in a block) is 0; a value v is v + 1.
    args[k++] = e.shifted ? (v === null ? 0 : v + 1) : v
  }
  return k
}

/** Row `i` one value per column, with blockSample's rounding and nulls. */
function fillWide(ledger: Ledger, c: BlockColumns, i: number, args: (number | null)[], at: number): number {
  const cols = c as unknown as Cols
  for (const s of ledger.stored) args[at++] = s.toRow(cols[s.key]![i]!)
  return at
}

/**
 * Inserting blocks' rows on one database: statements prepared once per layout and kept. Call
 * `insert` inside the transaction that also deletes the block (samples-writer.ts). `ledger`: the
 * record's derivations (a test passes its own).
 */
export function blockRowWriter(
  db: Db,
  ledger: Ledger = LEDGER,
): {
  insert(runId: number, targetIndex: number, round: number, c: BlockColumns): void
} {
  const { extras, statementText } = statementsOf(ledger)
  const wide: Layout = { packed: false, extras: extras.map(() => false) }
  const statements = new Map<string, { statement: Statement; args: (number | null)[] }>()
  const prepared = (l: Layout) => {
    const key = `${+l.packed}${l.extras.map((x) => +x).join('')}`
    let s = statements.get(key)
    if (!s) {
      const width = l.packed ? 3 + l.extras.filter(Boolean).length : ledger.stored.length
      s = { statement: db.prepare(statementText(l)), args: new Array<number | null>(5 + width * CHUNK) }
      statements.set(key, s)
    }
    return s
  }
  return {
    insert(runId, targetIndex, round, c) {
      const layout = layoutOf(c, extras)
      const { statement, args } = prepared(layout.packed ? layout : wide)
      args[0] = runId
      args[1] = targetIndex
      args[2] = round
      args[3] = layout.s0
      args[4] = layout.t0
      for (let from = 0; from < c.count; from += CHUNK) {
        const n = Math.min(CHUNK, c.count - from)
        let at = 5
        for (let k = 0; k < n; k++)
          at = layout.packed
            ? fillPacked(c, layout, extras, from + k, args, at)
            : fillWide(ledger, c, from + k, args, at)
        // Padding: the statement skips a row whose first value is NULL.
        args.fill(null, at)
        statement.run(args)
      }
    },
  }
}

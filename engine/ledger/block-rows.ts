// A ledger block into `samples` rows, fast: the time from a run's window to a complete file is
// this loop's (issue 19: at most 1 s per million requests). Measured with better-sqlite3 13 on a
// 2-core machine (CPU time per row, 1 M rows): the pure SQLite insert of a row with its
// (run_id, seq) index entry costs ~0.5 µs (INSERT … SELECT of generated rows), but binding a JS
// value costs ~75 ns (N-API, one call per value), so 14 bound values a row cost ~1.6 µs in all
// (0.63 M rows/s). JSON decoded by SQLite (json_each, ->>) cost 5 µs a row and fixed-width text
// cut with substr 6 µs. What is left: bind few values. The block's constants (run, target,
// round, the smallest seq and start) are bound once per statement, and a row's values are packed
// into 3 JS numbers (exact below 2^53) that SQLite unpacks with shifts and masks: ~0.8 µs a row
// (~1.2 M rows/s). Optional columns (corrected, Server-Timing app and db) cost a value each only in
// blocks that have them. A block whose values do not fit the packing (a seq or start spread, a
// latency or body size beyond its bits) is inserted value by value, as before.
import { blockIds, decodeBlock, type BlockColumns, type StoredBlock } from './blocks.ts'
import type { Db, Statement } from '../db/db.ts'

/** Rows per statement: the last chunk of a block is padded with rows the statement skips. */
const CHUNK = 1024
const TWO15 = 2 ** 15
const TWO16 = 2 ** 16
const TWO32 = 2 ** 32

/** What a block's rows need: packed or one value per column, and which optional columns. */
interface Layout {
  packed: boolean
  corrected: boolean
  app: boolean
  db: boolean
}

const WIDE: Layout = { packed: false, corrected: false, app: false, db: false }

const INSERT = `INSERT INTO samples (run_id, target_index, round, seq, start_us, latency_us, corrected_us,
  status, bytes, error, app_us, db_us, phase, step)`

/**
 * The statement of a layout. Its first five (anonymous) parameters are the block's constants; then
 * CHUNK rows of VALUES. Packed: column1 = (seq − s0)·2^32 + (start − t0), column2 = (latency + 1)·2^15
 * + status·32 + error, column3 = bytes·2^16 + phase·256 + step; optional columns as value + 1 (0:
 * absent). A padding row has column1 NULL.
 */
function statementText(l: Layout): string {
  const opt = (on: boolean, col: string) => (on ? `nullif(v.${col}, 0) - 1` : 'NULL')
  let width: number
  let select: string
  if (l.packed) {
    const c = ['column4', 'column5', 'column6']
    let k = 0
    const corrected = l.corrected ? c[k++]! : ''
    const app = l.app ? c[k++]! : ''
    const dbCol = l.db ? c[k++]! : ''
    width = 3 + k
    select = `b.s0 + (v.column1 >> 32), b.t0 + (v.column1 & 4294967295), (v.column2 >> 15) - 1,
      ${opt(l.corrected, corrected)}, (v.column2 >> 5) & 1023, v.column3 >> 16, v.column2 & 31,
      ${opt(l.app, app)}, ${opt(l.db, dbCol)}, (v.column3 >> 8) & 255, nullif(v.column3 & 255, 255)`
  } else {
    // seq, start, latency, corrected, status, bytes, error, app, db, phase, step: as stored.
    width = 11
    select = Array.from({ length: 11 }, (_, i) => `v.column${i + 1}`).join(', ')
  }
  const row = `(${Array.from({ length: width }, () => '?').join(',')})`
  return `${INSERT} SELECT b.r, b.t, b.n, ${select}
    FROM (SELECT ? AS r, ? AS t, ? AS n, ? AS s0, ? AS t0) AS b,
         (VALUES ${Array.from({ length: CHUNK }, () => row).join(',')}) AS v
    WHERE v.column1 IS NOT NULL`
}

/** The block's layout, and its smallest seq and start (the packing's bases). */
function layoutOf(c: BlockColumns): Layout & { s0: number; t0: number } {
  let s0 = Infinity
  let s1 = -Infinity
  let t0 = Infinity
  let t1 = -Infinity
  let fits = true
  let corrected = false
  let app = false
  let dbUs = false
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
    if (c.correctedUs[i]! >= 0) corrected = true
    if (c.appUs[i]! >= 0) app = true
    if (c.dbUs[i]! >= 0) dbUs = true
  }
  const packed = fits && c.count > 0 && s1 - s0 < 2 ** 21 && t1 - t0 < TWO32
  return { packed, corrected, app, db: dbUs, s0: packed ? s0 : 0, t0: packed ? t0 : 0 }
}

/** Row `i` of a block into `args` at `at`, as the layout's statement reads it. */
function fillPacked(
  c: BlockColumns,
  l: Layout & { s0: number; t0: number },
  i: number,
  args: (number | null)[],
  at: number,
): number {
  args[at] = (c.seq[i]! - l.s0) * TWO32 + (Math.round(c.startUs[i]!) - l.t0)
  args[at + 1] = (Math.round(c.latencyUs[i]!) + 1) * TWO15 + c.status[i]! * 32 + c.error[i]!
  args[at + 2] = c.bytes[i]! * TWO16 + c.phase[i]! * 256 + c.step[i]!
  let k = at + 3
  // Absent (negative in a block) is 0; a value v is v + 1.
  if (l.corrected) args[k++] = c.correctedUs[i]! < 0 ? 0 : Math.round(c.correctedUs[i]!) + 1
  if (l.app) args[k++] = c.appUs[i]! < 0 ? 0 : Math.round(c.appUs[i]!) + 1
  if (l.db) args[k++] = c.dbUs[i]! < 0 ? 0 : Math.round(c.dbUs[i]!) + 1
  return k
}

/** Row `i` one value per column, with blockSample's rounding and nulls. */
function fillWide(c: BlockColumns, i: number, args: (number | null)[], at: number): number {
  const corrected = c.correctedUs[i]!
  const app = c.appUs[i]!
  const dbUs = c.dbUs[i]!
  const step = c.step[i]!
  args[at] = c.seq[i]!
  args[at + 1] = Math.round(c.startUs[i]!)
  args[at + 2] = Math.round(c.latencyUs[i]!)
  args[at + 3] = corrected < 0 ? null : Math.round(corrected)
  args[at + 4] = c.status[i]!
  args[at + 5] = c.bytes[i]!
  args[at + 6] = c.error[i]!
  args[at + 7] = app < 0 ? null : Math.round(app)
  args[at + 8] = dbUs < 0 ? null : Math.round(dbUs)
  args[at + 9] = c.phase[i]!
  args[at + 10] = step === 255 ? null : step
  return at + 11
}

/**
 * Inserting blocks' rows on one database: statements prepared once per layout and kept. Call
 * `insert` inside the transaction that also deletes the block (blocks.ts blockExpander).
 */
export function blockRowWriter(db: Db): {
  insert(runId: number, targetIndex: number, round: number, c: BlockColumns): void
} {
  const statements = new Map<string, { statement: Statement; args: (number | null)[] }>()
  const prepared = (l: Layout) => {
    const key = `${+l.packed}${+l.corrected}${+l.app}${+l.db}`
    let s = statements.get(key)
    if (!s) {
      const width = l.packed ? 3 + +l.corrected + +l.app + +l.db : 11
      s = { statement: db.prepare(statementText(l)), args: new Array<number | null>(5 + width * CHUNK) }
      statements.set(key, s)
    }
    return s
  }
  return {
    insert(runId, targetIndex, round, c) {
      const layout = layoutOf(c)
      const { statement, args } = prepared(layout.packed ? layout : WIDE)
      args[0] = runId
      args[1] = targetIndex
      args[2] = round
      args[3] = layout.s0
      args[4] = layout.t0
      for (let from = 0; from < c.count; from += CHUNK) {
        const n = Math.min(CHUNK, c.count - from)
        let at = 5
        for (let k = 0; k < n; k++)
          at = layout.packed ? fillPacked(c, layout, from + k, args, at) : fillWide(c, from + k, args, at)
        // Padding: the statement skips a row whose first value is NULL.
        args.fill(null, at)
        statement.run(args)
      }
    },
  }
}

/**
 * Expanding blocks into `samples` rows. Each block is one IMMEDIATE transaction that reads it,
 * inserts its rows and deletes it, so an interrupted expansion leaves every request either in a
 * block or in `samples`, never both, and two processes expanding the same run at once (a host
 * in the background, an export) never expand a block twice: the second finds it gone. The rows
 * are written by block-rows.ts (how, and why that way: its header).
 */
export function blockExpander(db: Db): { expand(blockId: number): number } {
  const rows = blockRowWriter(db)
  const block = db.prepare(
    'SELECT id, run_id, target_index, round, count, data FROM sample_blocks WHERE id = ?',
  )
  const drop = db.prepare('DELETE FROM sample_blocks WHERE id = ?')
  const expandOne = db.transaction((id: number): number => {
    const b = block.get(id) as (StoredBlock & { run_id: number }) | undefined
    if (!b) return 0
    rows.insert(b.run_id, b.target_index, b.round, decodeBlock(b.data, b.count))
    drop.run(b.id)
    return b.count
  })
  return { expand: (id) => expandOne.immediate(id) }
}

/**
 * Expand all of a run's blocks now, one transaction per block; memory stays at one block
 * whatever the run's length. The background expansion (expander.ts) does the same a block at a time.
 */
export function expandBlocks(db: Db, runId: number, onProgress?: (rows: number) => void): number {
  const expander = blockExpander(db)
  let rows = 0
  for (const id of blockIds(db, runId)) {
    rows += expander.expand(id)
    onProgress?.(rows)
  }
  return rows
}

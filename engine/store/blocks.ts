// The ledger's block format: the columns of one batch of requests, back to back in one BLOB.
// Written during a run (cheap), expanded into `samples` rows afterwards (see 006_sample_blocks.sql).
import type { Db } from './db.ts'

/** Column order and element size in a block; a block of n rows is n × ROW_BYTES long. */
const LAYOUT = [
  ['seq', 8],
  ['startUs', 8],
  ['latencyUs', 8],
  ['correctedUs', 8],
  ['bytes', 8],
  ['appUs', 8],
  ['dbUs', 8],
  ['status', 2],
  ['error', 1],
  ['phase', 1],
  ['step', 1],
] as const
export const ROW_BYTES = LAYOUT.reduce((s, [, b]) => s + b, 0)

export interface BlockColumns {
  count: number
  seq: Float64Array
  startUs: Float64Array
  latencyUs: Float64Array
  correctedUs: Float64Array
  bytes: Float64Array
  appUs: Float64Array
  dbUs: Float64Array
  status: Uint16Array
  error: Uint8Array
  phase: Uint8Array
  step: Uint8Array
}

/** Copy the first `count` rows of each column into one buffer (8-byte columns first: aligned). */
export function encodeBlock(c: BlockColumns): Buffer {
  const n = c.count
  const parts = LAYOUT.map(([name, size]) => {
    const col = c[name]
    return Buffer.from(col.buffer, col.byteOffset, n * size)
  })
  return Buffer.concat(parts, n * ROW_BYTES)
}

export function decodeBlock(data: Uint8Array, count: number): BlockColumns {
  // Copy into an aligned buffer: typed-array views need their offset to be a multiple of 8.
  const buf = new ArrayBuffer(count * ROW_BYTES)
  new Uint8Array(buf).set(data.subarray(0, count * ROW_BYTES))
  let off = 0
  const take = <T>(size: number, make: (b: ArrayBuffer, o: number, n: number) => T): T => {
    const v = make(buf, off, count)
    off += size * count
    return v
  }
  const f64 = (b: ArrayBuffer, o: number, n: number) => new Float64Array(b, o, n)
  const out = {
    count,
    seq: take(8, f64),
    startUs: take(8, f64),
    latencyUs: take(8, f64),
    correctedUs: take(8, f64),
    bytes: take(8, f64),
    appUs: take(8, f64),
    dbUs: take(8, f64),
    status: take(2, (b, o, n) => new Uint16Array(b, o, n)),
    error: take(1, (b, o, n) => new Uint8Array(b, o, n)),
    phase: take(1, (b, o, n) => new Uint8Array(b, o, n)),
    step: take(1, (b, o, n) => new Uint8Array(b, o, n)),
  }
  return out
}

const COLS = 14
const CHUNK = 128

/**
 * Expand a run's blocks into `samples` rows and delete them, one transaction per block, so an
 * interrupted expansion leaves every request either in a block or in `samples`, never both.
 */
export function expandBlocks(db: Db, runId: number, onProgress?: (rows: number) => void): number {
  const sql = (rows: number) =>
    `INSERT INTO samples (run_id, seq, target_index, round, phase, start_us, latency_us, corrected_us, status, bytes, error, app_us, db_us, step) VALUES ` +
    Array.from({ length: rows }, () => `(${'?,'.repeat(COLS - 1)}?)`).join(',')
  const one = db.prepare(sql(1))
  const many = db.prepare(sql(CHUNK))
  const args: (number | null)[] = new Array<number | null>(COLS * CHUNK).fill(0)
  const ids = db.prepare('SELECT id FROM sample_blocks WHERE run_id = ? ORDER BY id').pluck()
  const block = db.prepare('SELECT id, target_index, round, count, data FROM sample_blocks WHERE id = ?')
  const drop = db.prepare('DELETE FROM sample_blocks WHERE id = ?')
  const fill = (c: BlockColumns, t: number, r: number, i: number, at: number) => {
    const corrected = c.correctedUs[i]!
    const app = c.appUs[i]!
    const dbUs = c.dbUs[i]!
    const step = c.step[i]!
    args[at] = runId
    args[at + 1] = c.seq[i]!
    args[at + 2] = t
    args[at + 3] = r
    args[at + 4] = c.phase[i]!
    args[at + 5] = Math.round(c.startUs[i]!)
    args[at + 6] = Math.round(c.latencyUs[i]!)
    args[at + 7] = corrected < 0 ? null : Math.round(corrected)
    args[at + 8] = c.status[i]!
    args[at + 9] = c.bytes[i]!
    args[at + 10] = c.error[i]!
    args[at + 11] = app < 0 ? null : Math.round(app)
    args[at + 12] = dbUs < 0 ? null : Math.round(dbUs)
    args[at + 13] = step === 255 ? null : step
  }
  const expandOne = db.transaction(
    (b: { id: number; target_index: number; round: number; count: number; data: Buffer }) => {
      const c = decodeBlock(b.data, b.count)
      let i = 0
      for (; i + CHUNK <= c.count; i += CHUNK) {
        for (let k = 0; k < CHUNK; k++) fill(c, b.target_index, b.round, i + k, k * COLS)
        many.run(args)
      }
      for (; i < c.count; i++) {
        fill(c, b.target_index, b.round, i, 0)
        one.run(args.slice(0, COLS))
      }
      drop.run(b.id)
    },
  )
  let rows = 0
  // Ids first (iterating a statement while writing its table is not allowed), then one block's
  // data at a time, so memory stays at one block whatever the run's length.
  for (const id of ids.all(runId) as number[]) {
    const b = block.get(id) as {
      id: number
      target_index: number
      round: number
      count: number
      data: Buffer
    }
    expandOne(b)
    rows += b.count
    onProgress?.(rows)
  }
  return rows
}

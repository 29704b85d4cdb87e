// The ledger's block format: the columns of one batch of requests, back to back in one BLOB.
// Written during a run (cheap), expanded into `samples` rows after the run has ended (block-rows.ts,
// in the background: expander.ts; see 006_sample_blocks.sql). Until then readers read both.
import type { Db } from './db.ts'
import type { SampleDbRow } from './history-rows.ts'

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
/** The most requests a block holds: the runner's batch (runner/columns.ts), and an import's limit. */
export const BLOCK_MAX_ROWS = 4096

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

/** Empty columns for up to `rows` requests (a step of 255: not a scenario step). */
export function newBlockColumns(rows: number): BlockColumns {
  return {
    count: 0,
    seq: new Float64Array(rows),
    startUs: new Float64Array(rows),
    latencyUs: new Float64Array(rows),
    correctedUs: new Float64Array(rows),
    bytes: new Float64Array(rows),
    status: new Uint16Array(rows),
    error: new Uint8Array(rows),
    phase: new Uint8Array(rows),
    appUs: new Float64Array(rows),
    dbUs: new Float64Array(rows),
    step: new Uint8Array(rows).fill(255),
  }
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

/** Every request of an encoded block moved to phase `phase` (its phase column rewritten in place). */
export function setBlockPhase(data: Buffer, count: number, phase: number): void {
  let off = 0
  for (const [name, size] of LAYOUT) {
    if (name === 'phase') {
      data.fill(phase, off, off + count)
      return
    }
    off += size * count
  }
}

export function decodeBlock(data: Uint8Array, count: number): BlockColumns {
  // A count its data does not hold is never believed: it would size the buffer below (a stored
  // count of 10,000,000 over 57 bytes once took every later export's memory).
  if (!Number.isInteger(count) || count < 0 || count * ROW_BYTES > data.byteLength)
    throw new Error(
      `a ledger block says it holds ${count} requests, but its data is ${data.byteLength} bytes (${ROW_BYTES} a request): it is damaged`,
    )
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

/** A sample as stored in a `samples` row: absent values (negative in a block) are null. */
export type BlockSample = [
  seq: number,
  target: number,
  round: number,
  phase: number,
  start: number,
  latency: number,
  corrected: number | null,
  status: number,
  bytes: number,
  error: number,
  app: number | null,
  db: number | null,
  step: number | null,
]

/** Row `i` of a block as the `samples` row its expansion writes (the same rounding and nulls). */
export function blockSample(c: BlockColumns, targetIndex: number, round: number, i: number): BlockSample {
  const corrected = c.correctedUs[i]!
  const app = c.appUs[i]!
  const dbUs = c.dbUs[i]!
  const step = c.step[i]!
  return [
    c.seq[i]!,
    targetIndex,
    round,
    c.phase[i]!,
    Math.round(c.startUs[i]!),
    Math.round(c.latencyUs[i]!),
    corrected < 0 ? null : Math.round(corrected),
    c.status[i]!,
    c.bytes[i]!,
    c.error[i]!,
    app < 0 ? null : Math.round(app),
    dbUs < 0 ? null : Math.round(dbUs),
    step === 255 ? null : step,
  ]
}

/** The inverse of blockSample: a `samples` row into row `i` of a block (null as -1, no step as 255). */
export function putSampleRow(c: BlockColumns, i: number, s: SampleDbRow & { step: number | null }): void {
  c.seq[i] = s.seq
  c.startUs[i] = s.start_us
  c.latencyUs[i] = s.latency_us
  c.correctedUs[i] = s.corrected_us ?? -1
  c.bytes[i] = s.bytes
  c.appUs[i] = s.app_us ?? -1
  c.dbUs[i] = s.db_us ?? -1
  c.status[i] = s.status
  c.error[i] = s.error
  c.phase[i] = s.phase
  c.step[i] = s.step ?? 255
}

export interface StoredBlock {
  id: number
  target_index: number
  round: number
  count: number
  data: Buffer
}

/** The ids of a run's blocks still to expand, oldest first. */
export function blockIds(db: Db, runId: number): number[] {
  return db
    .prepare('SELECT id FROM sample_blocks WHERE run_id = ? ORDER BY id')
    .pluck()
    .all(runId) as number[]
}

/** The run's oldest block still to be written as rows, or undefined when none is left. */
export function firstBlockId(db: Db, runId: number, o: { summarized?: boolean } = {}): number | undefined {
  // `summarized`: only blocks of segments whose summary is written (load.warmup: auto moves a
  // segment's warm-up blocks to its warm-up phase when it writes the summary).
  const sql = o.summarized
    ? `SELECT b.id FROM sample_blocks b JOIN run_targets t
         ON t.run_id = b.run_id AND t.target_index = b.target_index AND t.round = b.round
       WHERE b.run_id = ? AND t.summary IS NOT NULL ORDER BY b.id LIMIT 1`
    : 'SELECT id FROM sample_blocks WHERE run_id = ? ORDER BY id LIMIT 1'
  return db.prepare(sql).pluck().get(runId) as number | undefined
}

/**
 * A run's blocks (optionally of one target and round), decoded one at a time, in the order they
 * were written. Readers of samples read these as well as `samples` rows while a run's blocks are
 * not expanded yet: within one read transaction every request is in exactly one of the two.
 */
export function* runBlocks(
  db: Db,
  runId: number,
  segment?: { targetIndex: number; round: number },
): Generator<{ targetIndex: number; round: number; columns: BlockColumns }> {
  const ids = (
    segment
      ? db
          .prepare(
            'SELECT id FROM sample_blocks WHERE run_id = ? AND target_index = ? AND round = ? ORDER BY id',
          )
          .pluck()
          .all(runId, segment.targetIndex, segment.round)
      : blockIds(db, runId)
  ) as number[]
  const one = db.prepare('SELECT id, target_index, round, count, data FROM sample_blocks WHERE id = ?')
  for (const id of ids) {
    const b = one.get(id) as StoredBlock | undefined
    if (b) yield { targetIndex: b.target_index, round: b.round, columns: decodeBlock(b.data, b.count) }
  }
}

/** Requests of a run still in blocks. */
export function blockRows(db: Db, runId: number): number {
  return db
    .prepare('SELECT coalesce(sum(count), 0) FROM sample_blocks WHERE run_id = ?')
    .pluck()
    .get(runId) as number
}

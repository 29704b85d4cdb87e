// The ledger's block format: the columns of one batch of requests, back to back in one BLOB.
// Written during a run (cheap), expanded into `samples` rows after the run has ended (block-rows.ts,
// in the background: expander.ts; see 006_sample_blocks.sql). Until then readers read both.
import type { Db } from '../db/db.ts'
import { LEDGER, type BlockColumns, type BlockSample, type SampleDbRow } from './derive.ts'

/** Bytes a request takes in a block: its columns back to back (derive.ts, from record.ts). */
export const ROW_BYTES = LEDGER.rowBytes
/** The most requests a block holds: the runner's batch (ledger/columns.ts), and an import's limit. */
export const BLOCK_MAX_ROWS = 4096

export type { BlockColumns, BlockSample }

/** Empty columns for up to `rows` requests (a step of 255: not a scenario step). */
export function newBlockColumns(rows: number): BlockColumns {
  return LEDGER.newColumns(rows)
}

/** Copy the first `count` rows of each column into one buffer (8-byte columns first: aligned). */
export function encodeBlock(c: BlockColumns): Buffer {
  return LEDGER.encode(c)
}

/** Every request of an encoded block moved to phase `phase` (its phase column rewritten in place). */
export function setBlockPhase(data: Buffer, count: number, phase: number): void {
  LEDGER.fillColumn(data, count, 'phase', phase)
}

/**
 * A block's columns. A count its data does not hold is never believed: it would size the buffer
 * (a stored count of 10,000,000 over 57 bytes once took every later export's memory).
 */
export function decodeBlock(data: Uint8Array, count: number): BlockColumns {
  return LEDGER.decode(data, count)
}

/** Row `i` of a block as the `samples` row its expansion writes (the same rounding and nulls). */
export function blockSample(c: BlockColumns, targetIndex: number, round: number, i: number): BlockSample {
  return LEDGER.sample(c, targetIndex, round, i)
}

/** The inverse of blockSample: a `samples` row into row `i` of a block (null as -1, no step as 255). */
export function putSampleRow(c: BlockColumns, i: number, s: SampleDbRow): void {
  LEDGER.putRow(c, i, s)
}

/**
 * Inserting a run's blocks (the runner's writer thread, on the hot path: the statement is
 * prepared once); each insert returns the block's id.
 */
export function blockInserter(
  db: Db,
  runId: number,
): (targetIndex: number, round: number, c: BlockColumns) => number {
  const insert = db.prepare(
    'INSERT INTO sample_blocks (run_id, target_index, round, count, data) VALUES (?, ?, ?, ?, ?)',
  )
  return (targetIndex, round, c) =>
    Number(insert.run(runId, targetIndex, round, c.count, encodeBlock(c)).lastInsertRowid)
}

/**
 * Every request of a run's `blocks` moved to phase `phase` (load.warmup: auto's cut); the count
 * of blocks moved. A block already written as `samples` rows is not there to rewrite: none is
 * while its segment has no summary (firstBlockId), and the count tells a caller.
 */
export function moveBlocksToPhase(db: Db, runId: number, blocks: readonly number[], phase: number): number {
  const read = db.prepare('SELECT count, data FROM sample_blocks WHERE id = ? AND run_id = ?')
  const write = db.prepare('UPDATE sample_blocks SET data = ? WHERE id = ?')
  let moved = 0
  for (const id of blocks) {
    const row = read.get(id, runId) as { count: number; data: Buffer } | undefined
    if (!row) continue
    setBlockPhase(row.data, row.count, phase)
    write.run(row.data, id)
    moved++
  }
  return moved
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

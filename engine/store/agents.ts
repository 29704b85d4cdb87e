// The local database's side of a run made by load agents (engine/agents/): an agent reads its raw
// ledger back as blocks to upload them, and the coordinator stores the blocks it received, so they
// become `samples` rows of the merged run like any run's (ledger/blocks.ts).
import { blockIds, encodeBlock, newBlockColumns, putSampleRow, type BlockColumns } from '../ledger/blocks.ts'
import type { Db } from '../db/db.ts'
import { LEDGER } from '../ledger/derive.ts'
import type { SampleDbRow } from './history-rows.ts'

/** A batch of raw requests of one target and round, in the block encoding of ledger/blocks.ts. */
export interface RawBlock {
  targetIndex: number
  round: number
  count: number
  data: Uint8Array
}

/** A `samples` row with its rowid (the page cursor) and scenario step. */
type SampleTuple = SampleDbRow & { rid: number; step: number | null }

/**
 * A run's requests as blocks: its ledger blocks as they are (an agent that uploads leaves them
 * unexpanded), then its `samples` rows in blocks of at most `rows` requests, one (target, round)
 * per block. Nothing may expand the run meanwhile: each request is read once.
 */
export function* readRawBlocks(db: Db, runId: number, rows = 4096): Generator<RawBlock> {
  const stored = db.prepare('SELECT target_index, round, count, data FROM sample_blocks WHERE id = ?')
  for (const id of blockIds(db, runId)) {
    const b = stored.get(id) as
      { target_index: number; round: number; count: number; data: Buffer } | undefined
    if (b) yield { targetIndex: b.target_index, round: b.round, count: b.count, data: b.data }
  }
  const select = db.prepare(
    `SELECT rowid AS rid, ${LEDGER.sqlColumns.join(', ')}
     FROM samples WHERE run_id = ? AND rowid > ? ORDER BY rowid LIMIT ?`,
  )
  let after = 0
  let c: BlockColumns = newBlockColumns(rows)
  let key: [number, number] | null = null
  const flush = function* (): Generator<RawBlock> {
    if (key && c.count > 0) yield { targetIndex: key[0], round: key[1], count: c.count, data: encodeBlock(c) }
    c = newBlockColumns(rows)
  }
  for (;;) {
    const page = select.all(runId, after, rows) as SampleTuple[]
    if (page.length === 0) break
    for (const s of page) {
      if (!key || key[0] !== s.target_index || key[1] !== s.round || c.count === rows) {
        yield* flush()
        key = [s.target_index, s.round]
      }
      putSampleRow(c, c.count++, s)
    }
    after = page.at(-1)!.rid
  }
  yield* flush()
}

/** Store blocks an agent uploaded for the merged run (expanded into samples by ledger/block-rows.ts). */
export function insertRawBlocks(db: Db, runId: number, blocks: readonly RawBlock[]): number {
  const insert = db.prepare(
    'INSERT INTO sample_blocks (run_id, target_index, round, count, data) VALUES (?, ?, ?, ?, ?)',
  )
  let rows = 0
  db.transaction(() => {
    for (const b of blocks) {
      insert.run(
        runId,
        b.targetIndex,
        b.round,
        b.count,
        Buffer.from(b.data.buffer, b.data.byteOffset, b.data.byteLength),
      )
      rows += b.count
    }
  })()
  return rows
}

// The one writer of `samples` rows: a ledger block becomes its rows, whoever asks. Three callers,
// one entry point (`samplesWriter`): after a run and at start-up for older runs, the engine host's
// background expansion (expander.ts, driven by engine/host/upkeep.ts; `cannonade runs complete`
// and every CLI command's end wait on it, engine/cli/complete.ts); during a run pinned to a CPU,
// the runner's idle-cycles thread (engine/runner/run-rows-thread.ts); and tests and tools that
// want a run's rows now (`writeRun`). How a block's rows are inserted fast: block-rows.ts.
import type { Db } from '../db/db.ts'
import { blockRowWriter } from './block-rows.ts'
import { blockIds, decodeBlock, type StoredBlock } from './blocks.ts'

export interface SamplesWriter {
  /**
   * One block into `samples` rows, in one IMMEDIATE transaction that reads it, inserts its rows
   * and deletes it; the rows written (0: the block is gone, another writer took it).
   */
  writeBlock(blockId: number): number
  /** Every block of a run, one transaction each (memory stays at one block); the rows written. */
  writeRun(runId: number, onProgress?: (rows: number) => void): number
}

/**
 * The writer on one database. An interrupted write leaves every request either in a block or in
 * `samples`, never both, and two processes writing the same run at once (a host in the background,
 * an export) never write a block twice: the second finds it gone.
 */
export function samplesWriter(db: Db): SamplesWriter {
  const rows = blockRowWriter(db)
  const block = db.prepare(
    'SELECT id, run_id, target_index, round, count, data FROM sample_blocks WHERE id = ?',
  )
  const drop = db.prepare('DELETE FROM sample_blocks WHERE id = ?')
  const writeOne = db.transaction((id: number): number => {
    const b = block.get(id) as (StoredBlock & { run_id: number }) | undefined
    if (!b) return 0
    rows.insert(b.run_id, b.target_index, b.round, decodeBlock(b.data, b.count))
    drop.run(b.id)
    return b.count
  })
  const writeBlock = (id: number) => writeOne.immediate(id)
  return {
    writeBlock,
    writeRun(runId, onProgress) {
      let n = 0
      for (const id of blockIds(db, runId)) {
        n += writeBlock(id)
        onProgress?.(n)
      }
      return n
    },
  }
}

// The per-request ledger on the load thread: preallocated typed-array columns (~1 ns per value
// against ~150 ns to allocate and push an object per request, measured on a 2-vCPU Xeon), handed to
// the writer thread by transfer when full or at each second, and handed back for reuse.

import { BLOCK_MAX_ROWS, newBlockColumns, type BlockColumns } from './blocks.ts'
import { LEDGER } from './derive.ts'

/** A block's rows: the most an imported block may hold too (engine/store/ledger-check.ts). */
export const BATCH_ROWS = BLOCK_MAX_ROWS

/** The same columns a ledger block stores: the record's (record.ts). */
export type Columns = BlockColumns

export function newColumns(rows = BATCH_ROWS): Columns {
  return newBlockColumns(rows)
}

export function transferList(c: Columns): ArrayBuffer[] {
  return LEDGER.transferList(c)
}

// Turning a stored run's rows back into ledger blocks, as the runner writes them: tests of every
// reader (and of the commands that write blocks as rows) start from a run whose requests are,
// in part or all, not yet `samples` rows.
import { newColumns } from '../ledger/columns.ts'
import { encodeBlock, putSampleRow } from '../ledger/blocks.ts'
import { openDb, type Db } from '../db/db.ts'
import type { SampleDbRow } from '../store/history-rows.ts'
import { ledgerRowCount } from '../ledger/samples-read.ts'

type Row = SampleDbRow & { step: number | null }

/** Move the run's rows matching `where` into blocks of `size` rows, as the runner writes them. */
export function toBlocks(db: Db, runId: number, where = '1', size = 500): number {
  const rows = db
    .prepare(`SELECT rowid AS id, * FROM samples WHERE run_id = ? AND (${where}) ORDER BY rowid`)
    .all(runId) as (Row & { id: number })[]
  const insert = db.prepare(
    'INSERT INTO sample_blocks (run_id, target_index, round, count, data) VALUES (?, ?, ?, ?, ?)',
  )
  const drop = db.prepare('DELETE FROM samples WHERE rowid = ?')
  db.transaction(() => {
    const groups = new Map<string, (Row & { id: number })[]>()
    for (const r of rows) {
      const key = `${r.target_index}/${r.round}`
      groups.set(key, [...(groups.get(key) ?? []), r])
    }
    for (const group of groups.values()) {
      for (let i = 0; i < group.length; i += size) {
        const part = group.slice(i, i + size)
        const c = newColumns(part.length)
        part.forEach((r, k) => {
          putSampleRow(c, k, r)
          drop.run(r.id)
        })
        c.count = part.length
        insert.run(runId, part[0]!.target_index, part[0]!.round, part.length, encodeBlock(c))
      }
    }
  })()
  return rows.length
}

/** What the file holds for a run: its requests, its rows (and distinct seqs), those still in blocks. */
export function storedLedger(dbPath: string, runId: number) {
  const db = openDb(dbPath, { readonly: true })
  try {
    const one = (sql: string) => db.prepare(sql).pluck().get(runId) as number
    return {
      requests: ledgerRowCount(db, runId),
      rows: one('SELECT count(*) FROM samples WHERE run_id = ?'),
      distinct: one('SELECT count(DISTINCT seq) FROM samples WHERE run_id = ?'),
      inBlocks: one('SELECT coalesce(sum(count), 0) FROM sample_blocks WHERE run_id = ?'),
    }
  } finally {
    db.close()
  }
}

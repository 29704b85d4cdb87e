// The raw ledger's size and its retention. At ~56 bytes a request, 50 000 req/s is ~10 GB an
// hour: a user sees each run's ledger size, can drop a run's raw samples, and can
// set a retention after which old runs keep only their summaries, series and histograms.
import { ApiError } from '../api/errors.ts'
import type { LedgerInfo } from '../api/types.ts'
import { blockRows } from '../ledger/blocks.ts'
import type { Db } from '../db/db.ts'
import { keptElsewhere, runDistribution } from './ledger-elsewhere.ts'
import { ledgerRowCount } from '../ledger/samples-read.ts'

/** Bytes per stored request, samples row plus its (run_id, seq) index entry, measured on 1 M rows. */
export const BYTES_PER_SAMPLE = 56

export type { LedgerInfo }

/** Count a finished run's samples once and keep the figure (counting 18 M rows takes a while). */
export function recordLedgerRows(db: Db, runId: number): number {
  const rows = ledgerRowCount(db, runId)
  db.prepare('UPDATE runs SET ledger_rows = ? WHERE id = ?').run(rows, runId)
  return rows
}

export function ledgerInfo(db: Db, runId: number): LedgerInfo {
  const row = db.prepare('SELECT ledger_rows, ledger_pruned_at, status FROM runs WHERE id = ?').get(runId) as
    { ledger_rows: number | null; ledger_pruned_at: string | null; status: string } | undefined
  if (!row) throw new ApiError('not-found', `run ${runId} does not exist`)
  // A read-only database (opened so, engine/db/db.ts) is counted, not written to.
  const count = () => (db.readonly ? ledgerRowCount(db, runId) : recordLedgerRows(db, runId))
  const rows = row.ledger_pruned_at ? 0 : (row.ledger_rows ?? (row.status === 'running' ? 0 : count()))
  return {
    rows,
    bytes: rows * BYTES_PER_SAMPLE,
    prunedAt: row.ledger_pruned_at,
    // Still in blocks: the run ended moments ago, or a command was stopped while writing them.
    pending: row.ledger_pruned_at || row.status === 'running' ? 0 : blockRows(db, runId),
    elsewhere: row.ledger_pruned_at ? null : keptElsewhere(runId, runDistribution(db, runId)),
  }
}

/** Drop a run's raw samples; its summaries, series, histograms and resources stay. */
export function pruneLedger(db: Db, runId: number): LedgerInfo {
  db.transaction(() => {
    // Checked inside the transaction: a run cannot start being written between check and delete.
    const row = db.prepare('SELECT status FROM runs WHERE id = ?').get(runId) as
      { status: string } | undefined
    if (!row) throw new ApiError('not-found', `run ${runId} does not exist`)
    if (row.status === 'running') throw new ApiError('conflict', `run ${runId} is still running`)
    db.prepare('DELETE FROM samples WHERE run_id = ?').run(runId)
    db.prepare('DELETE FROM sample_blocks WHERE run_id = ?').run(runId)
    db.prepare('UPDATE runs SET ledger_pruned_at = ? WHERE id = ?').run(new Date().toISOString(), runId)
  }).immediate()
  return ledgerInfo(db, runId)
}

/** Prune the raw samples of finished runs that started more than `days` days ago. */
export function applyRetention(db: Db, days: number, now = Date.now()): number[] {
  const before = new Date(now - days * 86_400_000).toISOString()
  const ids = db
    .prepare("SELECT id FROM runs WHERE started_at < ? AND status != 'running' AND ledger_pruned_at IS NULL")
    .pluck()
    .all(before) as number[]
  for (const id of ids) pruneLedger(db, id)
  return ids
}

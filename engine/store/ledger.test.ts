import { describe, expect, it } from 'vitest'
import { toBlocks } from '../testing/blocks.ts'
import { insertFixtureRun } from '../testing/fixtures.ts'
import { openDb } from '../db/db.ts'
import { samplesWriter } from '../ledger/samples-writer.ts'
import { blockIds } from '../ledger/blocks.ts'
import { HistoryStore } from './history-store.ts'
import { applyRetention, BYTES_PER_SAMPLE, ledgerInfo, pruneLedger } from './retention.ts'

describe('the raw ledger', () => {
  it('reports its size, prunes a run to its summaries, and applies a retention in days', () => {
    const db = openDb(':memory:')
    const { runId } = insertFixtureRun(db, { samplesPerRound: 1000 })
    const { runId: other } = insertFixtureRun(db, { samplesPerRound: 500 })
    const rows = db.prepare('SELECT count(*) FROM samples WHERE run_id = ?').pluck().get(runId) as number
    expect(ledgerInfo(db, runId)).toEqual({
      rows,
      bytes: rows * BYTES_PER_SAMPLE,
      prunedAt: null,
      pending: 0,
      elsewhere: null,
    })
    const before = new HistoryStore(db).getRun(runId)
    const after = pruneLedger(db, runId)
    expect(after.rows).toBe(0)
    expect(after.prunedAt).not.toBeNull()
    expect(db.prepare('SELECT count(*) FROM samples WHERE run_id = ?').pluck().get(runId)).toBe(0)
    // Summaries, histograms and series stay: the run still compares and plots.
    const kept = new HistoryStore(db).getRun(runId)
    expect(kept.results).toEqual(before.results)
    expect(new HistoryStore(db).series(runId).length).toBeGreaterThan(0)
    // Retention: runs older than N days lose their raw samples, newer ones keep them.
    db.prepare("UPDATE runs SET started_at = '2020-01-01T00:00:00.000Z' WHERE id = ?").run(other)
    expect(applyRetention(db, 30)).toEqual([other])
    expect(ledgerInfo(db, other).rows).toBe(0)
    expect(applyRetention(db, 30)).toEqual([])
  })

  it('says how many requests are still being written as rows (the run page shows it until 0)', () => {
    const db = openDb(':memory:')
    const { runId } = insertFixtureRun(db, { samplesPerRound: 1000 })
    const all = ledgerInfo(db, runId).rows
    // The later half of each round in blocks, as a run leaves them at its window's end.
    const moved = toBlocks(db, runId, 'seq % 2 = 1', 100)
    expect(moved).toBeGreaterThan(0)
    expect(ledgerInfo(db, runId)).toMatchObject({ rows: all, pending: moved })
    const expand = samplesWriter(db)
    const [first, ...rest] = blockIds(db, runId)
    expand.writeBlock(first!)
    expect(ledgerInfo(db, runId)).toMatchObject({ rows: all, pending: moved - 100 })
    for (const id of rest) expand.writeBlock(id)
    expect(ledgerInfo(db, runId)).toMatchObject({ rows: all, pending: 0 })
  })
})

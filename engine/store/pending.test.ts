// A run reads `done` at once and its ledger blocks become rows afterwards (issue 12, item 9): every
// reader must be right while that expansion is pending. A run's rows are turned back into blocks
// (part of them, or all), and each reader's answer is compared with its answer on rows alone: the
// samples explorer (every filter, order and page), counts, summaries rebuilt from the ledger, the
// CSV and JSON exports, prune and delete; and during a background expansion, block by block.
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { exportCsv, exportJson } from '../exports/index.ts'
import { openDb, type Db } from '../db/db.ts'
import { LedgerExpander } from '../ledger/expander.ts'
import { insertFixtureRun } from '../testing/fixtures.ts'
import { toBlocks } from '../testing/blocks.ts'
import { pruneLedger } from './retention.ts'
import { HistoryStore, type SampleQuery } from './history-store.ts'
import { summarizeMissingSegments } from './runs.ts'
import { ledgerRowCount } from '../ledger/samples-read.ts'
import { waitUntil } from '../testing/process.ts'

function fixture(): { db: Db; runId: number; prefix: string } {
  const db = openDb(':memory:')
  const { runId, prefix } = insertFixtureRun(db, { samplesPerRound: 1500, rounds: 2, seed: 7 })
  // A slow tail, so that "slowest" has real ties and orders by seq among them.
  db.prepare('UPDATE samples SET latency_us = 99999 WHERE run_id = ? AND seq % 97 = 0').run(runId)
  return { db, runId, prefix }
}

const splits: { name: string; where: string }[] = [
  { name: 'every request still in blocks', where: '1' },
  { name: 'the later half in blocks', where: 'seq >= 3000' },
  { name: 'scattered: every third request in blocks', where: 'seq % 3 = 0' },
  { name: 'one target in blocks', where: 'target_index = 1' },
]

function queries(prefix: string): SampleQuery[] {
  return [
    {},
    { limit: 10_000 },
    { order: 'slowest', limit: 50 },
    { order: 'slowest', limit: 25, offset: 40 },
    { errorsOnly: true, limit: 500 },
    { errorsOnly: true, order: 'slowest', limit: 7, offset: 3 },
    { target: 'node-http', limit: 30, offset: 1000 },
    { target: 'java-jetty', order: 'slowest', errorsOnly: true },
    { correlationId: `${prefix}-${String(42).padStart(10, '0')}` },
    { correlationId: `${prefix}-3001` },
    { correlationId: `${prefix}-99999999` },
    { correlationId: 'ffffffff-0000000001' },
    { offset: 5990, limit: 100 },
  ]
}

describe('readers while a run has requests in ledger blocks', () => {
  for (const split of splits) {
    it(`${split.name}: the samples explorer, counts and summaries answer as on rows`, async () => {
      const { db, runId, prefix } = fixture()
      const store = new HistoryStore(db)
      const before = queries(prefix).map((q) => store.samples(runId, q))
      const count = ledgerRowCount(db, runId)
      db.prepare('UPDATE run_targets SET summary = NULL WHERE run_id = ?').run(runId)
      await summarizeMissingSegments(db, runId)
      const summaries = store.getRun(runId).results
      db.prepare('UPDATE run_targets SET summary = NULL WHERE run_id = ?').run(runId)

      expect(toBlocks(db, runId, split.where)).toBeGreaterThan(0)
      queries(prefix).forEach((q, i) => expect(store.samples(runId, q), JSON.stringify(q)).toEqual(before[i]))
      expect(ledgerRowCount(db, runId)).toBe(count)
      await summarizeMissingSegments(db, runId)
      expect(store.getRun(runId).results).toEqual(summaries)
    })

    it(`${split.name}: CSV and JSON exports hold every request once`, async () => {
      const { db, runId } = fixture()
      const dir = mkdtempSync(join(tmpdir(), 'cannonade-pending-'))
      const lines = async (name: string) => {
        const out = join(dir, name)
        await exportCsv(db, runId, { kind: 'samples' }, out)
        return readFileSync(out, 'utf8').trimEnd().split('\n')
      }
      const rowsCsv = await lines('rows.csv')
      const rowsJson = await exportJson(db, [runId], join(dir, 'rows.json'))
      toBlocks(db, runId, split.where)
      const blocksCsv = await lines('blocks.csv')
      expect(blocksCsv[0]).toBe(rowsCsv[0])
      expect(blocksCsv.slice(1).sort()).toEqual(rowsCsv.slice(1).sort())
      expect((await exportJson(db, [runId], join(dir, 'blocks.json'))).rows).toBe(rowsJson.rows)
    })
  }

  it('prune and delete remove requests in blocks with those in rows', () => {
    const { db, runId } = fixture()
    const other = insertFixtureRun(db, { seed: 9 })
    toBlocks(db, runId, 'seq % 2 = 0')
    toBlocks(db, other.runId, 'seq % 2 = 1')
    expect(pruneLedger(db, runId).rows).toBe(0)
    expect(ledgerRowCount(db, runId)).toBe(0)
    expect(new HistoryStore(db).samples(runId).total).toBe(0)
    new HistoryStore(db).deleteRun(other.runId)
    expect(db.prepare('SELECT count(*) FROM sample_blocks').pluck().get()).toBe(0)
    expect(db.prepare('SELECT count(*) FROM samples').pluck().get()).toBe(0)
  })

  it('a background expansion turns blocks into rows one at a time, readers agreeing at every step', async () => {
    const { db, runId, prefix } = fixture()
    const store = new HistoryStore(db)
    const before = queries(prefix).map((q) => store.samples(runId, q))
    const blocks = toBlocks(db, runId, '1', 250)
    let busy = true
    let asked = 0
    const expander = new LedgerExpander(db, {
      busy: () => {
        asked++
        return busy
      },
      pollMs: 10,
    })
    expander.kick()
    // Paused while a run is measuring: asked twice (it looked, waited its poll and looked again),
    // it expanded nothing.
    await waitUntil(() => asked >= 2, 10_000, 'the expander to ask twice whether a run is measuring')
    expect(db.prepare('SELECT count(*) FROM samples WHERE run_id = ?').pluck().get(runId)).toBe(0)
    busy = false
    let checks = 0
    while (db.prepare('SELECT count(*) FROM sample_blocks').pluck().get() !== 0) {
      queries(prefix).forEach((q, i) => expect(store.samples(runId, q)).toEqual(before[i]))
      checks++
      await new Promise((r) => setImmediate(r))
    }
    await expander.idle()
    expect(checks).toBeGreaterThan(1)
    expect(db.prepare('SELECT count(*) FROM samples WHERE run_id = ?').pluck().get(runId)).toBe(blocks)
    queries(prefix).forEach((q, i) => expect(store.samples(runId, q)).toEqual(before[i]))
  })

  it('a database closed under a background expansion stops it quietly; the rest stays in blocks for the next opener', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'cannonade-expander-')), 'history.db')
    const db = openDb(path)
    const { runId } = insertFixtureRun(db, { samplesPerRound: 1500, rounds: 2, seed: 7 })
    const total = toBlocks(db, runId, '1', 250)
    // A few blocks in, the owner closes the database (as a CLI command that exits does): the
    // expander asks whether a run is measuring before each block; the close comes in the turn
    // after the one it asked for the fourth time.
    let asked = 0
    let closed = () => {}
    const closing = new Promise<void>((resolve) => (closed = resolve))
    const expander = new LedgerExpander(db, {
      busy: () => {
        if (++asked === 4)
          setImmediate(() => {
            db.close()
            closed()
          })
        return false
      },
    })
    let failed: Error | null = null
    expander.kick()
    await closing
    await expect(expander.idle()).resolves.toBeUndefined()
    const again = openDb(path)
    const rows = again.prepare('SELECT count(*) FROM samples WHERE run_id = ?').pluck().get(runId) as number
    const inBlocks = again
      .prepare('SELECT coalesce(sum(count), 0) FROM sample_blocks WHERE run_id = ?')
      .pluck()
      .get(runId) as number
    expect(rows).toBeGreaterThan(0)
    expect(inBlocks).toBeGreaterThan(0)
    expect(rows + inBlocks).toBe(total)
    const next = new LedgerExpander(again, { onError: (_id, err) => (failed = err) })
    next.kick()
    await next.idle()
    expect(failed).toBeNull()
    expect(again.prepare('SELECT count(*) FROM samples WHERE run_id = ?').pluck().get(runId)).toBe(total)
    again.close()
  })
})

// A measuring run's blocks become rows on the generator's idle cycles (run-rows.ts): a thread
// pinned to the generator's CPU at the idle class writes each stored block as rows, once, and
// stops when told; on a disk short of room it writes nothing and
// the blocks stay, readable, for the expansion after the run. Fixtures: a stored run whose rows
// are put back into blocks and marked as still running.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { storedLedger, toBlocks } from '../testing/blocks.ts'
import { insertFixtureRun } from '../testing/fixtures.ts'
import { idleThreads, waitUntil } from '../testing/process.ts'
import { openDb } from '../db/db.ts'
import { runRowsEnabled, startRunRows } from './run-rows.ts'

const dir = mkdtempSync(join(tmpdir(), 'cannonade-run-rows-'))

function runningRun(name: string, rows: number): { dbPath: string; runId: number } {
  const dbPath = join(dir, `${name}.db`)
  const db = openDb(dbPath)
  const { runId } = insertFixtureRun(db, { samplesPerRound: rows / 2, seed: 7 })
  expect(toBlocks(db, runId, '1', 1000)).toBe(rows)
  db.prepare("UPDATE runs SET status = 'running' WHERE id = ?").run(runId)
  db.close()
  return { dbPath, runId }
}

const stored = storedLedger

const enabled = runRowsEnabled()
if (!enabled)
  console.warn(
    `skipping the rows thread's tests: it runs on Linux with CANNONADE_RUN_ROWS other than 0 (here ${process.platform}, CANNONADE_RUN_ROWS=${process.env.CANNONADE_RUN_ROWS ?? 'unset'})`,
  )

describe.runIf(enabled)('rows while a run measures', () => {
  it('a thread on CPU 0 at the idle class writes every stored block as rows, once, and stops when told', async () => {
    const { dbPath, runId } = runningRun('all', 20_000)
    expect(idleThreads('self')).toEqual([])
    // A test stage busy on CPU 0 leaves an idle-class thread little: no block counts as starved
    // here, and the waits are long (they end as soon as the thread is done).
    const during = startRunRows(dbPath, runId, 0, { minFreeBytes: 0, idleMs: 20, starvedMs: 60_000 })
    const [thread] = await waitUntil(
      () => idleThreads('self').length === 1 && idleThreads('self'),
      30_000,
      'the idle thread',
    )
    expect(thread!.cpus).toBe('0')
    await waitUntil(() => stored(dbPath, runId).inBlocks === 0, 60_000, 'every block written as rows')
    // Its report of the last block follows the block's commit.
    await waitUntil(() => during.rows === 20_000, 10_000, 'the report of every row')
    expect(await during.stop()).toEqual({ rows: 20_000, why: null })
    expect(stored(dbPath, runId)).toEqual({ requests: 20_000, rows: 20_000, distinct: 20_000, inBlocks: 0 })
    expect(idleThreads('self')).toEqual([])
  }, 120_000)

  it('on a disk short of room it writes nothing: the blocks stay for after the run', async () => {
    const { dbPath, runId } = runningRun('full', 2000)
    const during = startRunRows(dbPath, runId, 0, { minFreeBytes: Number.MAX_SAFE_INTEGER, idleMs: 20 })
    // It found a block and the disk short of room for it, and said so.
    const held = await waitUntil(() => during.held ?? false, 30_000, 'the thread to hold its rows back')
    expect(held).toMatch(/^\d+ bytes free on the database's disk, under \d+$/)
    expect(idleThreads('self')).toHaveLength(1)
    expect(await during.stop()).toEqual({ rows: 0, why: null })
    expect(stored(dbPath, runId)).toEqual({ requests: 2000, rows: 0, distinct: 0, inBlocks: 2000 })
  }, 60_000)

  it('with no idle CPU (a block slower than starvedMs) it ends after that block, and the rest waits', async () => {
    const { dbPath, runId } = runningRun('starved', 5000)
    const during = startRunRows(dbPath, runId, 0, { minFreeBytes: 0, idleMs: 20, starvedMs: 0 })
    await waitUntil(() => idleThreads('self').length === 0 && during.rows > 0, 60_000, 'the thread to end')
    const ended = await during.stop()
    expect(ended.why).toMatch(/^no idle CPU \(a block took \d+ ms\)$/)
    // One block of 1,000 written, the rest left in blocks.
    expect(stored(dbPath, runId)).toEqual({ requests: 5000, rows: 1000, distinct: 1000, inBlocks: 4000 })
  }, 120_000)

  it('a database it cannot open: it ends and says why', async () => {
    const file = join(dir, 'a-file')
    writeFileSync(file, '')
    const during = startRunRows(join(file, 'c.db'), 1, 0, { minFreeBytes: 0 })
    const ended = await during.stop()
    expect(ended.rows).toBe(0)
    expect(ended.why).toContain(join(file, 'c.db'))
  }, 60_000)
})

// Any command that opens a database with unfinished rows completes them or says it has not (issue
// 19, item 1): a Ctrl-C while rows are written leaves the rest readable and names the command that
// finishes the job; a run measuring on the database, or a database this user cannot write, holds
// them back and the command says so; `cannonade runs complete` (like any command) then writes them.
// Fixtures: a stored run whose requests are put back into ledger blocks, as a run leaves them.
import { chmodSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createEngine } from '../host/index.ts'
import { openDb } from '../db/db.ts'
import { thisProcess } from '../store/owner.ts'
import { storedLedger, toBlocks } from '../testing/blocks.ts'
import { capturedCli } from '../testing/cli.ts'
import { insertFixtureRun } from '../testing/fixtures.ts'
import { completeLedger } from './complete.ts'
import { runsCommand } from './runs.ts'

const dir = mkdtempSync(join(tmpdir(), 'cannonade-complete-'))

/** A database with one ended run of `rows` requests, all in blocks of 100. */
function pendingRun(name: string, rows: number): { dbPath: string; runId: number } {
  const dbPath = join(dir, `${name}.db`)
  const db = openDb(dbPath)
  const { runId } = insertFixtureRun(db, { samplesPerRound: rows / 2, seed: 19 })
  expect(toBlocks(db, runId, '1', 100)).toBe(rows)
  db.close()
  return { dbPath, runId }
}

const stored = storedLedger

describe('unfinished rows: completed, or said', () => {
  it('Ctrl-C while rows are written leaves the rest readable, and `runs complete` writes them', async () => {
    const { dbPath, runId } = pendingRun('interrupted', 10_000)
    const { ctx, err } = capturedCli(dbPath)
    const host = await createEngine({ dbPath })
    const left = completeLedger(host, ctx)
    process.emit('SIGINT')
    expect(await left).toBeGreaterThan(0)
    await host.close()
    expect(err()).toMatch(
      new RegExp(
        `^cannonade: [\\d,]+ requests of run ${runId} are not yet samples rows \\(stopped \\(Ctrl-C\\)\\)`,
      ),
    )
    expect(err()).toContain('`cannonade runs complete`')
    // Nothing lost, nothing twice: each request is a row or in a block, and Cannonade reads both.
    const half = stored(dbPath, runId)
    expect(half.requests).toBe(10_000)
    expect(half.inBlocks).toBeGreaterThan(0)
    expect(half.rows + half.inBlocks).toBe(10_000)
    expect(half.distinct).toBe(half.rows)

    const next = capturedCli(dbPath)
    expect(await runsCommand(['complete'], next.ctx)).toBe(0)
    expect(next.err()).toMatch(
      new RegExp(`^wrote [\\d,]+ requests of run ${runId} as samples rows in [\\d.]+ s\\n$`),
    )
    expect(stored(dbPath, runId)).toEqual({
      requests: 10_000,
      rows: 10_000,
      distinct: 10_000,
      inBlocks: 0,
    })
    // Nothing left: said so.
    const again = capturedCli(dbPath)
    expect(await runsCommand(['complete'], again.ctx)).toBe(0)
    expect(again.out()).toBe("every ended run's requests are samples rows\n")
  }, 60_000)

  it('on a terminal, a line rewritten in place counts the rows written, and is cleared at the end', async () => {
    const { dbPath, runId } = pendingRun('progress', 20_000)
    const captured = capturedCli(dbPath)
    const host = await createEngine({ dbPath })
    // The host writes rows in the background from its start: the command writes what is left.
    const pending = host.local.ledgerPending().reduce((n, p) => n + p.rows, 0)
    expect(pending).toBeGreaterThan(0)
    expect(await completeLedger(host, { ...captured.ctx, isTTY: true })).toBe(0)
    await host.close()
    const all = pending.toLocaleString('en-US')
    // Every update rewrites the line (carriage return, erase), then the line is erased for the result.
    const updates = captured.err().split('\r\x1b[2K')
    expect(updates[0]).toBe('')
    expect(updates.at(-1)).toMatch(
      new RegExp(`^wrote ${all} requests of run ${runId} as samples rows in [\\d.]+ s\\n$`),
    )
    const lines = updates.slice(1, -1)
    expect(lines[0]).toBe(`writing samples rows: 0 of ${all} requests (0 %, 0/s)`)
    let before = -1
    for (const l of lines) {
      const m = new RegExp(
        `^writing samples rows: ([\\d,]+) of ${all} requests \\((\\d+) %, [\\d,]+/s\\)$`,
      ).exec(l)
      expect(m, l).not.toBeNull()
      const n = Number(m![1]!.replace(/,/g, ''))
      expect(n).toBeGreaterThanOrEqual(before)
      expect(Number(m![2])).toBe(Math.floor((100 * n) / pending))
      before = n
    }
    expect(stored(dbPath, runId)).toMatchObject({ rows: 20_000, inBlocks: 0 })
    // Not a terminal: no line, only the result.
    const { dbPath: plainDb } = pendingRun('plain', 5000)
    const plain = capturedCli(plainDb)
    const plainHost = await createEngine({ dbPath: plainDb })
    // The host writes rows in the background from its start: the command writes what is left.
    const left = plainHost.local.ledgerPending().reduce((n, p) => n + p.rows, 0)
    expect(left).toBeGreaterThan(0)
    expect(await completeLedger(plainHost, plain.ctx)).toBe(0)
    await plainHost.close()
    expect(plain.err()).toMatch(
      new RegExp(
        `^wrote ${left.toLocaleString('en-US')} requests of run \\d+ as samples rows in [\\d.]+ s\\n$`,
      ),
    )
  }, 60_000)

  it('a run measuring on the database holds them back: the command says so, and a later one writes them', async () => {
    const { dbPath, runId } = pendingRun('held', 2000)
    // Another run going on this database (its owner alive: this process).
    const db = openDb(dbPath)
    const { runId: live } = insertFixtureRun(db, { samplesPerRound: 10, seed: 3 })
    const me = thisProcess()
    db.prepare("UPDATE runs SET status = 'running', owner_pid = ?, owner_start = ? WHERE id = ?").run(
      me.pid,
      me.start,
      live,
    )
    db.close()
    const held = capturedCli(dbPath)
    expect(await runsCommand(['list'], held.ctx)).toBe(0)
    expect(held.err()).toContain(
      `cannonade: 2,000 requests of run ${runId} are not yet samples rows (run ${live} is measuring on this database (writing rows now would take the load generator's CPU))`,
    )
    expect(stored(dbPath, runId)).toMatchObject({ requests: 2000, rows: 0, inBlocks: 2000 })

    const ended = openDb(dbPath)
    ended.prepare("UPDATE runs SET status = 'done' WHERE id = ?").run(live)
    ended.close()
    const later = capturedCli(dbPath)
    expect(await runsCommand(['list'], later.ctx)).toBe(0)
    expect(later.err()).toMatch(new RegExp(`^wrote [\\d,]+ requests of run ${runId} as samples rows`))
    expect(stored(dbPath, runId)).toMatchObject({ rows: 2000, inBlocks: 0 })
  }, 60_000)

  it('a database this user cannot write: read as it is, and said so', async () => {
    const { dbPath, runId } = pendingRun('readonly', 1000)
    chmodSync(dbPath, 0o444)
    const { ctx, out, err } = capturedCli(dbPath)
    expect(await runsCommand(['show', String(runId)], ctx)).toBe(0)
    // Every request is read (the show counts them), none is written.
    expect(out()).toContain('raw samples: 1,000 requests')
    expect(out()).toContain('1,000 of them were still in ledger blocks, not yet samples rows')
    expect(err()).toContain(
      `cannonade: 1,000 requests of run ${runId} are not yet samples rows (the database is read-only here)`,
    )
    expect(stored(dbPath, runId)).toMatchObject({ rows: 0, inBlocks: 1000 })
  }, 60_000)
})

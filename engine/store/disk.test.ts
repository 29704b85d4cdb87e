// A run's end that a full disk could not take (issue 29, item 16): it is kept in the reserve file's
// own blocks, and whatever opens the database next ends the run failed for that reason, not
// aborted as if its process had been killed; a note of another run changes nothing.
import { statSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { insertFixtureRun } from '../testing/fixtures.ts'
import { tempDbPath } from '../testing/run-config.ts'
import { openDb } from '../db/db.ts'
import {
  clearEndNote,
  ensureReserve,
  readEndNote,
  releaseReserve,
  reservePath,
  RESERVE_BYTES,
} from './disk.ts'
import { thisProcess } from './owner.ts'
import { recoverOrphanedRuns } from './recover.ts'

const FULL = 'the disk holding /x is full (disk full, SQLITE_FULL)'

/** A running run whose process is gone (a pid no process has). */
function orphan(dbPath: string): { db: ReturnType<typeof openDb>; runId: number } {
  const db = openDb(dbPath)
  const { runId } = insertFixtureRun(db, { status: 'running', samplesPerRound: 20 })
  db.prepare('UPDATE runs SET owner_pid = 999999999, owner_start = NULL, worker_pid = NULL WHERE id = ?').run(
    runId,
  )
  return { db, runId }
}

describe('the end of a run the disk could not take', () => {
  it('is written over the reserve’s own bytes, the rest given back', () => {
    const dbPath = tempDbPath()
    ensureReserve(dbPath)
    expect(statSync(reservePath(dbPath)).size).toBe(RESERVE_BYTES)
    releaseReserve(dbPath, { runId: 3, error: FULL })
    expect(statSync(reservePath(dbPath)).size).toBeLessThan(1024)
    expect(readEndNote(dbPath)).toEqual({ runId: 3, error: FULL })
    clearEndNote(dbPath)
    expect(readEndNote(dbPath)).toBeNull()
  })

  it('ends its run failed, for the disk, when the database is next opened', async () => {
    const dbPath = tempDbPath()
    const { db, runId } = orphan(dbPath)
    ensureReserve(dbPath)
    releaseReserve(dbPath, { runId, error: FULL })
    const { recovered } = await recoverOrphanedRuns(db, thisProcess())
    expect(recovered.map((r) => r.runId)).toEqual([runId])
    const row = db.prepare('SELECT status, error FROM runs WHERE id = ?').get(runId) as {
      status: string
      error: string
    }
    expect(row.status).toBe('failed')
    expect(row.error).toMatch(
      /^the disk holding \/x is full .*requests stored before were kept \(the end written by process \d+ once the disk had room\)$/,
    )
    expect(readEndNote(dbPath)).toBeNull()
    db.close()
  })

  it('a note of another run: a dead process’s run is aborted as before, the note kept', async () => {
    const dbPath = tempDbPath()
    const { db, runId } = orphan(dbPath)
    ensureReserve(dbPath)
    releaseReserve(dbPath, { runId: runId + 1, error: FULL })
    await recoverOrphanedRuns(db, thisProcess())
    expect(db.prepare('SELECT status FROM runs WHERE id = ?').pluck().get(runId)).toBe('aborted')
    expect(readEndNote(dbPath)?.runId).toBe(runId + 1)
    db.close()
  })

  it('without a reserve, or one that is no note, nothing is read', () => {
    const dbPath = tempDbPath()
    expect(readEndNote(dbPath)).toBeNull()
    ensureReserve(dbPath)
    expect(readEndNote(dbPath)).toBeNull()
    releaseReserve(dbPath)
    expect(readEndNote(dbPath)).toBeNull()
  })
})

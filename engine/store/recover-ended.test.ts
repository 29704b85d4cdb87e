// Issue 20, item 8: a run whose process was killed ends, once recovered, at its last stored second
// (series `t` counts seconds since the run's start), not at the time a later open found it.
import { describe, expect, it } from 'vitest'
import { openDb } from '../db/db.ts'
import { recoverOrphanedRuns } from './recover.ts'
import { insertFixtureRun } from '../testing/fixtures.ts'

describe('a recovered run ends at its last stored second', () => {
  // Found 2 h after it started: its stored seconds decide when it ended, not the finding.
  const STARTED = new Date(Date.now() - 2 * 3600_000).toISOString()

  it.each([
    ['its seconds as stored', null],
    ['8 seconds stored', 7],
    ['one second stored', 0],
  ] as const)('%s', async (_what, keepUpTo) => {
    const db = openDb(':memory:')
    try {
      const { runId } = insertFixtureRun(db, { status: 'running', startedAt: STARTED })
      if (keepUpTo !== null) db.prepare('DELETE FROM series WHERE run_id = ? AND t > ?').run(runId, keepUpTo)
      const lastT = db.prepare('SELECT max(t) FROM series WHERE run_id = ?').pluck().get(runId) as number
      // Its owner and runner are gone (a pid that is no process).
      db.prepare('UPDATE runs SET owner_pid = ?, owner_start = ?, worker_pid = NULL WHERE id = ?').run(
        999_999_999,
        'gone',
        runId,
      )
      const { recovered } = await recoverOrphanedRuns(db, { pid: 999_999, start: 'the-opener' })
      expect(recovered.map((r) => r.runId)).toEqual([runId])
      const row = db.prepare('SELECT started_at, ended_at FROM runs WHERE id = ?').get(runId) as {
        started_at: string
        ended_at: string
      }
      const seconds = (Date.parse(row.ended_at) - Date.parse(row.started_at)) / 1000
      expect(seconds).toBe(lastT + 1)
    } finally {
      db.close()
    }
  })

  it('a run that stored no second ends at its start', async () => {
    const db = openDb(':memory:')
    try {
      const { runId } = insertFixtureRun(db, { status: 'running', startedAt: STARTED })
      db.prepare('DELETE FROM series WHERE run_id = ?').run(runId)
      db.prepare('UPDATE runs SET owner_pid = ?, owner_start = ?, worker_pid = NULL WHERE id = ?').run(
        999_999_999,
        'gone',
        runId,
      )
      await recoverOrphanedRuns(db, { pid: 999_999, start: 'the-opener' })
      const row = db.prepare('SELECT started_at, ended_at FROM runs WHERE id = ?').get(runId) as {
        started_at: string
        ended_at: string
      }
      expect(Date.parse(row.ended_at)).toBe(Date.parse(row.started_at))
    } finally {
      db.close()
    }
  })
})

// A run's warnings are bounded where they are stored (issue 29, item 9): a monitor quoting a 5 MB
// error page, a field or target name of a megabyte, and a message that changes every second keep
// the run's warnings short and few.
import { describe, expect, it } from 'vitest'
import { insertFixtureRun } from '../testing/fixtures.ts'
import { tempDbPath } from '../testing/run-config.ts'
import { openDb } from '../db/db.ts'
import { MAX_WARNING_CHARS, MAX_WARNINGS, runWarnings, warningWriter } from './warnings.ts'

const warning = (message: string, field = 'targets.0.monitor', target = 't') => ({
  kind: 'monitor' as const,
  field,
  target,
  source: 'prometheus',
  message,
  stopped: false,
})

describe('run warnings stay bounded', () => {
  it('a 5 MB message is cut; a 1 MB field or target too; a repeat is counted, not stored again', () => {
    const db = openDb(tempDbPath())
    const { runId } = insertFixtureRun(db, { samplesPerRound: 1 })
    const w = warningWriter(db, runId)
    const long = 'e'.repeat(5 << 20)
    expect(w.record(warning(long))?.message.length).toBe(MAX_WARNING_CHARS)
    expect(w.record(warning(long))).toBeNull()
    const odd = w.record(warning('m', 'f'.repeat(1 << 20), 'x'.repeat(1 << 20)))
    expect([odd?.field.length, odd?.target.length]).toEqual([200, 200])
    const stored = runWarnings(db, runId)
    expect(stored.map((s) => [s.message.length, s.count])).toEqual([
      [MAX_WARNING_CHARS, 2],
      [1, 1],
    ])
    db.close()
  })

  it(`a message that changes every second: at most ${MAX_WARNINGS} kept`, () => {
    const db = openDb(tempDbPath())
    const { runId } = insertFixtureRun(db, { samplesPerRound: 1 })
    const w = warningWriter(db, runId)
    for (let i = 0; i < 500; i++) w.record(warning(`timeout after ${i} s`))
    expect(runWarnings(db, runId).length).toBe(MAX_WARNINGS)
    db.close()
  })
})

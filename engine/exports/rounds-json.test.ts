// A run's rounds travel with it (issue 27): `export json` then `import json` keeps each segment's
// place in the order it ran, the noise each round ran in (disturbed and repeated included) and how
// its rounds ended, so the imported run reads the same on every screen; a file from before them
// imports with none.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openDb } from '../db/db.ts'
import { HistoryStore } from '../store/history-store.ts'
import { setRoundsStop, setSegmentNoise } from '../store/rounds.ts'
import { insertFixtureRun } from '../testing/fixtures.ts'
import { busyNoise } from '../testing/stats-block.ts'
import { importJson } from './json-import.ts'
import { exportJson } from './json.ts'

describe('export json and import json keep a run’s rounds', () => {
  it('its order, its noise and how its rounds ended', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cannonade-rounds-json-'))
    const src = openDb(join(dir, 'src.db'))
    const { runId } = insertFixtureRun(src, { rounds: 3, samplesPerRound: 50, schedule: 'randomized' })
    // Round 2 ran B before A, and the host disturbed it.
    src
      .prepare('UPDATE run_targets SET segment = ? WHERE run_id = ? AND target_index = ? AND round = ?')
      .run(3, runId, 0, 2)
    src
      .prepare('UPDATE run_targets SET segment = ? WHERE run_id = ? AND target_index = ? AND round = ?')
      .run(2, runId, 1, 2)
    const busy = busyNoise()
    setSegmentNoise(src, runId, 0, 2, busy)
    setSegmentNoise(src, runId, 1, 2, busy)
    setRoundsStop(src, runId, { reason: 'fixed', round: 3, kept: 3, widths: [] })
    const before = new HistoryStore(src).getRun(runId)
    expect(before.rounds.noise).toBe(
      '1 of 3 rounds disturbed (kept in the figures): other processes used 1.30 cores (load 5.2 on 2 cores)',
    )
    expect(before.rounds.orders[1]).toEqual({ round: 2, targets: ['node-http', 'java-jetty'] })
    const file = join(dir, 'run.json')
    await exportJson(src, [runId], file)
    const dst = openDb(join(dir, 'dst.db'))
    const imported = importJson(dst, file).runIds[0]!
    const after = new HistoryStore(dst).getRun(imported)
    expect(after.rounds).toEqual(before.rounds)
    expect(after.results.map((r) => [r.round, r.target, r.segment, r.noise])).toEqual(
      before.results.map((r) => [r.round, r.target, r.segment, r.noise]),
    )
    // A file written before rounds and noise were kept: none, and it still imports.
    const old = readFileSync(file, 'utf8')
      .replace(/,"rounds":\{[^}]*"widths":\[\]\}/, '')
      .replace(/,"segment":(null|\d+),"noise":(null|\{[^}]*\})/g, '')
    expect(old).not.toMatch(/"noise"/)
    const oldFile = join(dir, 'old.json')
    writeFileSync(oldFile, old)
    const again = importJson(openDb(join(dir, 'old.db')), oldFile)
    expect(again.runIds).toHaveLength(1)
  })
})

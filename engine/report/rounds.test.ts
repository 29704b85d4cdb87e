// The report says how many rounds ran and why they stopped, their order, the noise they ran in and
// how busy the machine was as the run started (issue 27, items 1–3): a stored run of two targets ×
// three rounds in a random order, one round disturbed, its machine busier than its cores, reported
// to PDF and read back with pdftotext; every sentence the one the run page and the CLI print.
// Without Chromium or poppler-utils the PDF part skips with the reason printed.
import { spawnSync } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openDb } from '../db/db.ts'
import { HistoryStore } from '../store/history-store.ts'
import { setRoundsStop, setSegmentNoise } from '../store/rounds.ts'
import { insertFixtureRun } from '../testing/fixtures.ts'
import { busyNoise } from '../testing/stats-block.ts'
import { tempDbPath } from '../testing/run-config.ts'
import { buildReportHtml, chromiumProblem, createReport } from './index.ts'

const ARTIFACTS = join(process.cwd(), 'artifacts', 'report-rounds')
const unavailable =
  chromiumProblem() ??
  (spawnSync('pdftotext', ['-v']).error ? 'pdftotext is not installed (apt-get install poppler-utils)' : null)
const squash = (s: string) => s.replace(/\s+/g, ' ').replace(/– /g, '–').trim()

function storedRun() {
  const db = openDb(tempDbPath())
  const { runId } = insertFixtureRun(db, { rounds: 3, samplesPerRound: 100, schedule: 'randomized' })
  db.prepare("UPDATE runs SET config = json_set(config, '$.scheduleSeed', 1234) WHERE id = ?").run(runId)
  const busy = busyNoise()
  for (const t of [0, 1]) setSegmentNoise(db, runId, t, 2, busy)
  setRoundsStop(db, runId, { reason: 'fixed', round: 3, kept: 3, widths: [] })
  const machine = {
    cores: 2,
    loadAverage: 5.2,
    busyPercent: 190,
    busy: true,
    top: [{ name: 'node', cpuPercent: 130 }],
    sampledAt: '2026-01-01T00:00:00.000Z',
    words: 'This machine is busier than its cores before the run: load average 5.2 on 2 cores.',
  }
  db.prepare('UPDATE environment SET details = ? WHERE run_id = ?').run(JSON.stringify({ machine }), runId)
  return { db, runId }
}

describe('the report and a run’s rounds', () => {
  it('names the rounds, their order, the noise and the machine on page 1 and in the environment', async () => {
    const { db, runId } = storedRun()
    const store = new HistoryStore(db)
    const run = store.getRun(runId)
    expect(run.rounds).toMatchObject({ reason: 'fixed', seed: 1234, disturbed: 1 })
    const html = squash(buildReportHtml(store, [runId]))
    const line = `Run ${runId}: 3 rounds, as configured; randomized order (seed 1234).`
    expect(html).toContain(line)
    expect(html).toContain(`<th>Rounds</th><td>${run.rounds.stop}; randomized order (seed 1234)</td>`)
    expect(html).toContain('load 5.2 on 2 cores, 1.90 cores busy (node 130 %): busier than its cores')
    expect(html).toContain(
      '1 of 3 rounds disturbed (kept in the figures): other processes used 1.30 cores (load 5.2 on 2 cores)',
    )
    if (unavailable) {
      console.warn(`[report rounds test] PDF skipped: ${unavailable}`)
      return
    }
    mkdirSync(ARTIFACTS, { recursive: true })
    const pdf = join(ARTIFACTS, 'rounds.pdf')
    await createReport(store, [runId], { out: pdf })
    const page1 = squash(
      spawnSync('pdftotext', ['-f', '1', '-l', '1', '-layout', pdf, '-'], { encoding: 'utf8' }).stdout,
    )
    expect(page1).toContain(squash(line))
    const all = squash(spawnSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' }).stdout)
    expect(all).toMatch(/Machine at start\s+load 5\.2 on 2 cores/)
    expect(all).toContain('1 of 3 rounds disturbed (kept in the figures)')
  }, 120_000)
})

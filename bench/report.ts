/*
 * How long does a report take for long runs? Inserts N synthetic runs (engine/testing/fixtures.ts: samples,
 * per-second series, HDR histograms, resources) of 2 targets × 3 rounds of `minutes` each into a
 * temporary database, then times createReport (load, HTML, Chromium) twice: cold and warm.
 *
 *   node bench/report.ts [runs=4] [minutes=10]
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDb } from '../engine/db/db.ts'
import { insertFixtureRun } from '../engine/testing/fixtures.ts'
import { HistoryStore } from '../engine/store/history-store.ts'
import { createReport } from '../engine/report/index.ts'

const runs = Number(process.argv[2] ?? 4)
const minutes = Number(process.argv[3] ?? 10)
const perSecond = 200
const dir = mkdtempSync(join(tmpdir(), 'cannonade-report-bench-'))
try {
  const db = openDb(join(dir, 'bench.db'))
  let t = performance.now()
  const ids: number[] = []
  for (let i = 0; i < runs; i++) {
    const targets = [
      { name: 'java-jetty', throughput: perSecond },
      { name: 'node-http', throughput: perSecond * 1.05 },
    ]
    ids.push(
      insertFixtureRun(db, { seed: i + 1, rounds: 3, samplesPerRound: perSecond * 60 * minutes, targets })
        .runId,
    )
  }
  console.log(
    `${runs} runs × 2 targets × 3 rounds × ${minutes} min inserted in ${((performance.now() - t) / 1000).toFixed(1)} s`,
  )
  const store = new HistoryStore(db)
  for (const pass of ['cold', 'warm']) {
    t = performance.now()
    const stages: string[] = []
    const created = await createReport(store, ids, {
      out: join(dir, `report-${pass}.pdf`),
      onProgress: (p) => stages.push(`${p.stage} ${(p.elapsedMs / 1000).toFixed(2)} s`),
    })
    console.log(
      `${pass}: ${((performance.now() - t) / 1000).toFixed(2)} s, ${(created.bytes / 1024).toFixed(0)} KiB (${stages.join(' · ')})`,
    )
  }
  db.close()
} finally {
  rmSync(dir, { recursive: true, force: true })
}

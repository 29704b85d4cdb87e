// One timeline rule for resource samples (issue 28, Must 5): a sample belongs to the second it
// covers (a reading at t covers (t − 1, t]: the second holding t − 0.5; metrics/resource-summary.ts
// sampleSecond). Samples at known fractions of seconds land on the same second in the study page's
// and `runs show`'s per-second figures (store/resource-samples.ts, in SQL), the CSV (`export csv --series`),
// the PDF's throughput-against-CPU chart (report/charts.ts) and the scaling figure; the run page and
// Compare place them by the same function (renderer/src/lib/timeline.test.ts).
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { sampleSecond } from '../metrics/resource-summary.ts'
import { joinPerSecond } from '../report/charts.ts'
import { openDb } from '../db/db.ts'
import { HistoryStore } from '../store/history-store.ts'
import { resourcePoints, targetSeconds } from '../store/resource-samples.ts'
import { scalingPoint } from '../study/scaling.ts'
import { insertFixtureRun } from '../testing/fixtures.ts'
import { exportCsv } from './index.ts'

/** CPU samples at fractions of seconds, and the second each covers most of. */
export const SAMPLES: [t: number, cpu: number][] = [
  [2.2, 10], // covers 1.2–2.2: second 1
  [2.67, 20], // 1.67–2.67: second 2
  [3.0, 30], // 2.0–3.0 (the generator's sample of second 2 is stored at 3.0): second 2
  [3.5, 40], // 2.5–3.5: second 3 (half and half: the later)
  [4.99, 50], // 3.99–4.99: second 4
]
/** Each second's CPU: the mean of its samples. */
const BY_SECOND = new Map([
  [1, 10],
  [2, 25],
  [3, 40],
  [4, 50],
])

describe('resource samples on the run timeline', () => {
  it('the rule', () => {
    expect(SAMPLES.map(([t]) => sampleSecond(t))).toEqual([1, 2, 2, 3, 4])
  })

  it('every engine view of the run puts each sample on the second it covers', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cannonade-timeline-'))
    const db = openDb(join(dir, 'c.db'))
    const { runId } = insertFixtureRun(db, {
      targets: [{ name: 'api', throughput: 1000 }],
      samplesPerRound: 6000,
    })
    db.prepare('DELETE FROM resource_samples WHERE run_id = ?').run(runId)
    const insert = db.prepare(
      `INSERT INTO resource_samples (run_id, t, target, source, instance, cpu_percent, memory_bytes) VALUES (?, ?, 'api', 'docker', 'c1', ?, NULL)`,
    )
    for (const [t, cpu] of SAMPLES) insert.run(runId, t, cpu)

    // The study page and `runs show`: per target and second, in SQL.
    const study = targetSeconds(db, runId).get('api')!
    expect(new Map([...study].map(([t, s]) => [t, s.cpuPercent]))).toEqual(BY_SECOND)

    // The CSV of seconds: the target's CPU column beside its own second.
    const out = join(dir, 'series.csv')
    await exportCsv(db, runId, { kind: 'series' }, out)
    const [head, ...lines] = readFileSync(out, 'utf8').trim().split('\n')
    const cols = head!.split(',')
    const cpuAt = new Map(
      lines
        .map((l) => l.split(','))
        .filter((c) => c[cols.indexOf('target_cpu_percent')] !== '')
        .map((c) => [Number(c[cols.indexOf('t')]), Number(c[cols.indexOf('target_cpu_percent')])]),
    )
    expect(cpuAt).toEqual(BY_SECOND)

    // The PDF's throughput against CPU: each second's throughput beside the same second's CPU.
    const series = new HistoryStore(db).series(runId)
    const joined = joinPerSecond(
      series.filter((p) => p.target === 'api'),
      resourcePoints(db, runId),
    )
    expect(new Map(joined.map((j) => [j.t, j.cpu]))).toEqual(BY_SECOND)
    for (const j of joined) expect(j.throughput).toBe(series.find((p) => p.t === j.t)!.responses)

    // The scaling figure (throughput against the instances' CPU).
    const scaling = scalingPoint(db, runId, 'api')!
    expect(new Map(scaling.seconds.map((s) => [s.t, s.cpu]))).toEqual(BY_SECOND)
    db.close()
  })
})

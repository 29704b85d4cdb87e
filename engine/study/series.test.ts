// A study's monitored figures against throughput: stored runs of a study (fixtures) whose resource
// samples the test writes, as the prometheus monitor stores them (CPU and memory rows, named series
// rows), so the means each point carries are known: instances summed per second for sizes and CPU,
// averaged for times and ratios, only over the seconds the target was measured in. The report draws
// each series against throughput and lists the figures in their units.
import { describe, expect, it } from 'vitest'
import { openDb, type Db } from '../db/db.ts'
import { HistoryStore } from '../store/history-store.ts'
import { addStudyRun, createStudy } from '../store/studies.ts'
import { buildReportHtml } from '../report/index.ts'
import { insertFixtureRun } from '../testing/fixtures.ts'
import { studyResults } from './results.ts'

const MiB = 2 ** 20

function study(): { db: Db; studyId: number; runIds: number[] } {
  const db = openDb(':memory:')
  const studyId = createStudy(db, { name: 'pool', axes: [{ path: 'load.connections', values: [8, 32] }] })
  const runIds = [8, 32].map((value, i) => {
    const { runId } = insertFixtureRun(db, {
      seed: 3 + i,
      samplesPerRound: 3000,
      targets: [{ name: 'api', throughput: 1000 * (i + 1), latencyUs: 2000, errorRate: 0 }],
    })
    addStudyRun(db, studyId, runId, [value], value)
    // The fixture's own process samples out: this test writes the samples it knows.
    db.prepare('DELETE FROM resource_samples WHERE run_id = ?').run(runId)
    return runId
  })
  return { db, studyId, runIds }
}

const insert = (db: Db) =>
  db.prepare(
    `INSERT INTO resource_samples (run_id, t, target, source, instance, cpu_percent, memory_bytes, memory_limit, cpu_limit, state, connections, metric, value)
     VALUES (?, ?, 'api', 'prometheus', ?, ?, ?, NULL, NULL, 'running', NULL, ?, ?)`,
  )

describe('a study plots its targets’ monitored series against throughput', () => {
  it('each point carries the means of its run’s measured seconds: sizes summed over instances, times averaged', () => {
    const { db, studyId, runIds } = study()
    const ins = insert(db)
    const measured = (runId: number) =>
      [...new Set(new HistoryStore(db).series(runId).map((s) => s.t))].sort((a, b) => a - b)
    runIds.forEach((runId, i) => {
      const k = i + 1
      for (const t of measured(runId)) {
        // Read 0.7–1.2 s after the second starts: they cover it (a reading covers the second before it).
        for (const instance of ['a:9100', 'b:9100']) {
          ins.run(runId, t + 0.7, instance, 20 * k, 100 * MiB * k, null, null)
          ins.run(runId, t + 0.7, instance, null, null, 'heap_bytes', 50 * MiB * k)
          // Two readings in one second: the instance's mean of the second.
          ins.run(runId, t + 0.7, instance, null, null, 'event_loop_lag_seconds', 0.001 * k)
          ins.run(runId, t + 1.2, instance, null, null, 'event_loop_lag_seconds', 0.003 * k)
        }
      }
      // Outside the measured seconds (the idle baseline, a cooldown): not in the means.
      ins.run(runId, -3, 'a:9100', 99, 999 * MiB, null, null)
      ins.run(runId, -3, 'a:9100', null, null, 'heap_bytes', 999 * MiB)
      ins.run(runId, measured(runId).at(-1)! + 5, 'a:9100', null, null, 'event_loop_lag_seconds', 9)
    })
    const points = studyResults(db, studyId).targets[0]!.points
    expect(points.map((p) => p.series)).toEqual(
      runIds.map((runId, i) => {
        const k = i + 1
        const seconds = measured(runId).length
        return [
          { metric: 'cpu_percent', mean: 40 * k, seconds },
          { metric: 'memory_bytes', mean: 200 * MiB * k, seconds },
          { metric: 'event_loop_lag_seconds', mean: expect.closeTo(0.002 * k, 12) as number, seconds },
          { metric: 'heap_bytes', mean: 100 * MiB * k, seconds },
        ]
      }),
    )

    const html = buildReportHtml(new HistoryStore(db), runIds)
    expect(html).toContain('heap_bytes against throughput')
    expect(html).toContain('event_loop_lag_seconds against throughput')
    const row = (p: (typeof points)[number]) =>
      `<tr><td>api</td><td>${p.label}</td><td>${p.throughput.toFixed(1)}</td><td>${p.value === 8 ? '40.0 %' : '80.0 %'}</td>`
    for (const p of points) expect(html).toContain(row(p))
    expect(html).toContain('<td>2.00 ms</td><td>100.0 MiB</td></tr>')
    expect(html).toContain('<td>4.00 ms</td><td>200.0 MiB</td></tr>')
    db.close()
  })

  it('a study without monitors has no series and no such section', () => {
    const { db, studyId, runIds } = study()
    expect(studyResults(db, studyId).targets[0]!.points.map((p) => p.series)).toEqual([[], []])
    expect(buildReportHtml(new HistoryStore(db), runIds)).not.toContain('against throughput (means')
    db.close()
  })
})

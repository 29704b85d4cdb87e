// A monitor's named series as their own columns of `export csv --series` (issue 28, Must 7):
// `metric_<name>`, the target's value in the second it covers, its instances summed (sizes) or
// averaged (times), as the study page and the run page's charts take them.
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openDb } from '../db/db.ts'
import { insertFixtureRun } from '../testing/fixtures.ts'
import { exportCsv } from './index.ts'

describe('export csv --series: named series', () => {
  it('a column per series, on the second each sample covers, instances summed or averaged', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cannonade-metrics-csv-'))
    const db = openDb(join(dir, 'c.db'))
    const { runId } = insertFixtureRun(db, {
      targets: [{ name: 'api', throughput: 1000 }],
      samplesPerRound: 4000,
    })
    const insert = db.prepare(
      `INSERT INTO resource_samples (run_id, t, target, source, instance, metric, value) VALUES (?, ?, 'api', 'prometheus', ?, ?, ?)`,
    )
    // Two instances' heaps (summed) and event-loop lag (averaged), read at 2.6 s: second 2's.
    insert.run(runId, 2.6, 'a', 'heap_bytes', 100)
    insert.run(runId, 2.6, 'b', 'heap_bytes', 50)
    insert.run(runId, 2.6, 'a', 'event_loop_lag_seconds', 0.002)
    insert.run(runId, 2.6, 'b', 'event_loop_lag_seconds', 0.004)
    insert.run(runId, 3.6, 'a', 'heap_bytes', 120)
    const out = join(dir, 'series.csv')
    await exportCsv(db, runId, { kind: 'series' }, out)
    const [head, ...lines] = readFileSync(out, 'utf8').trim().split('\n')
    const cols = head!.split(',')
    expect(cols.slice(-2)).toEqual(['metric_event_loop_lag_seconds', 'metric_heap_bytes'])
    const at = (t: number) =>
      lines
        .map((l) => l.split(','))
        .find((c) => c[cols.indexOf('t')] === String(t) && c[cols.indexOf('instance')] === '')!
    const value = (row: string[], name: string) => row[cols.indexOf(name)]
    expect(value(at(2), 'metric_heap_bytes')).toBe('150')
    expect(Number(value(at(2), 'metric_event_loop_lag_seconds'))).toBeCloseTo(0.003, 10)
    expect(value(at(3), 'metric_heap_bytes')).toBe('120')
    expect(value(at(3), 'metric_event_loop_lag_seconds')).toBe('')
    expect(value(at(1), 'metric_heap_bytes')).toBe('')
    db.close()
  })
})

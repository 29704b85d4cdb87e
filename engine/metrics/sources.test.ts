// A target read by two CPU sources (the process monitor and Prometheus on one server): every figure
// that sums a target's instances takes one source, never both, and which one is fixed.
import { describe, expect, it } from 'vitest'
import { openDb } from '../db/db.ts'
import { targetSeconds } from '../store/resource-samples.ts'
import { insertFixtureRun } from '../testing/fixtures.ts'
import { figureReadings, primarySources } from './sources.ts'

const reading = (target: string, source: string, cpuPercent: number | null) => ({
  target,
  source,
  cpuPercent,
  memoryBytes: null,
})

describe('one CPU figure per target', () => {
  it('takes the first of docker, process, cloudfoundry, kubernetes, prometheus the target has', () => {
    const points = [
      reading('a', 'prometheus', 62),
      reading('a', 'process', 60),
      reading('b', 'prometheus', 10),
      reading('b', 'kubernetes', 12),
      reading('c', 'prometheus', 5),
      reading('d', 'postgres', null),
      reading('generator', 'generator', 90),
    ]
    expect(Object.fromEntries(primarySources(points))).toEqual({
      a: 'process',
      b: 'kubernetes',
      c: 'prometheus',
    })
    // Rows that are no CPU or memory reading (connections, named series) stay.
    expect(figureReadings(points).map((p) => `${p.target}/${p.source}`)).toEqual([
      'a/process',
      'b/kubernetes',
      'c/prometheus',
      'd/postgres',
      'generator/generator',
    ])
  })

  it('the per-second figures of exports and studies sum one source’s instances, not both sources', () => {
    const db = openDb(':memory:')
    const { runId } = insertFixtureRun(db, { targets: [{ name: 'api' }] })
    db.prepare('DELETE FROM resource_samples WHERE run_id = ?').run(runId)
    const ins = db.prepare(
      `INSERT INTO resource_samples (run_id, t, target, source, instance, cpu_percent, memory_bytes) VALUES (?, ?, 'api', ?, ?, ?, ?)`,
    )
    // Read at 0.8, 0.5 and 1.8 s: they cover seconds 0, 0 and 1 (sampleSecond).
    ins.run(runId, 0.8, 'process', '4242', 60, 100)
    ins.run(runId, 0.5, 'prometheus', '127.0.0.1:8082', 62, 101)
    ins.run(runId, 1.8, 'prometheus', '127.0.0.1:8082', 64, 102)
    expect(targetSeconds(db, runId).get('api')?.get(0)).toMatchObject({ cpuPercent: 60, memoryBytes: 100 })
    // A second only Prometheus read: no process figure there, and no Prometheus one in its place.
    expect(targetSeconds(db, runId).get('api')?.get(1)).toBeUndefined()
    db.close()
  })
})

// Sweeps: a sweep is one study with one run per value; results per value and the knee.
import { afterEach, describe, expect, it } from 'vitest'
import type { ConfigError } from '../config/errors.ts'
import { parseRunConfig } from '../config/load.ts'
import { openDb } from '../store/db.ts'
import { startTarget, type CountingTarget } from '../testing/target.ts'
import { tempDbPath } from '../testing/run.ts'
import { studyResults } from './results.ts'
import { buildReportHtml } from '../report/html.ts'
import { HistoryStore } from '../store/queries.ts'
import { expandSweep, runStudy } from './sweep.ts'

let target: CountingTarget | null = null
afterEach(async () => {
  await target?.close()
  target = null
})

const cfg = (url: string, sweep: unknown, extra: Record<string, unknown> = {}) =>
  parseRunConfig({
    version: 1,
    name: 'sweep',
    targets: [{ name: 't', url }],
    load: { connections: 1, duration: 1 },
    cooldownSeconds: 0,
    sweep,
    ...extra,
  })

describe('sweeps', () => {
  it('expands any numeric path and names a bad one or a bad value', () => {
    const steps = expandSweep(cfg('http://127.0.0.1:1/', { path: 'load.connections', values: [1, 4, 16] }))
    expect(steps.map((s) => s.config.load.connections)).toEqual([1, 4, 16])
    expect(steps[1]!.config.name).toBe('sweep [connections=4]')
    expect(steps[0]!.config.sweep).toBeUndefined()
    const field = (sweep: unknown) => {
      try {
        expandSweep(cfg('http://127.0.0.1:1/', sweep))
      } catch (e) {
        return (e as ConfigError).field
      }
      return null
    }
    expect(field({ path: 'load.nothing', values: [1] })).toBe('sweep.path')
    expect(field({ path: 'load.connections', values: [4, 0] })).toBe('sweep.values.1')
    expect(field({ path: 'targets.0.stack.env.POOL_SIZE', values: [10] })).toBe('sweep.path')
    const stack = expandSweep(
      parseRunConfig({
        version: 1,
        name: 'pool',
        targets: [
          { name: 't', url: 'http://127.0.0.1:1/', stack: { name: 'node-http', env: { WORKERS: 2 } } },
        ],
        load: { connections: 1, duration: 1 },
        sweep: { path: 'targets.0.stack.env.POOL_SIZE', values: [10, 30] },
      }),
    )
    expect(stack.map((s) => s.stack)).toEqual([
      { targetIndex: 0, name: 'node-http', native: false, env: { WORKERS: 2, POOL_SIZE: 10 }, replicas: 1 },
      { targetIndex: 0, name: 'node-http', native: false, env: { WORKERS: 2, POOL_SIZE: 30 }, replicas: 1 },
    ])
    // Replicas restart the stack with each count, its environment unchanged.
    const replicas = expandSweep(
      parseRunConfig({
        version: 1,
        name: 'scale',
        targets: [
          { name: 't', url: 'http://127.0.0.1:1/', stack: { name: 'node-http', env: { WORKERS: 2 } } },
        ],
        load: { connections: 1, duration: 1 },
        sweep: { path: 'targets.0.stack.replicas', values: [1, 3] },
      }),
    )
    expect(
      replicas.map((s) => [s.stack?.replicas, s.stack?.env, s.config.targets[0]!.stack!.replicas]),
    ).toEqual([
      [1, { WORKERS: 2 }, 1],
      [3, { WORKERS: 2 }, 3],
    ])
    expect(field({ path: 'targets.0.stack.replicas', values: [2] })).toBe('sweep.path')
  })

  it('runs one run per value as one study and reports throughput and latency per value', async () => {
    target = await startTarget({ delayMs: 5 })
    const dbPath = tempDbPath()
    const db = openDb(dbPath)
    const started: number[] = []
    const { studyId, runs } = await runStudy(
      db,
      dbPath,
      cfg(`${target.url}/x`, { path: 'load.connections', values: [1, 4] }),
      {
        onRunStart: (r) => started.push(r.value),
      },
    )
    expect(started).toEqual([1, 4])
    expect(runs.map((r) => r.summary.status)).toEqual(['done', 'done'])
    const res = studyResults(db, studyId)
    expect(res.path).toBe('load.connections')
    const pts = res.targets[0]!.points
    expect(pts.map((p) => p.value)).toEqual([1, 4])
    // A 5 ms server: 4 connections serve about four times what one does.
    expect(pts[1]!.throughput / pts[0]!.throughput).toBeGreaterThan(2.5)
    expect(pts.every((p) => p.p99 >= p.p50 && p.p50 > 4000)).toBe(true)
    expect(res.targets[0]!.sentence).toMatch(/^t: /)
    const listed = db.prepare('SELECT count(*) FROM runs WHERE study_id = ?').pluck().get(studyId)
    expect(listed).toBe(2)
    // The report of the study's runs shows the sweep: values, figures per value, the sentence.
    const html = buildReportHtml(
      new HistoryStore(db),
      runs.map((r) => r.summary.runId),
    )
    expect(html).toContain(`Study ${studyId}: sweep`)
    expect(html).toContain('Throughput against connections')
    expect(html).toContain(pts[1]!.throughput.toFixed(1))
    expect(html).toContain(res.targets[0]!.sentence.replace(/"/g, '&quot;').slice(0, 20))

    // Throughput against CPU per instance count: none without a monitor; with samples whose CPU
    // the test sets, the sum of every instance's per second, next to that second's throughput.
    expect(pts.map((p) => p.scaling)).toEqual([null, null])
    const insert = db.prepare(
      `INSERT INTO resource_samples (run_id, t, target, source, instance, cpu_percent, memory_bytes, memory_limit, cpu_limit, state, connections)
       VALUES (?, ?, ?, ?, ?, ?, 1, NULL, ?, NULL, ?)`,
    )
    const [one, two] = runs.map((r) => r.summary.runId) as [number, number]
    insert.run(one, 0.2, 't', 'docker', 'app-1', 40, 1, null)
    insert.run(two, 0.1, 't', 'docker', 'app-1', 30, 1, null)
    insert.run(two, 0.3, 't', 'docker', 'app-2', 50, 1, null)
    // Not the app's: the generator, a database's connections; a second with one instance missing.
    insert.run(two, 0.2, 'generator', 'generator', 'load', 99, null, null)
    insert.run(two, 0.2, 't', 'postgres', 'active', null, null, 3)
    insert.run(two, 5.2, 't', 'docker', 'app-1', 70, 1, null)
    const requestsAt0 = (runId: number) =>
      new HistoryStore(db)
        .series(runId)
        .filter((x) => x.t === 0)
        .reduce((a, x) => a + x.requests, 0)
    const scaled = studyResults(db, studyId).targets[0]!.points.map((p) => p.scaling)
    expect(scaled).toEqual([
      {
        instances: 1,
        capacityPerInstance: 100,
        peakCpu: 40,
        utilization: 0.4,
        peakThroughput: requestsAt0(one),
        seconds: [{ t: 0, throughput: requestsAt0(one), cpu: 40 }],
      },
      {
        instances: 2,
        capacityPerInstance: 100,
        peakCpu: 80,
        utilization: 0.4,
        peakThroughput: requestsAt0(two),
        seconds: [{ t: 0, throughput: requestsAt0(two), cpu: 80 }],
      },
    ])
    const withScaling = buildReportHtml(
      new HistoryStore(db),
      runs.map((r) => r.summary.runId),
    )
    expect(withScaling).toContain('t: throughput and CPU per instance count')
    expect(withScaling).toContain(
      `<tr><td>4</td><td>2</td><td>${requestsAt0(two)}</td><td>80 %</td><td>200 %</td><td>40 %</td></tr>`,
    )
  })
})

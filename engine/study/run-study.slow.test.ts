// Studies run against a counting target: one run per value (or per pair of values: a grid), results
// per value and the knee, the stacks a study restarts put back. A load test (one file at a time): it
// holds throughput to what the target's delay allows. The sweeps' expansion is run-study.test.ts.
import { afterEach, describe, expect, it } from 'vitest'
import { parseRunConfig } from '../config/load.ts'
import type { StackSetting } from '../config/sweep.ts'
import { openDb } from '../db/db.ts'
import type { StackSnapshot } from '../stacks/stacks.ts'
import { startTarget, type CountingTarget } from '../testing/target.ts'
import { tempDbPath } from '../testing/run-config.ts'
import { studyResults } from './results.ts'
import { buildReportHtml } from '../report/html.ts'
import { HistoryStore } from '../store/history-store.ts'
import type { StackControl } from '../stacks/policy.ts'
import { runStudy, type StackStep } from './run-study.ts'
import { sweepConfig } from '../testing/config.ts'

let target: CountingTarget | null = null
afterEach(async () => {
  await target?.close()
  target = null
})

const cfg = sweepConfig

describe('studies', () => {
  it('runs one run per value as one study and reports throughput and latency per value', async () => {
    // 20 ms per request: the server's delay sets what each connection can do (50 req/s at most).
    target = await startTarget({ delayMs: 20, sampleEveryMs: 5 })
    const dbPath = tempDbPath()
    const db = openDb(dbPath)
    const started: number[] = []
    let secondStart = 0
    const { studyId, runs } = await runStudy(
      db,
      dbPath,
      cfg(`${target.url}/x`, { path: 'load.connections', values: [1, 4] }),
      {
        onRunStart: (r) => {
          started.push(r.point[0] as number)
          if (r.index === 1) secondStart = Date.now()
        },
      },
    )
    expect(started).toEqual([1, 4])
    expect(runs.map((r) => r.summary.status)).toEqual(['done', 'done'])
    // The server saw the value: one request at a time, then four.
    const inFlight = (from: number, to: number) =>
      Math.max(...target!.samples.filter(([at]) => at >= from && at < to).map(([, n]) => n))
    expect(inFlight(0, secondStart)).toBe(1)
    expect(inFlight(secondStart, Infinity)).toBe(4)
    const res = studyResults(db, studyId)
    expect(res.path).toBe('load.connections')
    const pts = res.targets[0]!.points
    expect(pts.map((p) => p.value)).toEqual([1, 4])
    // No more than 50 req/s per connection; four connections serve more than one.
    pts.forEach((p) => expect(p.throughput).toBeLessThanOrEqual(p.value * 50 * 1.05))
    expect(pts[1]!.throughput).toBeGreaterThan(pts[0]!.throughput)
    expect(pts.every((p) => p.p99 >= p.p50 && p.p50 > 19_000)).toBe(true)
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
    // A reading at t covers (t − 1, t]: these, stored just after second 0 ended, are second 0's.
    insert.run(one, 1.2, 't', 'docker', 'app-1', 40, 1, null)
    insert.run(two, 1.1, 't', 'docker', 'app-1', 30, 1, null)
    insert.run(two, 1.3, 't', 'docker', 'app-2', 50, 1, null)
    // Not the app's: the generator, a database's connections; a second with one instance missing.
    insert.run(two, 1.2, 'generator', 'generator', 'load', 99, null, null)
    insert.run(two, 1.2, 't', 'postgres', 'active', null, null, 3)
    insert.run(two, 6.2, 't', 'docker', 'app-1', 70, 1, null)
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

  it('runs a grid: a line per value of `by`, the figures each pair set', async () => {
    // The target answers after `?delay` ms: throughput is at most connections × 1000 / delay.
    target = await startTarget()
    const dbPath = tempDbPath()
    const db = openDb(dbPath)
    const { studyId, runs } = await runStudy(
      db,
      dbPath,
      cfg(`${target.url}/x`, {
        path: 'load.connections',
        values: [1, 4],
        by: { path: 'targets.0.query.delay', values: [20, 80] },
      }),
    )
    expect(runs.map((r) => r.point)).toEqual([
      [1, 20],
      [4, 20],
      [1, 80],
      [4, 80],
    ])
    const res = studyResults(db, studyId)
    expect(res.axes.map((a) => [a.name, a.numeric])).toEqual([
      ['connections', true],
      ['delay', true],
    ])
    expect(res.targets.map((t) => t.by?.label)).toEqual(['20', '80'])
    const [fast, slow] = res.targets.map((t) => t.points)
    // At most connections × 1000 / delay per second; more connections and a shorter delay serve more.
    for (const [line, delay] of [
      [fast!, 20],
      [slow!, 80],
    ] as const) {
      for (const p of line) expect(p.throughput).toBeLessThanOrEqual(((p.value * 1000) / delay) * 1.05)
      expect(line[1]!.throughput).toBeGreaterThan(line[0]!.throughput)
    }
    expect(fast![0]!.throughput).toBeGreaterThan(slow![0]!.throughput)
    expect(slow!.every((p) => p.p50 >= 79_000)).toBe(true)
    expect(res.targets[1]!.sentence).toMatch(/^t, delay=80: /)
  })

  it('sweeps words: a line per value with the value as the label, and no knee', async () => {
    target = await startTarget({ delayMs: 2 })
    const dbPath = tempDbPath()
    const db = openDb(dbPath)
    const config = parseRunConfig({
      version: 1,
      name: 'bodies',
      targets: [{ name: 't', url: `${target.url}/x`, method: 'POST', body: { size: 2048, kind: 'json' } }],
      load: { connections: 1, duration: 1 },
      cooldownSeconds: 0,
      sweep: { path: 'targets.0.body.kind', values: ['json', 'text'] },
    })
    const { studyId, runs } = await runStudy(db, dbPath, config)
    const res = studyResults(db, studyId)
    expect(res.axes[0]!.numeric).toBe(false)
    // The report draws the words as categories, and says why there is no knee.
    const html = buildReportHtml(
      new HistoryStore(db),
      runs.map((r) => r.summary.runId),
    )
    expect(html).toMatch(/<text class="tick"[^>]*>json<\/text>/)
    expect(html).toMatch(/<text class="tick"[^>]*>text<\/text>/)
    expect(html).toContain('The values of kind are words, not a scale: no knee is looked for.')
    expect(res.targets[0]!.points.map((p) => [p.value, p.label])).toEqual([
      [0, 'json'],
      [1, 'text'],
    ])
    expect(res.targets[0]!.knee).toBeNull()
    expect(res.targets[0]!.sentence).toMatch(/^t: the most throughput with kind=(json|text)/)
    // The server saw both kinds, 2048 bytes each.
    const types = new Set(target.bodies.map((b) => b.contentType))
    expect(types).toEqual(new Set(['application/json', 'text/plain; charset=utf-8']))
    expect(target.bodies.every((b) => b.bytes === 2048)).toBe(true)
  })

  it('restarts a swept stack for each value and restores it at the end, also after a failed run', async () => {
    target = await startTarget()
    const dbPath = tempDbPath()
    const db = openDb(dbPath)
    const calls: string[] = []
    const steps: StackStep[] = []
    const stacks: StackControl = {
      snapshot: async (name): Promise<StackSnapshot> => {
        calls.push(`snapshot ${name}`)
        return { name, running: true, native: false, env: { POOL_SIZE: '10' }, replicas: 1, port: 8082 }
      },
      apply: async (s: StackSetting) => void calls.push(`apply ${String(s.env.POOL_SIZE)}`),
      restore: async (s) => void calls.push(`restore ${s.env.POOL_SIZE ?? ''}`),
    }
    const config = parseRunConfig({
      version: 1,
      name: 'pool',
      targets: [{ name: 't', url: `${target.url}/x`, stack: { name: 'node-http' } }],
      load: { connections: 1, duration: 0.5 },
      cooldownSeconds: 0,
      thresholds: [],
      sweep: { path: 'targets.0.stack.env.POOL_SIZE', values: [2, 6], warmupSeconds: 0.5 },
    })
    const { runs } = await runStudy(db, dbPath, config, { stacks, onStack: (s) => steps.push(s) })
    expect(calls).toEqual(['snapshot node-http', 'apply 2', 'apply 6', 'restore 10'])
    expect(
      steps.filter((s) => s.type === 'restart').map((s) => s.type === 'restart' && s.warmupSeconds),
    ).toEqual([0.5, 0.5])
    // The warm-up is the run's first phase: recorded, out of the summary.
    const first = runs[0]!.summary.results[0]!
    expect(first.phases.map((p) => [p.phase, p.warmup ?? false])).toEqual([
      ['warmup', true],
      ['main', false],
    ])
    expect(first.requests).toBe(first.phases[1]!.requests)

    // A run that does not end `done` ends the study, and the stack is still put back.
    calls.length = 0
    const failing: StackControl = {
      ...stacks,
      apply: async (s) => {
        calls.push(`apply ${String(s.env.POOL_SIZE)}`)
        if (s.env.POOL_SIZE === 6) throw new Error('no room for 6')
      },
    }
    await expect(runStudy(db, dbPath, config, { stacks: failing })).rejects.toThrow('no room for 6')
    expect(calls).toEqual(['snapshot node-http', 'apply 2', 'apply 6', 'restore 10'])
  })
})

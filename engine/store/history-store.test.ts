import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ApiError } from '../api/errors.ts'
import { openDb, type Db } from '../db/db.ts'
import { insertFixtureRun } from '../testing/fixtures.ts'
import { HistoryStore } from './history-store.ts'

let db: Db
let store: HistoryStore

beforeEach(() => {
  db = openDb(':memory:')
  store = new HistoryStore(db)
})
afterEach(() => db.close())

function apiError(fn: () => unknown): ApiError {
  try {
    fn()
  } catch (err) {
    if (err instanceof ApiError) return err
    throw err
  }
  throw new Error('expected an ApiError')
}

describe('listRuns', () => {
  it('lists newest first with targets, requests and duration, paged with a total', () => {
    const a = insertFixtureRun(db, {
      name: 'jetty vs node',
      startedAt: '2025-01-01T10:00:00.000Z',
      tags: ['round-1'],
    })
    const b = insertFixtureRun(db, {
      name: 'tomcat only',
      startedAt: '2025-01-02T10:00:00.000Z',
      targets: [{ name: 'java-tomcat' }],
      seed: 2,
    })
    const { items, total } = store.listRuns()
    expect(total).toBe(2)
    expect(items.map((i) => i.runId)).toEqual([b.runId, a.runId])
    expect(items[1]).toMatchObject({
      targets: ['java-jetty', 'node-http'],
      tags: ['round-1'],
      requests: 2000,
      status: 'done',
    })
    expect(items[1]?.durationSeconds).toBeGreaterThan(0)
    const page = store.listRuns({ limit: 1, offset: 1 })
    expect(page).toMatchObject({ total: 2, items: [{ runId: a.runId }] })
  })

  it("gives an ended run's length as its seconds, as the live view's elapsed read: 0:40 for a 40 s run", () => {
    // Two targets of 20 s each on one timeline (t 0–39), started and ended 40.6 s apart on the
    // wall clock (the runner's start and end around the load): issue 28 showed 0:41 in History.
    const run = insertFixtureRun(db, { startedAt: '2025-01-01T10:00:00.000Z' })
    const row = db.prepare('SELECT * FROM series WHERE run_id = ? LIMIT 1').get(run.runId) as Record<
      string,
      unknown
    >
    db.prepare('DELETE FROM series WHERE run_id = ?').run(run.runId)
    const cols = Object.keys(row)
    const ins = db.prepare(
      `INSERT INTO series (${cols.join(', ')}) VALUES (${cols.map((c) => `@${c}`).join(', ')})`,
    )
    for (let t = 0; t < 40; t++) ins.run({ ...row, target_index: t < 20 ? 0 : 1, t })
    db.prepare("UPDATE runs SET ended_at = '2025-01-01T10:00:40.600Z' WHERE id = ?").run(run.runId)
    expect(store.listRuns().items[0]?.durationSeconds).toBe(40)
    // No second recorded (stopped before its first): the wall clock.
    db.prepare('DELETE FROM series WHERE run_id = ?').run(run.runId)
    expect(store.listRuns().items[0]?.durationSeconds).toBeCloseTo(40.6, 6)
    // Still going: no length yet.
    db.prepare('UPDATE runs SET ended_at = NULL WHERE id = ?').run(run.runId)
    expect(store.listRuns().items[0]?.durationSeconds).toBeNull()
  })

  it('searches name, target names, tags, run id and correlation id; filters by tags, status, target', () => {
    const a = insertFixtureRun(db, { name: 'jetty vs node', tags: ['thesis', 'pool-on'] })
    const b = insertFixtureRun(db, {
      name: 'other',
      targets: [{ name: 'java-tomcat' }],
      tags: ['pool-off'],
      status: 'failed',
      seed: 3,
    })
    const ids = (q: Parameters<HistoryStore['listRuns']>[0]): number[] =>
      store.listRuns(q).items.map((i) => i.runId)
    expect(ids({ search: 'JETTY' })).toEqual([a.runId])
    expect(ids({ search: 'tomcat' })).toEqual([b.runId])
    expect(ids({ search: 'pool' }).sort()).toEqual([a.runId, b.runId].sort())
    expect(ids({ search: `#${b.runId}` })).toEqual([b.runId])
    expect(ids({ search: `${b.prefix}-0000000007` })).toEqual([b.runId])
    expect(ids({ search: '%' })).toEqual([])
    expect(ids({ tags: ['thesis', 'pool-on'] })).toEqual([a.runId])
    expect(ids({ tags: ['thesis', 'pool-off'] })).toEqual([])
    expect(ids({ status: 'failed' })).toEqual([b.runId])
    expect(ids({ target: 'node-http' })).toEqual([a.runId])
  })

  it('survives a broken row: the list shows it, opening it names the run and column', () => {
    const a = insertFixtureRun(db)
    db.prepare("UPDATE runs SET tags = '[oops' WHERE id = ?").run(a.runId)
    db.prepare("UPDATE run_targets SET summary = '{' WHERE run_id = ? AND target_index = 1").run(a.runId)
    const { items } = store.listRuns({ search: 'java' })
    expect(items).toHaveLength(1)
    expect(items[0]?.tags).toEqual([])
    const err = apiError(() => store.getRun(a.runId))
    expect(err.message).toMatch(new RegExp(`run ${a.runId}.*runs.tags`))
    db.prepare("UPDATE runs SET tags = '[]' WHERE id = ?").run(a.runId)
    expect(apiError(() => store.getRun(a.runId)).message).toMatch(
      /target node-http, round 1.*run_targets.summary is not valid JSON/,
    )
    db.prepare('UPDATE runs SET config = \'{"version":1}\' WHERE id = ?').run(a.runId)
    expect(apiError(() => store.getRun(a.runId)).message).toMatch(/runs.config is not a valid run config/)
  })

  it('rejects a bad query naming the field', () => {
    const err = apiError(() => store.listRuns({ limit: 0 }))
    expect(err.code).toBe('bad-input')
    expect(err.field).toBe('limit')
  })
})

describe('getRun', () => {
  it('returns summary, results per target and round, thresholds and config', () => {
    const { runId, prefix } = insertFixtureRun(db, {
      rounds: 2,
      thresholds: [{ metric: 'p99', target: '*', max: 1 }],
    })
    const run = store.getRun(runId)
    expect(run).toMatchObject({ runId, correlationPrefix: prefix, status: 'done', thresholdsPassed: false })
    expect(run.results.map((r) => `${r.target}/${r.round}`)).toEqual([
      'java-jetty/1',
      'node-http/1',
      'java-jetty/2',
      'node-http/2',
    ])
    const r = run.results[0]
    expect(r?.requests).toBe(1000)
    expect(r?.latency.p50).toBeLessThanOrEqual(r?.latency.p99 ?? 0)
    expect(r?.phases[0]?.phase).toBe('main')
    expect(r?.histogram.length).toBeGreaterThan(10)
    expect(run.thresholds).toHaveLength(2) // per target, rounds merged (as the runner judges them)
    expect(run.config.targets.map((t) => t.name)).toEqual(['java-jetty', 'node-http'])
  })

  it('says which run does not exist', () => {
    const err = apiError(() => store.getRun(42))
    expect(err.code).toBe('not-found')
    expect(err.message).toBe('run 42 does not exist')
    for (const fn of [
      () => store.series(42),
      () => store.samples(42),
      () => store.deleteRun(42),
      () => store.tag(42, []),
      () => store.note(42, ''),
    ]) {
      expect(apiError(fn).code).toBe('not-found')
    }
  })
})

describe('series', () => {
  it('returns per-second points by target and round, downsampled on request', () => {
    const { runId } = insertFixtureRun(db, { samplesPerRound: 40_000, rounds: 2 })
    const all = store.series(runId)
    const groups = new Set(all.map((p) => `${p.target}/${p.round}`))
    expect(groups.size).toBe(4)
    const jetty1 = all.filter((p) => p.target === 'java-jetty' && p.round === 1)
    expect(jetty1.length).toBeGreaterThan(5)
    expect(jetty1.reduce((s, p) => s + p.requests, 0)).toBe(40_000)
    const small = store.series(runId, { maxPoints: 3 })
    const smallJetty = small.filter((p) => p.target === 'java-jetty' && p.round === 1)
    expect(smallJetty.length).toBeLessThanOrEqual(3)
    expect(Math.max(...smallJetty.map((p) => p.p99 ?? 0))).toBe(Math.max(...jetty1.map((p) => p.p99 ?? 0)))
    expect(small.every((p) => p.phase === 'main')).toBe(true)
  })
})

describe('resources', () => {
  it('returns the run timeline of resource samples', () => {
    const { runId } = insertFixtureRun(db)
    const points = store.resources(runId)
    expect(points.length).toBeGreaterThan(0)
    expect(points[0]).toMatchObject({ source: 'process', instance: 'pid 4242' })
    expect(points.map((p) => p.t)).toEqual([...points.map((p) => p.t)].sort((a, b) => a - b))
  })
})

describe('samples', () => {
  it('finds one request by correlation id, padded or not', () => {
    const { runId, prefix } = insertFixtureRun(db)
    const { rows, total } = store.samples(runId, { correlationId: `${prefix}-0000001500` })
    expect(total).toBe(1)
    expect(rows[0]).toMatchObject({
      seq: 1500,
      target: 'node-http',
      correlationId: `${prefix}-0000001500`,
      phase: 'main',
    })
    expect(store.samples(runId, { correlationId: `${prefix}-1500` }).total).toBe(1)
    expect(store.samples(runId, { correlationId: 'zzzz-1' }).total).toBe(0)
    const err = apiError(() => store.samples(runId, { correlationId: 'not an id' }))
    expect(err).toMatchObject({ code: 'bad-input', field: 'correlationId' })
  })

  it('orders slowest first, filters errors and targets, pages with a total', () => {
    const { runId } = insertFixtureRun(db, { targets: [{ name: 'a', errorRate: 0.05 }, { name: 'b' }] })
    const slow = store.samples(runId, { order: 'slowest', limit: 50 })
    expect(slow.total).toBe(2000)
    const lat = slow.rows.map((r) => r.latencyUs)
    expect(lat).toEqual([...lat].sort((x, y) => (y ?? -1) - (x ?? -1)))
    const errors = store.samples(runId, { errorsOnly: true, target: 'a', limit: 10_000 })
    expect(errors.total).toBeGreaterThan(10)
    expect(errors.rows.every((r) => r.error !== 'none' && r.target === 'a')).toBe(true)
    const page2 = store.samples(runId, { limit: 10, offset: 10 })
    expect(page2.rows.map((r) => r.seq)).toEqual([10, 11, 12, 13, 14, 15, 16, 17, 18, 19])
    expect(apiError(() => store.samples(runId, { target: 'nope' })).message).toMatch(
      /target "nope" is not part of run/,
    )
  })
})

describe('delete, tag, note', () => {
  it('deletes a run with its samples and children in one go, leaving other runs alone', () => {
    const a = insertFixtureRun(db)
    const b = insertFixtureRun(db, { seed: 9 })
    store.deleteRun(a.runId)
    for (const table of ['samples', 'series', 'run_targets', 'resource_samples', 'environment']) {
      const n = (
        db.prepare(`SELECT count(*) AS n FROM ${table} WHERE run_id = ?`).get(a.runId) as { n: number }
      ).n
      expect(n, table).toBe(0)
    }
    expect(store.listRuns().items.map((i) => i.runId)).toEqual([b.runId])
    expect(store.samples(b.runId).total).toBe(2000)
  })

  it('refuses to delete a running run, unless its worker is gone', () => {
    const { runId } = insertFixtureRun(db, { status: 'running' })
    expect(apiError(() => store.deleteRun(runId)).code).toBe('conflict')
    db.prepare('UPDATE runs SET worker_pid = ? WHERE id = ?').run(process.pid, runId)
    expect(apiError(() => store.deleteRun(runId)).code).toBe('conflict')
    // A worker that no longer exists: the row is stale and can be deleted.
    db.prepare('UPDATE runs SET worker_pid = 2147483646 WHERE id = ?').run(runId)
    store.deleteRun(runId)
    expect(store.listRuns().total).toBe(0)
  })

  it('tags (trimmed, deduplicated) and notes', () => {
    const { runId } = insertFixtureRun(db)
    expect(store.tag(runId, [' a ', 'b', 'a', ''])).toEqual(['a', 'b'])
    store.note(runId, 'pool size 20')
    expect(store.getRun(runId)).toMatchObject({ tags: ['a', 'b'], note: 'pool size 20' })
    expect(store.listRuns({ tags: ['b'] }).total).toBe(1)
  })
})

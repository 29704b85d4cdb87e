import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pgAvailableForTests, startPg, type PgCluster } from '../testing/pg.ts'
import { createMonitor, testMonitor } from './index.ts'
import { PostgresMonitor } from './postgres.ts'
import { MonitorSpecSchema } from '../config/schema-monitor.ts'
import { collector } from '../testing/monitor.ts'
import type { ResourceSample } from './types.ts'

const available = pgAvailableForTests()

/** The counts of one tick, by state. */
function byState(tick: readonly ResourceSample[]): Record<string, number | null | undefined> {
  return Object.fromEntries(tick.map((s) => [s.instance, s.connections]))
}

describe('postgres monitor spec', () => {
  it('takes url or stack, never a password in the config', () => {
    expect(
      MonitorSpecSchema.safeParse({ kind: 'postgres', url: 'postgres://app@127.0.0.1:5432/shop' }).success,
    ).toBe(true)
    expect(MonitorSpecSchema.safeParse({ kind: 'postgres', stack: 'node-http' }).success).toBe(true)
    const secret = MonitorSpecSchema.safeParse({
      kind: 'postgres',
      url: 'postgres://app:hunter2@127.0.0.1/shop',
    })
    expect(secret.error?.issues[0]).toMatchObject({
      path: ['url'],
      message: expect.stringMatching(/passwordEnv/),
    })
    const both = MonitorSpecSchema.safeParse({
      kind: 'postgres',
      url: 'postgres://a@h/d',
      stack: 'node-http',
    })
    expect(both.error?.issues[0]?.message).toMatch(/exactly one of url .* or stack/)
    expect(
      MonitorSpecSchema.safeParse({ kind: 'postgres', url: 'http://h/d' }).error?.issues[0]?.message,
    ).toMatch(/postgres:\/\//)
  })

  it('a stack without the stacks launcher is a config error, not a crash', () => {
    expect(() => createMonitor({ kind: 'postgres', stack: 'node-http' }, 't')).not.toThrow()
    expect(() => createMonitor({ kind: 'docker', stack: 'node-http' }, 't')).toThrow(/stacks launcher/)
  })
})

describe.skipIf(!available)('postgres monitor against a real PostgreSQL', () => {
  let cluster: PgCluster
  const clients: pg.Client[] = []
  beforeAll(async () => {
    cluster = await startPg({ durable: false })
  })
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.end().catch(() => {})))
    await cluster?.stop()
  })

  async function connect(): Promise<pg.Client> {
    const c = new pg.Client({ connectionString: cluster.url })
    await c.connect()
    clients.push(c)
    return c
  }

  it('counts the connections the test opens, by state, without its own', async () => {
    const url = new URL(cluster.url)
    url.password = ''
    const spec = { kind: 'postgres' as const, url: url.toString(), passwordEnv: 'CANNONADE_TEST_PG_PASSWORD' }
    const monitor = new PostgresMonitor(spec, 'db', 200, {
      secrets: { CANNONADE_TEST_PG_PASSWORD: cluster.password },
    })
    const samples = collector()
    const errors: unknown[] = []
    /** The first whole tick (three states) sampled after `at`: older queued ticks are skipped. */
    const tickAfter = async (at: number): Promise<ResourceSample[]> => {
      for (;;) {
        const tick = await samples.next(3)
        if (tick[0]!.t > at) return tick
      }
    }
    await monitor.start(samples.onSample, (e) => errors.push(e))
    try {
      // Nothing but the monitor: every state reads 0 (its own connection is left out).
      expect(byState(await samples.next(3))).toEqual({ active: 0, idle: 0, 'idle in transaction': 0 })
      // Known truth: 3 idle, 2 idle in a transaction, 1 running a query for the whole window.
      const idle = await Promise.all([connect(), connect(), connect()])
      const inTx = await Promise.all([connect(), connect()])
      for (const c of inTx) await c.query('BEGIN')
      const busy = await connect()
      const sleeping = busy.query('SELECT pg_sleep(2)')
      const tick = await tickAfter(Date.now())
      expect(byState(tick)).toEqual({ active: 1, idle: 3, 'idle in transaction': 2 })
      expect(
        tick.every((s) => s.source === 'postgres' && s.cpuPercent === null && s.memoryBytes === null),
      ).toBe(true)
      await sleeping
      for (const c of inTx) await c.query('ROLLBACK')
      await Promise.all([...idle, ...inTx, busy].map((c) => c.end()))
      clients.length = 0
      // A backend exits just after its client closed: within a few ticks every count is back to 0.
      let after = await tickAfter(Date.now())
      for (let i = 0; i < 20 && Object.values(byState(after)).some((n) => n !== 0); i++) {
        after = await samples.next(3)
      }
      expect(byState(after)).toEqual({ active: 0, idle: 0, 'idle in transaction': 0 })
      expect(errors).toEqual([])
    } finally {
      await monitor.stop()
    }
  })

  it('a wrong password is an auth error that names the database without the secret', async () => {
    const url = new URL(cluster.url)
    url.password = ''
    const r = await testMonitor(
      { kind: 'postgres', url: url.toString(), passwordEnv: 'CANNONADE_TEST_PG_PASSWORD' },
      { secrets: { CANNONADE_TEST_PG_PASSWORD: 'not-the-password' } },
    )
    expect(r).toMatchObject({ ok: false, code: 'auth' })
    expect(r.message).toMatch(new RegExp(`127\\.0\\.0\\.1:${cluster.port}`))
    expect(r.message).not.toContain('not-the-password')
  })

  it("reads pg_catalog's activity whatever the role's search_path puts first (a view of 50,000 states)", async () => {
    const admin = await connect()
    await admin.query(`CREATE ROLE hostile LOGIN PASSWORD 'h' SUPERUSER`)
    await admin.query(`CREATE SCHEMA evil`)
    await admin.query(
      `CREATE VIEW evil.pg_stat_activity AS SELECT 'evil-' || i AS state, 'client backend'::text AS backend_type,
         current_database() AS datname, 0 AS pid FROM generate_series(1, 50000) i`,
    )
    await admin.query(`ALTER ROLE hostile SET search_path = evil, pg_catalog`)
    const url = new URL(cluster.url)
    url.username = 'hostile'
    url.password = ''
    const monitor = new PostgresMonitor(
      { kind: 'postgres', url: url.toString(), passwordEnv: 'CANNONADE_TEST_PG_PASSWORD' },
      'db',
      200,
      { secrets: { CANNONADE_TEST_PG_PASSWORD: 'h' } },
    )
    const samples = collector()
    await monitor.start(samples.onSample, () => {})
    try {
      // Two ticks' samples: the three states each time, nothing of the view.
      const ticks = await samples.next(6)
      const states = ['active', 'idle', 'idle in transaction']
      expect(ticks.map((s) => s.instance)).toEqual([...states, ...states])
      expect(ticks.every((s) => Number.isInteger(s.connections))).toBe(true)
    } finally {
      await monitor.stop()
    }
  })
})

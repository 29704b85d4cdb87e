import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiError } from '../api/errors.ts'
import { openDb, type Db } from '../db/db.ts'
import { insertFixtureRun } from '../testing/fixtures.ts'
import { exportPg, type ExportProgress } from './pg.ts'
import { pgAvailableForTests, startPg, type PgCluster } from '../testing/pg.ts'

const available = pgAvailableForTests()

async function failure(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p
  } catch (err) {
    if (err instanceof ApiError) return err
    throw err
  }
  throw new Error('expected the export to fail')
}

describe.skipIf(!available)('exportPg against a real PostgreSQL', () => {
  let cluster: PgCluster
  let db: Db
  let query: (sql: string, params?: unknown[]) => Promise<Record<string, unknown>[]>
  let admin: pg.Client

  beforeAll(async () => {
    cluster = await startPg({ durable: false })
    db = openDb(':memory:')
    admin = new pg.Client({ connectionString: cluster.url })
    await admin.connect()
    query = async (sql, params) => (await admin.query(sql, params)).rows as Record<string, unknown>[]
  })
  afterAll(async () => {
    await admin?.end()
    db?.close()
    await cluster?.stop()
  })

  async function counts(origin: string): Promise<Record<string, number>> {
    const [row] = await query(
      `SELECT (SELECT count(*) FROM cannonade.runs WHERE origin = $1)::int AS runs,
         (SELECT count(*) FROM cannonade.samples s JOIN cannonade.runs r ON r.id = s.run_id WHERE r.origin = $1)::int AS samples,
         (SELECT count(*) FROM cannonade.series s JOIN cannonade.runs r ON r.id = s.run_id WHERE r.origin = $1)::int AS series,
         (SELECT count(*) FROM cannonade.run_targets s JOIN cannonade.runs r ON r.id = s.run_id WHERE r.origin = $1)::int AS targets,
         (SELECT count(*) FROM cannonade.resource_samples s JOIN cannonade.runs r ON r.id = s.run_id WHERE r.origin = $1)::int AS resources,
         (SELECT count(*) FROM cannonade.environment s JOIN cannonade.runs r ON r.id = s.run_id WHERE r.origin = $1)::int AS environment,
         (SELECT count(*) FROM cannonade.samples)::int AS all_samples`,
      [origin],
    )
    return row as Record<string, number>
  }

  function local(runId: number): Record<string, number> {
    const n = (t: string): number =>
      (db.prepare(`SELECT count(*) AS n FROM ${t} WHERE run_id = ?`).get(runId) as { n: number }).n
    return {
      samples: n('samples'),
      series: n('series'),
      targets: n('run_targets'),
      resources: n('resource_samples'),
      environment: n('environment'),
    }
  }

  it('exports a whole run, and exporting it twice leaves one copy', async () => {
    const run = insertFixtureRun(db, {
      rounds: 2,
      samplesPerRound: 5000,
      startedAt: '2025-03-01T10:00:00.000Z',
    })
    const origin = `${run.prefix}@2025-03-01T10:00:00.000Z`
    const events: ExportProgress[] = []
    const first = await exportPg(db, [run.runId], cluster.url, (p) => events.push(p))
    expect(first.runIds).toEqual([run.runId])
    const last = events.at(-1)
    expect(last).toMatchObject({ runsDone: 1, runsTotal: 1 })
    expect(last?.rowsDone).toBe(last?.rowsTotal)
    expect(events.map((e) => e.rowsDone)).toEqual([...events.map((e) => e.rowsDone)].sort((a, b) => a - b))
    const once = await counts(origin)
    expect(once).toMatchObject({ runs: 1, ...local(run.runId) })
    await exportPg(db, [run.runId], cluster.url)
    expect(await counts(origin)).toEqual(once)
    const [sample] = await query(
      `SELECT correlation_id, target, phase, error FROM cannonade.samples_v WHERE origin = $1 AND seq = 42`,
      [origin],
    )
    expect(sample).toMatchObject({
      correlation_id: `${run.prefix}-0000000042`,
      target: 'java-jetty',
      phase: 'main',
    })
    const [summary] = await query(
      `SELECT (summary->>'requests')::int AS requests FROM cannonade.run_targets t JOIN cannonade.runs r ON r.id = t.run_id WHERE r.origin = $1 LIMIT 1`,
      [origin],
    )
    expect(summary?.requests).toBe(5000)
  })

  it('a connection dropped mid-COPY leaves no partial run (nor touches the previous copy), and a retry succeeds', async () => {
    const run = insertFixtureRun(db, {
      samplesPerRound: 150_000,
      targets: [{ name: 'solo' }],
      seed: 7,
      startedAt: '2025-03-02T10:00:00.000Z',
    })
    const origin = `${run.prefix}@2025-03-02T10:00:00.000Z`
    const dropDuringCopy = async (): Promise<ApiError> => {
      const state: { kill: Promise<unknown> | null } = { kill: null }
      const err = await failure(
        exportPg(db, [run.runId], cluster.url, (p) => {
          // Samples come last: once some have gone out, terminate the exporting backend.
          if (state.kill === null && p.rowsDone > p.rowsTotal / 2) {
            state.kill = query(
              `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'cannonade export'`,
            )
          }
        }),
      )
      expect(state.kill).not.toBeNull()
      await state.kill
      return err
    }
    const err = await dropDuringCopy()
    expect(err.code).toBe('unavailable')
    expect(err.message).toMatch(
      /connection to PostgreSQL .* was lost while exporting run \d+.*nothing of run \d+ was written.*Retry/,
    )
    expect(await counts(origin)).toMatchObject({ runs: 0, samples: 0, series: 0 })

    await exportPg(db, [run.runId], cluster.url)
    const good = await counts(origin)
    expect(good).toMatchObject({ runs: 1, ...local(run.runId) })
    // A failed re-export rolls back to the previous complete copy.
    await dropDuringCopy()
    expect(await counts(origin)).toEqual(good)
  })

  it('wrong password: a clear message that never shows the password', async () => {
    const run = insertFixtureRun(db, { samplesPerRound: 10, seed: 11 })
    const err = await failure(exportPg(db, [run.runId], cluster.urlFor('postgres', 'not-the-Secret-pw')))
    expect(err.code).toBe('bad-input')
    expect(err.message).toMatch(
      /PostgreSQL rejected the password for user "postgres" \(postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/postgres\)/,
    )
    expect(err.message).not.toContain('not-the-Secret-pw')
  })

  it('unreachable host: says it could not connect', async () => {
    const run = insertFixtureRun(db, { samplesPerRound: 10, seed: 12 })
    const err = await failure(exportPg(db, [run.runId], 'postgres://u:pw-secret@127.0.0.1:1/x'))
    expect(err).toMatchObject({ code: 'unavailable', field: 'url' })
    expect(err.message).toMatch(/cannot reach PostgreSQL at 127.0.0.1:1: connection refused/)
    expect(err.message).not.toContain('pw-secret')
  })

  it('unknown run id: refused before connecting, nothing written', async () => {
    const before = await counts('none')
    const err = await failure(exportPg(db, [999_999], cluster.url))
    expect(err).toMatchObject({ code: 'not-found', message: 'run 999999 does not exist' })
    expect(await counts('none')).toEqual(before)
  })

  it('no permission to create the schema: names the user, database and the fix', async () => {
    cluster.psql(`CREATE ROLE limited LOGIN PASSWORD 'lim'; CREATE DATABASE restricted;`)
    const run = insertFixtureRun(db, { samplesPerRound: 10, seed: 13 })
    const err = await failure(exportPg(db, [run.runId], cluster.urlFor('limited', 'lim', 'restricted')))
    expect(err.code).toBe('bad-input')
    expect(err.message).toMatch(
      /user "limited" may not create the "cannonade" schema in database "restricted".*grant CREATE/,
    )
    expect(
      cluster.psql(`SELECT count(*) FROM pg_namespace WHERE nspname = 'cannonade'`, 'restricted').trim(),
    ).toBe('0')
  })

  it('a role that may only write rows exports into a schema set up by its owner', async () => {
    cluster.psql(`CREATE ROLE writer LOGIN PASSWORD 'w';
      GRANT USAGE ON SCHEMA cannonade TO writer;
      GRANT SELECT, INSERT, DELETE ON ALL TABLES IN SCHEMA cannonade TO writer;
      GRANT USAGE ON ALL SEQUENCES IN SCHEMA cannonade TO writer;`)
    const run = insertFixtureRun(db, {
      samplesPerRound: 100,
      seed: 14,
      startedAt: '2025-03-03T10:00:00.000Z',
    })
    await exportPg(db, [run.runId], cluster.urlFor('writer', 'w'))
    expect(await counts(`${run.prefix}@2025-03-03T10:00:00.000Z`)).toMatchObject({ runs: 1, samples: 200 })
  })
})

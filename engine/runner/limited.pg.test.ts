// The database's connections as the limiting resource, against a real PostgreSQL: a target whose
// pool holds 3 connections and whose every request runs a 20 ms query, loaded by 12 connections
// (its pool is the bottleneck: all 3 busy), and the same target loaded by one connection (its pool
// mostly idle). The postgres monitor reads the database's connections by state and its limit.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pgAvailableForTests, startPg, type PgCluster } from '../testing/pg.ts'
import { runConfig, type TestRun } from '../testing/run-config.ts'

const available = pgAvailableForTests()
const SECONDS = 4
const POOL = 3

describe.skipIf(!available)("a database's connections, as the limit", () => {
  let cluster: PgCluster
  let pool: pg.Pool
  let server: http.Server
  let url = ''
  let crowded: TestRun
  let alone: TestRun

  beforeAll(async () => {
    cluster = await startPg({ durable: false })
    pool = new pg.Pool({ connectionString: cluster.url, max: POOL })
    server = http.createServer((_req, res) => {
      pool.query('SELECT pg_sleep(0.02)').then(
        () => res.end('ok'),
        () => {
          res.statusCode = 500
          res.end()
        },
      )
    })
    server.keepAliveTimeout = 60_000
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/db`
    const monitorUrl = new URL(cluster.url)
    monitorUrl.password = ''
    process.env.CANNONADE_TEST_PG_PASSWORD = cluster.password
    const config = (connections: number) => ({
      version: 1,
      name: `pool of ${POOL}, ${connections} connections`,
      targets: [
        {
          name: 'app',
          url,
          monitor: {
            kind: 'postgres',
            url: monitorUrl.toString(),
            passwordEnv: 'CANNONADE_TEST_PG_PASSWORD',
          },
        },
      ],
      load: { connections, duration: SECONDS },
      cooldownSeconds: 0,
    })
    crowded = await runConfig(config(12))
    alone = await runConfig(config(1))
  }, 180_000)

  afterAll(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()))
    await pool?.end()
    await cluster?.stop()
    delete process.env.CANNONADE_TEST_PG_PASSWORD
  })

  it('names them when every connection the pool holds is busy', () => {
    const l = crowded.summary.limitedBy[0]!
    expect(l.kind, l.text).toBe('db-connections')
    expect(l.text).toMatch(/every one it held busy \(up to 3 open/)
    // The truth: 12 clients on a pool of 3 queries of 20 ms each: at most 150 answers a second.
    expect(crowded.summary.results[0]!.throughput).toBeLessThan((POOL / 0.02) * 1.05)
  })

  it('does not when one client leaves the pool mostly idle', () => {
    const l = alone.summary.limitedBy[0]!
    expect(l.kind, l.text).not.toBe('db-connections')
  })

  it("records the database's connection limit beside its connections", () => {
    const limit = crowded.db
      .prepare(
        "SELECT DISTINCT connection_limit FROM resource_samples WHERE run_id = ? AND source = 'postgres'",
      )
      .pluck()
      .all(crowded.summary.runId) as number[]
    const max = Number(cluster.psql('SHOW max_connections').match(/\d+/)![0])
    const reserved = Number(cluster.psql('SHOW superuser_reserved_connections').match(/\d+/)![0])
    expect(limit).toEqual([max - reserved])
  })
})

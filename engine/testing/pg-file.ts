// One throwaway PostgreSQL cluster for a whole test file (kept apart from pg.ts, which benchmarks
// import too, because it registers vitest hooks).
import { afterAll, beforeAll } from 'vitest'
import { pgAvailableForTests, startPg, type PgCluster, type PgFixtureOptions } from './pg.ts'

/**
 * Starts the cluster before the file's tests and stops it after them. `available` is false where
 * the tests skip (pgAvailableForTests prints why, or throws where CI requires PostgreSQL).
 */
export function pgForFile(opts: PgFixtureOptions = { durable: false }): {
  available: boolean
  cluster: () => PgCluster
} {
  const available = pgAvailableForTests()
  let cluster: PgCluster | null = null
  beforeAll(async () => {
    if (available) cluster = await startPg(opts)
  }, 60_000)
  afterAll(() => cluster?.stop())
  return {
    available,
    cluster: () => {
      if (!cluster) throw new Error('no PostgreSQL cluster: this file started none')
      return cluster
    },
  }
}

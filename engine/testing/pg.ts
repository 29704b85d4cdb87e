// A throwaway PostgreSQL cluster for tests and benchmarks (EXAMPLES.md 14: the real thing, never a
// mock): the product's local cluster (engine/stacks/postgres.ts) with the `postgres` superuser and
// a random password over TCP, so a wrong password is a real failure.
import {
  pgUnavailableReason,
  psqlSync,
  randomPassword,
  startPostgres,
  type LocalPostgres,
} from '../stacks/postgres.ts'

export { pgUnavailableReason } from '../stacks/postgres.ts'

export interface PgCluster {
  /** postgres://postgres:<password>@127.0.0.1:<port>/postgres */
  url: string
  host: string
  port: number
  user: string
  password: string
  dir: string
  local: LocalPostgres
  /** The URL for another role or database of this cluster. */
  urlFor(user: string, password: string, database?: string): string
  /** Run SQL as the superuser through psql (setup only: roles, grants); its output. */
  psql(sql: string, database?: string): string
  stop(): Promise<void>
}

export interface PgFixtureOptions {
  /** fsync off makes tests faster; benchmarks keep the defaults (default: true = durable). */
  durable?: boolean
}

/** For test files: skip with a printed reason, or fail when CI requires the real thing. */
export function pgAvailableForTests(): boolean {
  const reason = pgUnavailableReason()
  if (reason === null) return true
  if (process.env.CANNONADE_REQUIRE_DOCKER === '1') {
    throw new Error(`PostgreSQL tests are required (CANNONADE_REQUIRE_DOCKER=1) but cannot run: ${reason}`)
  }
  console.warn(`skipping PostgreSQL tests: ${reason}`)
  return false
}

export async function startPg(opts: PgFixtureOptions = {}): Promise<PgCluster> {
  const password = randomPassword()
  const local = await startPostgres({
    user: 'postgres',
    password,
    ...(opts.durable === false
      ? { settings: { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' } }
      : {}),
  })
  return {
    url: local.url(),
    host: local.host,
    port: local.port,
    user: local.user,
    password,
    dir: local.dir,
    local,
    urlFor: (user, pw, database = 'postgres') => local.url(database, { user, password: pw }),
    psql: (sql, database) => psqlSync(local, sql, database),
    stop: () => local.stop(),
  }
}

import type pg from 'pg'
import { pgLib } from '../lazy-deps.ts'
import { errorReporter, startLoop } from './loop.ts'
import type { Loop } from './loop.ts'
import { redactUrl } from '../config/redact.ts'
import { isCannonadeSecretName, type PostgresMonitorSpec } from '../config/schema-monitor.ts'
import { MonitorError, toMonitorError } from './types.ts'
import type { ErrorHandler, Monitor, ResourceSample, SampleHandler, StackLocator } from './types.ts'

/** States every tick reports, 0 included, so each is one continuous series; others appear when seen. */
const STATES = ['active', 'idle', 'idle in transaction'] as const
const QUERY_TIMEOUT_MS = 5000
// The connections other clients may open: what a pool, or a connection per request, runs into.
const LIMIT_SQL = `SELECT current_setting('max_connections')::int
  - current_setting('superuser_reserved_connections')::int AS n`

// Client backends of the monitored database, by state; this monitor's own connection left out.
// Every name is pg_catalog's: a role whose search_path puts a schema of its own first (a view
// named pg_stat_activity answering 50,000 states, a count() of its own) is not asked.
const SQL = `SELECT coalesce(a.state, 'unknown')::text AS state, pg_catalog.count(*)::int AS n
  FROM pg_catalog.pg_stat_activity a
  WHERE a.backend_type OPERATOR(pg_catalog.=) 'client backend'
    AND a.datname OPERATOR(pg_catalog.=) pg_catalog.current_database()
    AND a.pid OPERATOR(pg_catalog.<>) pg_catalog.pg_backend_pid()
  GROUP BY 1`

/** A row of SQL as the server sent it: nothing in it is trusted to have the type the query asks. */
export type ActivityRow = { state: unknown; n: unknown }

/** A count as the server sent it: a whole number, else no reading (text such as '12', NULL, 1e400). */
export function wholeCount(n: unknown): number | null {
  return typeof n === 'number' && Number.isInteger(n) ? n : null
}

/**
 * One tick's samples from SQL's rows: a sample per state, those of STATES at 0 when no row names
 * them. A count that is no whole number is no reading, its sample kept (../monitor/bounds.ts
 * checks the range again); a state that is no text is 'unknown'.
 */
export function connectionSamples(
  rows: readonly ActivityRow[],
  t: number,
  target: string,
  connectionLimit: number | null,
): ResourceSample[] {
  const counts = new Map<string, number | null>(STATES.map((s) => [s, 0]))
  for (const r of rows) counts.set(typeof r.state === 'string' ? r.state : 'unknown', wholeCount(r.n))
  return [...counts].map(([state, connections]) => ({
    t,
    source: 'postgres',
    target,
    instance: state,
    cpuPercent: null,
    memoryBytes: null,
    memoryLimitBytes: null,
    cpuLimit: null,
    state: 'running',
    connections,
    connectionLimit,
  }))
}

/**
 * Database connections of a PostgreSQL database on the run's timeline (pooling on or
 * off): one sample per connection state per tick, from pg_stat_activity, with `connections` the
 * count and `instance` the state (active, idle, idle in transaction…), and the database's
 * connection limit (max_connections less the superusers' reserve). CPU and memory are null:
 * this source counts connections. One connection of its own, kept open for the whole run.
 */
export class PostgresMonitor implements Monitor {
  readonly #spec: PostgresMonitorSpec
  readonly #target: string
  readonly #intervalMs: number
  readonly #secrets: Record<string, string>
  readonly #stacks: StackLocator | undefined
  #client: pg.Client | undefined
  #loop: Loop | undefined
  #where = ''
  #limit: number | null = null

  constructor(
    spec: PostgresMonitorSpec,
    target: string,
    intervalMs = 1000,
    opts: { secrets?: Record<string, string>; stacks?: StackLocator } = {},
  ) {
    this.#spec = spec
    this.#target = target
    this.#intervalMs = intervalMs
    this.#secrets = opts.secrets ?? {}
    this.#stacks = opts.stacks
  }

  async #url(): Promise<string> {
    if (this.#spec.stack !== undefined) {
      if (!this.#stacks) {
        throw new MonitorError(
          'config',
          `monitor.stack needs the stacks launcher (stack ${this.#spec.stack})`,
        )
      }
      try {
        return await this.#stacks.databaseUrl(this.#spec.stack)
      } catch (error) {
        throw toMonitorError(error, 'not-found', `database of stack ${this.#spec.stack}`)
      }
    }
    const url = new URL(this.#spec.url as string)
    const env = this.#spec.passwordEnv
    // The schema allows only variables named for Cannonade; a spec built in code is held to it too.
    if (env !== undefined && !isCannonadeSecretName(env))
      throw new MonitorError(
        'config',
        `${env} is not a variable named for Cannonade (CANNONADE_… or PGPASSWORD…)`,
      )
    const password = env ? (this.#secrets[env] ?? this.#secrets['password'] ?? process.env[env]) : undefined
    if (password !== undefined) url.password = password
    return url.toString()
  }

  async start(onSample: SampleHandler, onError: ErrorHandler): Promise<void> {
    if (this.#loop) throw new MonitorError('config', 'postgres monitor already started')
    const url = await this.#url()
    this.#where = this.#spec.stack !== undefined ? `stack ${this.#spec.stack}'s database` : redactUrl(url)
    const client = new (pgLib().Client)({
      connectionString: url,
      connectionTimeoutMillis: QUERY_TIMEOUT_MS,
      query_timeout: QUERY_TIMEOUT_MS,
      application_name: 'cannonade-monitor',
    })
    client.on('error', () => {}) // a dropped connection shows up as the next query's error
    try {
      await client.connect()
      await client.query(SQL)
      const { rows } = await client.query<{ n: number }>(LIMIT_SQL)
      this.#limit = rows[0]?.n ?? null
    } catch (error) {
      await client.end().catch(() => {})
      const e = error as { code?: string; message?: string }
      const code = e.code === '28P01' || e.code === '28000' ? 'auth' : 'unreachable'
      throw new MonitorError(code, `postgres monitor: ${this.#where}: ${e.message ?? String(error)}`, {
        cause: error,
      })
    }
    this.#client = client
    const errors = errorReporter(onError)
    this.#loop = startLoop(
      this.#intervalMs,
      async () => {
        const t = Date.now()
        const { rows } = await client.query<ActivityRow>(SQL)
        for (const s of connectionSamples(rows, t, this.#target, this.#limit)) onSample(s)
        errors.ok()
      },
      (error) => errors.report(toMonitorError(error, 'unreachable', `postgres monitor (${this.#where})`)),
    )
  }

  async stop(): Promise<void> {
    await this.#loop?.stop()
    this.#loop = undefined
    await this.#client?.end().catch(() => {})
    this.#client = undefined
  }
}

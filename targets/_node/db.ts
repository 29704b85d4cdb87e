// Database access per request. With POOL_SIZE > 0, every query checks a connection out of a pg
// Pool; with POOL_SIZE=0 ("no pooling"), a request opens its own connection on
// its first query and closes it before the answer goes out, as code without a pool does.
import { performance } from 'node:perf_hooks'
import pg from 'pg'

/** Time spent on one request: `start` of the handler and milliseconds inside database calls. */
export interface Timing {
  start: number
  db: number
}

export interface Session {
  query<R extends pg.QueryResultRow>(
    name: string,
    text: string,
    values: unknown[],
  ): Promise<pg.QueryResult<R>>
  /** Closes the request's own connection (no pool); a no-op with a pool. Timed as database time. */
  release(): Promise<void>
}

export interface Db {
  session(t: Timing): Session
  close(): Promise<void>
}

export function createDb(databaseUrl: string, poolSize: number): Db {
  if (poolSize === 0) return unpooled(databaseUrl)
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize })
  pool.on('error', (err) => console.error(`[db] idle client error: ${err.message}`))
  return {
    session: (t) => ({
      async query(name, text, values) {
        const began = performance.now()
        try {
          return await pool.query({ name, text, values })
        } finally {
          t.db += performance.now() - began
        }
      },
      release: () => Promise.resolve(),
    }),
    close: () => pool.end(),
  }
}

function unpooled(databaseUrl: string): Db {
  return {
    session(t) {
      let client: pg.Client | null = null
      return {
        async query(name, text, values) {
          const began = performance.now()
          try {
            if (!client) {
              const fresh = new pg.Client({ connectionString: databaseUrl })
              fresh.on('error', (err) => console.error(`[db] connection error: ${err.message}`))
              try {
                await fresh.connect()
              } catch (err) {
                await fresh.end().catch(() => {})
                throw err
              }
              client = fresh
            }
            return await client.query({ name, text, values })
          } finally {
            t.db += performance.now() - began
          }
        },
        async release() {
          if (!client) return
          const began = performance.now()
          const c = client
          client = null
          await c.end().catch(() => {})
          t.db += performance.now() - began
        },
      }
    },
    close: () => Promise.resolve(),
  }
}

// A connection to the user's PostgreSQL that can never hang an export: a connect timeout, a lock
// timeout (another export of the same run holds it), TCP keep-alive, and a watchdog over every
// statement and COPY. A server that stops answering (frozen, a network that drops packets) is cut
// off after `idleMs` without progress, and the export fails with a message naming the server and
// what it was doing; PostgreSQL rolls back the open transaction of a connection that is gone.
import type pg from 'pg'
import { pgLib } from '../lazy-deps.ts'
import { ApiError } from '../api/errors.ts'
import { describePgError, withPassword, type PgTarget } from './errors.ts'

export interface PgSessionOptions {
  /** No answer to the connection attempt within this time (default 10 s). */
  connectTimeoutMs?: number
  /** No progress of a statement or COPY for this long (default 60 s). */
  idleMs?: number
  /** Waiting for another export's lock on the same run (default 60 s). */
  lockTimeoutMs?: number
  /** Used when the URL has none (the desktop app's stored secret); else pg falls back to PGPASSWORD. */
  password?: string
}

export class PgSession {
  readonly client: pg.Client
  private readonly target: PgTarget
  private readonly idleMs: number
  private timer: NodeJS.Timeout | null = null
  private doing = ''
  /** Set when the watchdog cut the connection: what did not answer. */
  private stalled: string | null = null

  constructor(url: string, target: PgTarget, o: PgSessionOptions = {}) {
    this.target = target
    this.idleMs = o.idleMs ?? 60_000
    this.client = new (pgLib().Client)({
      connectionString: withPassword(url, o.password),
      connectionTimeoutMillis: o.connectTimeoutMs ?? 10_000,
      lock_timeout: o.lockTimeoutMs ?? 60_000,
      keepAlive: true,
      application_name: 'cannonade export',
    })
    // A connection that dies between queries emits 'error' on the client; the failing query reports it.
    this.client.on('error', () => undefined)
  }

  async connect(): Promise<void> {
    try {
      await this.client.connect()
    } catch (err) {
      throw describePgError(err, this.target)
    }
  }

  /** Work is going on (`what`, for the message); any progress restarts the clock. */
  busy(what: string): void {
    this.doing = what
    this.progress()
  }

  progress(): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = setTimeout(() => this.cut(), this.idleMs)
  }

  idle(): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
  }

  /** A query under the watchdog. */
  async query<R extends pg.QueryResultRow>(
    what: string,
    text: string,
    values?: unknown[],
  ): Promise<pg.QueryResult<R>> {
    this.busy(what)
    try {
      return await this.client.query<R>(text, values)
    } finally {
      this.idle()
    }
  }

  private cut(): void {
    this.stalled = this.doing
    // Destroying the socket fails whatever is waiting on it (a query, a COPY's write).
    this.client.connection.stream.destroy()
  }

  /** The error to report: a stall names the server and what it was doing. */
  describe(err: unknown, during?: string): ApiError {
    if (this.stalled !== null) {
      return new ApiError(
        'unavailable',
        `PostgreSQL at ${this.target.host}:${this.target.port} did not answer for ${Math.round(this.idleMs / 1000)} s while ${this.stalled} (${this.target.masked}); the connection was closed`,
        'url',
      )
    }
    return describePgError(err, this.target, during)
  }

  get connectionLost(): boolean {
    return this.stalled !== null
  }

  /** Close, without waiting on a server that does not answer. */
  async end(): Promise<void> {
    this.idle()
    if (this.stalled !== null) return
    let timer: NodeJS.Timeout | undefined
    await Promise.race([
      this.client.end().catch(() => undefined),
      new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          this.client.connection.stream.destroy()
          resolve()
        }, 5000)
      }),
    ])
    clearTimeout(timer)
  }
}

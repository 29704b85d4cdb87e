// The coordinator's side of the PostgreSQL store: it publishes the run, reads the agents' rows
// (each agent's rows in the order it wrote them: an agent awaits every insert before the next,
// so a per-agent id cursor never skips one), releases barriers with NOTIFY, and wakes on the
// agents' NOTIFY instead of polling blindly.
import type pg from 'pg'
import { pgLib } from '../../lazy-deps.ts'
import { describePgError, parsePgUrl } from '../../pg/errors.ts'
import type {
  AgentEnd,
  AgentRow,
  AgentSecondRow,
  AgentSegmentRow,
  AgentState,
  ClockOffset,
  CoordinatorStore,
  EncodedSecond,
  EncodedSegment,
  RawBlock,
  Release,
  RunSpec,
} from './protocol.ts'
import { agentsChannel, coordinatorChannel, ensureSchema, NOW_SQL, SCHEMA } from './pg-schema.ts'
import { Waiters } from './waiters.ts'
import type { TargetRoundSummary } from '../../api/types.ts'

interface AgentDbRow {
  agent_index: number
  host: string
  pid: number
  ledger: string
  state: AgentState
  ready_segment: number
  offset_ms: number | null
  delay_ms: number | null
  age: number
  hb: number
  starts: Record<string, number>
  end_info: AgentEnd | null
}

/** Open a client with errors in words (the password never shown), or throw one. */
export async function connectPg(url: string, application: string): Promise<pg.Client> {
  const target = parsePgUrl(url)
  const client = new (pgLib().Client)({
    connectionString: url,
    connectionTimeoutMillis: 10_000,
    application_name: application,
  })
  // A connection lost before the store adds its own listener must not end the process.
  client.on('error', () => {})
  try {
    await client.connect()
  } catch (err) {
    throw new Error(`coordination store: ${describePgError(err, target).message}`)
  }
  return client
}

export class PgCoordinatorStore implements CoordinatorStore {
  readonly kind = 'postgres'
  private readonly url: string
  private client: pg.Client | null = null
  private runKey = ''
  private readonly cursors = {
    seconds: {} as Record<number, number>,
    segments: {} as Record<number, number>,
    blocks: {} as Record<number, number>,
  }
  private readonly waiters = new Waiters()

  constructor(url: string) {
    this.url = url
  }

  private get db(): pg.Client {
    if (!this.client) throw new Error('the coordination store is not open')
    return this.client
  }

  async open(spec: RunSpec): Promise<void> {
    const client = await connectPg(this.url, 'cannonade coordinator')
    // A lost connection surfaces on the next query; the 'error' event alone must not crash the engine.
    client.on('error', () => {})
    client.on('notification', () => {
      this.waiters.wakeAll()
    })
    this.client = client
    this.runKey = spec.runKey
    await ensureSchema(client)
    await client.query(`INSERT INTO ${SCHEMA}.runs (run_key, spec) VALUES ($1, $2)`, [
      spec.runKey,
      JSON.stringify(spec),
    ])
    await client.query(`LISTEN "${coordinatorChannel(spec.runKey)}"`)
  }

  async now(): Promise<number> {
    return (await this.db.query<{ now: number }>(NOW_SQL)).rows[0]!.now
  }

  async agents(): Promise<AgentRow[]> {
    const r = await this.db.query<AgentDbRow>(
      `SELECT agent_index, host, pid, ledger, state, ready_segment, offset_ms, delay_ms, starts, end_info,
              (extract(epoch FROM clock_timestamp() - heartbeat_at) * 1000)::float8 AS age,
              (extract(epoch FROM heartbeat_at) * 1000)::float8 AS hb
       FROM ${SCHEMA}.agents WHERE run_key = $1 ORDER BY agent_index`,
      [this.runKey],
    )
    return r.rows.map((a) => ({
      index: a.agent_index,
      host: a.host,
      pid: a.pid,
      ledger: a.ledger,
      state: a.state,
      readySegment: a.ready_segment,
      clock:
        a.offset_ms === null || a.delay_ms === null
          ? null
          : ({ offsetMs: a.offset_ms, delayMs: a.delay_ms } satisfies ClockOffset),
      heartbeatAgeMs: a.age,
      heartbeatAt: a.hb,
      starts: Object.fromEntries(Object.entries(a.starts).map(([k, v]) => [Number(k), v])),
      end: a.end_info,
    }))
  }

  /** Rows of `table` past each agent's cursor, and the cursors moved past them. */
  private async after<T extends { id: string; agent_index: number }>(
    table: 'seconds' | 'segments' | 'blocks',
    columns: string,
    limit = 10_000,
  ): Promise<T[]> {
    const cursor = this.cursors[table]
    const r = await this.db.query<T>(
      `SELECT id, agent_index, ${columns} FROM ${SCHEMA}.${table}
       WHERE run_key = $1 AND id > coalesce(($2::jsonb ->> agent_index::text)::bigint, 0)
       ORDER BY id LIMIT ${limit}`,
      [this.runKey, JSON.stringify(cursor)],
    )
    for (const row of r.rows) cursor[row.agent_index] = Math.max(cursor[row.agent_index] ?? 0, Number(row.id))
    return r.rows
  }

  async take(): Promise<{ seconds: AgentSecondRow[]; segments: AgentSegmentRow[] }> {
    const seconds = await this.after<{ id: string; agent_index: number; data: EncodedSecond }>(
      'seconds',
      'data',
    )
    const segments = await this.after<{
      id: string
      agent_index: number
      data: EncodedSegment
      summary: TargetRoundSummary
    }>('segments', 'data, summary')
    return {
      seconds: seconds.map((r) => ({ index: r.agent_index, second: r.data })),
      segments: segments.map((r) => ({ index: r.agent_index, segment: r.data, summary: r.summary })),
    }
  }

  async allSeconds(segment: number): Promise<AgentSecondRow[]> {
    const r = await this.db.query<{ agent_index: number; data: EncodedSecond }>(
      `SELECT agent_index, data FROM ${SCHEMA}.seconds WHERE run_key = $1 AND segment = $2 ORDER BY agent_index, t`,
      [this.runKey, segment],
    )
    return r.rows.map((row) => ({ index: row.agent_index, second: row.data }))
  }

  async allSegments(): Promise<AgentSegmentRow[]> {
    const r = await this.db.query<{ agent_index: number; data: EncodedSegment; summary: TargetRoundSummary }>(
      `SELECT agent_index, data, summary FROM ${SCHEMA}.segments WHERE run_key = $1 ORDER BY segment, agent_index`,
      [this.runKey],
    )
    return r.rows.map((row) => ({ index: row.agent_index, segment: row.data, summary: row.summary }))
  }

  async takeBlocks(): Promise<{ index: number; block: RawBlock }[]> {
    // A few blocks at a time (each up to ~220 kB): the caller asks again until none are left.
    const rows = await this.after<{
      id: string
      agent_index: number
      target_index: number
      round: number
      count: number
      data: Buffer
    }>('blocks', 'target_index, round, count, data', 64)
    return rows.map((r) => ({
      index: r.agent_index,
      block: { targetIndex: r.target_index, round: r.round, count: r.count, data: r.data },
    }))
  }

  async release(r: Release): Promise<void> {
    await this.db.query(
      `WITH ins AS (INSERT INTO ${SCHEMA}.releases (run_key, segment, at_ms, start_second) VALUES ($1, $2, $3, $4) RETURNING 1)
       SELECT pg_notify($5, 'release') FROM ins`,
      [this.runKey, r.segment, r.atMs, r.startSecond, agentsChannel(this.runKey)],
    )
  }

  async stop(): Promise<void> {
    await this.db.query(
      `WITH up AS (UPDATE ${SCHEMA}.runs SET state = 'stopping' WHERE run_key = $1 AND state = 'open' RETURNING 1)
       SELECT pg_notify($2, 'stop')`,
      [this.runKey, agentsChannel(this.runKey)],
    )
  }

  wait(ms: number): Promise<void> {
    return this.waiters.wait(ms)
  }

  async close(opts: { purge: boolean }): Promise<void> {
    const client = this.client
    if (!client) return
    this.client = null
    try {
      await client.query(`UPDATE ${SCHEMA}.runs SET state = 'ended' WHERE run_key = $1`, [this.runKey])
      await client.query(`SELECT pg_notify($1, 'ended')`, [agentsChannel(this.runKey)])
      if (opts.purge) await client.query(`DELETE FROM ${SCHEMA}.runs WHERE run_key = $1`, [this.runKey])
    } finally {
      await client.end().catch(() => {})
    }
  }
}

// An agent's side of the PostgreSQL store: one connection per agent. The join is one INSERT on the
// (run, index) primary key, so of two agents with the same index exactly one joins. Barriers are
// waited for with LISTEN (and a slow re-check, in case a notification is missed); everything an
// agent writes NOTIFYs the coordinator in the same statement.
import type pg from 'pg'
import { checkHello, duplicate } from './memory.ts'
import { connectPg } from './pg-coordinator.ts'
import { agentsChannel, coordinatorChannel, NOW_SQL, SCHEMA } from './pg-schema.ts'
import { AgentRefused, type AgentStore, type Release, type RunSpec } from './protocol.ts'
import { Waiters } from './waiters.ts'

/** A missed notification costs at most this long at a barrier. */
const RECHECK_MS = 2000

export class PgAgentStore implements AgentStore {
  private readonly url: string
  private client: pg.Client | null = null
  private runKey = ''
  private index = -1
  private readonly waiters = new Waiters()

  constructor(url: string) {
    this.url = url
  }

  private get db(): pg.Client {
    if (!this.client) throw new Error('join the run first')
    return this.client
  }

  /** Run `sql` (which returns one row per change) and NOTIFY the coordinator in the same statement. */
  private async write(sql: string, params: unknown[]): Promise<void> {
    const n = params.length
    await this.db.query(
      `WITH w AS (${sql} RETURNING 1) SELECT pg_notify($${n + 1}, '${this.index}') FROM w LIMIT 1`,
      [...params, coordinatorChannel(this.runKey)],
    )
  }

  join: AgentStore['join'] = async (hello) => {
    const client = await connectPg(this.url, `cannonade agent ${hello.index}`)
    client.on('error', () => {}) // a lost connection fails the next call, which the agent reports
    client.on('notification', () => {
      this.waiters.wakeAll()
    })
    this.client = client
    this.runKey = hello.runKey
    this.index = hello.index
    let spec: RunSpec
    try {
      const run = await client.query<{ spec: RunSpec; state: string }>(
        `SELECT spec, state FROM ${SCHEMA}.runs WHERE run_key = $1`,
        [hello.runKey],
      )
      const row = run.rows[0]
      if (!row)
        throw new AgentRefused(
          `no run ${hello.runKey} in the coordination store (is the engine that started it running?)`,
        )
      if (row.state !== 'open')
        throw new AgentRefused(
          `run ${hello.runKey} has ${row.state === 'ended' ? 'ended' : 'been stopped'}; agents may no longer join it`,
        )
      spec = row.spec
      checkHello(hello, spec)
    } catch (err) {
      if (err instanceof AgentRefused) await this.close()
      if ((err as { code?: string }).code === '42P01') {
        await this.close()
        throw new AgentRefused(`no run ${hello.runKey} in the coordination store (its tables do not exist)`)
      }
      throw err
    }
    await client.query(`LISTEN "${agentsChannel(hello.runKey)}"`)
    const claimed = await client.query(
      `WITH ins AS (
         INSERT INTO ${SCHEMA}.agents (run_key, agent_index, host, pid, ledger) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT DO NOTHING RETURNING 1)
       SELECT pg_notify($6, 'join') FROM ins`,
      [hello.runKey, hello.index, hello.host, hello.pid, hello.ledger, coordinatorChannel(hello.runKey)],
    )
    if (claimed.rowCount === 0) {
      const prev = await client.query<{ host: string; pid: number }>(
        `SELECT host, pid FROM ${SCHEMA}.agents WHERE run_key = $1 AND agent_index = $2`,
        [hello.runKey, hello.index],
      )
      await this.close()
      throw duplicate(hello.index, hello.runKey, prev.rows[0] ?? { host: 'unknown', pid: 0 })
    }
    return spec
  }

  now: AgentStore['now'] = async () => (await this.db.query<{ now: number }>(NOW_SQL)).rows[0]!.now

  clock: AgentStore['clock'] = async (o) => {
    await this.write(
      `UPDATE ${SCHEMA}.agents SET offset_ms = $3, delay_ms = $4 WHERE run_key = $1 AND agent_index = $2`,
      [this.runKey, this.index, o.offsetMs, o.delayMs],
    )
  }

  heartbeat: AgentStore['heartbeat'] = async () => {
    const r = await this.db.query<{ state: string }>(
      `UPDATE ${SCHEMA}.agents a SET heartbeat_at = clock_timestamp() FROM ${SCHEMA}.runs r
       WHERE a.run_key = $1 AND a.agent_index = $2 AND r.run_key = a.run_key RETURNING r.state`,
      [this.runKey, this.index],
    )
    return { stop: (r.rows[0]?.state ?? 'ended') !== 'open' }
  }

  ready: AgentStore['ready'] = async (segment) => {
    await this.write(
      `UPDATE ${SCHEMA}.agents SET ready_segment = $3, state = 'ready' WHERE run_key = $1 AND agent_index = $2`,
      [this.runKey, this.index, segment],
    )
  }

  release: AgentStore['release'] = async (segment) => {
    for (;;) {
      // Listening since the join: a release committed after this read still wakes us.
      const wake = this.waiters.wait(RECHECK_MS)
      const r = await this.db.query<{ at_ms: number; start_second: number; state: string }>(
        `SELECT r.state, l.at_ms, l.start_second FROM ${SCHEMA}.runs r
         LEFT JOIN ${SCHEMA}.releases l ON l.run_key = r.run_key AND l.segment = $2 WHERE r.run_key = $1`,
        [this.runKey, segment],
      )
      const row = r.rows[0]
      if (!row || row.state !== 'open') return null
      if (row.at_ms !== null)
        return { segment, atMs: row.at_ms, startSecond: row.start_second } satisfies Release
      await wake
    }
  }

  started: AgentStore['started'] = async ({ segment, atMs }) => {
    await this.write(
      `UPDATE ${SCHEMA}.agents SET starts = starts || jsonb_build_object($3::text, $4::float8), state = 'running'
       WHERE run_key = $1 AND agent_index = $2`,
      [this.runKey, this.index, String(segment), atMs],
    )
  }

  second: AgentStore['second'] = async (s) => {
    await this.write(
      `INSERT INTO ${SCHEMA}.seconds (run_key, agent_index, segment, t, data) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (run_key, agent_index, segment, t) DO UPDATE SET data = EXCLUDED.data`,
      [this.runKey, this.index, s.segment, s.t, JSON.stringify(s)],
    )
  }

  segment: AgentStore['segment'] = async ({ segment, summary }) => {
    await this.write(
      `INSERT INTO ${SCHEMA}.segments (run_key, agent_index, segment, data, summary) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT DO NOTHING`,
      [this.runKey, this.index, segment.segment, JSON.stringify(segment), JSON.stringify(summary)],
    )
  }

  upload: AgentStore['upload'] = async (b) => {
    await this.db.query(
      `INSERT INTO ${SCHEMA}.blocks (run_key, agent_index, target_index, round, count, data) VALUES ($1, $2, $3, $4, $5, $6)`,
      [
        this.runKey,
        this.index,
        b.targetIndex,
        b.round,
        b.count,
        Buffer.from(b.data.buffer, b.data.byteOffset, b.data.byteLength),
      ],
    )
  }

  finish: AgentStore['finish'] = async (end) => {
    await this.write(
      `UPDATE ${SCHEMA}.agents SET end_info = $3, state = $4 WHERE run_key = $1 AND agent_index = $2`,
      [this.runKey, this.index, JSON.stringify(end), end.state],
    )
  }

  close: AgentStore['close'] = async () => {
    const client = this.client
    this.client = null
    await client?.end().catch(() => {})
  }
}

// PostgreSQL is an archive, never wiped by accident (issue 12, item 6), and never waited on forever
// (item 5). Against a real throwaway PostgreSQL: re-exports after a local prune keep the archived
// samples and say so, a prune or delete racing an export (another process, between two COPY chunks)
// changes nothing of it, and a server that does not answer (a TCP server that accepts and stays
// silent, a PostgreSQL backend stopped with SIGSTOP, a lock another export holds) ends the export
// with a message naming the server and what it was doing.
import { spawnSync } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { createServer, type Server, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiError } from '../api/errors.ts'
import { openDb, type Db } from '../db/db.ts'
import { agentReport, distributionOf } from '../testing/distribution.ts'
import { insertFixtureRun } from '../testing/fixtures.ts'
import { pruneLedger } from '../store/retention.ts'
import { CLI } from '../testing/process.ts'
import { exportPg } from './pg.ts'
import { pgAvailableForTests, startPg, type PgCluster } from '../testing/pg.ts'
import { testPgConnection } from './pg-check.ts'

const available = pgAvailableForTests()

async function failure(p: Promise<unknown>): Promise<ApiError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  )
  if (err instanceof ApiError) return err
  throw new Error(`expected an ApiError, got ${String(err)}`)
}

/** A TCP server that accepts connections and never says a word. */
async function silentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets: Socket[] = []
  const server: Server = createServer((s) => sockets.push(s))
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return {
    port: (server.address() as { port: number }).port,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy()
        server.close(() => r())
      }),
  }
}

describe('a PostgreSQL that does not answer', () => {
  const cases: { name: string; run: (url: string) => Promise<unknown> }[] = [
    {
      name: 'export',
      run: (url) => exportPg(insertedDb(), [1], url, undefined, { connectTimeoutMs: 800 }),
    },
    { name: 'connection test', run: (url) => testPgConnection(url, { timeoutMs: 800 }) },
  ]
  for (const c of cases) {
    it(`${c.name}: a server that accepts and stays silent is named, within the connect timeout`, async () => {
      const silent = await silentServer()
      try {
        const url = `postgres://u:secret@127.0.0.1:${silent.port}/db`
        const result = await c.run(url).then(
          (r) => r,
          (e: unknown) => e,
        )
        const message = result instanceof Error ? result.message : (result as { message: string }).message
        expect(message).toMatch(
          new RegExp(`127\\.0\\.0\\.1:${silent.port}.*no answer within the connection timeout`),
        )
        expect(message).not.toMatch(/secret/)
      } finally {
        await silent.close()
      }
    })
  }
})

function insertedDb(): Db {
  const db = openDb(':memory:')
  insertFixtureRun(db)
  return db
}

describe.skipIf(!available)('PostgreSQL as an archive', () => {
  let cluster: PgCluster
  let admin: pg.Client
  const samplesOf = async (origin: string): Promise<number> =>
    Number(
      (
        await admin.query<{ n: string }>(
          'SELECT count(*) AS n FROM cannonade.samples s JOIN cannonade.runs r ON r.id = s.run_id WHERE r.origin = $1',
          [origin],
        )
      ).rows[0]!.n,
    )
  const runRow = async (origin: string) =>
    (
      await admin.query<{ note: string; status: string }>(
        'SELECT note, status FROM cannonade.runs WHERE origin = $1',
        [origin],
      )
    ).rows

  beforeAll(async () => {
    cluster = await startPg({ durable: false })
    admin = new pg.Client({ connectionString: cluster.url })
    await admin.connect()
  })
  afterAll(async () => {
    await admin?.end()
    await cluster?.stop()
  })

  function fixture(startedAt: string) {
    const dir = mkdtempSync(join(tmpdir(), 'cannonade-archive-'))
    const dbPath = join(dir, 'cannonade.db')
    const db = openDb(dbPath)
    const run = insertFixtureRun(db, { samplesPerRound: 12_000, startedAt })
    return { db, dbPath, ...run, origin: `${run.prefix}@${startedAt}` }
  }

  const reexports: {
    name: string
    /** What changes locally between the first export and the second. */
    change: (db: Db, runId: number) => void
    samples: 'kept' | 'replaced'
    note: RegExp | null
  }[] = [
    {
      name: 'the raw samples were pruned locally',
      change: (db, id) => void pruneLedger(db, id),
      samples: 'kept',
      note: /raw samples were pruned locally on .*so the 24,000 archived samples in PostgreSQL were kept/,
    },
    {
      name: 'some samples are missing locally',
      change: (db, id) => void db.prepare('DELETE FROM samples WHERE run_id = ? AND seq % 2 = 0').run(id),
      samples: 'kept',
      note: /only 12,000 of its samples are stored locally, so the 24,000 archived samples/,
    },
    {
      name: 'only its note changed',
      change: (db, id) => void db.prepare("UPDATE runs SET note = 'looked at again' WHERE id = ?").run(id),
      samples: 'replaced',
      note: null,
    },
  ]
  for (const [i, c] of reexports.entries()) {
    it(`a re-export after ${c.name}: samples ${c.samples}, the run row updated, and the result says which`, async () => {
      const f = fixture(`2025-05-0${i + 1}T10:00:00.000Z`)
      const first = await exportPg(f.db, [f.runId], cluster.url)
      expect(first.archive).toEqual([
        { runId: f.runId, samples: 'written', archivedSamples: 24_000, note: null },
      ])
      c.change(f.db, f.runId)
      f.db.prepare("UPDATE runs SET note = 'looked at again' WHERE id = ?").run(f.runId)
      const again = await exportPg(f.db, [f.runId], cluster.url)
      expect(again.archive?.[0]).toMatchObject({ samples: c.samples, archivedSamples: 24_000 })
      if (c.note) expect(again.archive?.[0]?.note).toMatch(c.note)
      else expect(again.archive?.[0]?.note).toBeNull()
      expect(await samplesOf(f.origin)).toBe(24_000)
      expect(await runRow(f.origin)).toEqual([{ note: 'looked at again', status: 'done' }])
    })
  }

  it('the CLI says when archived samples were kept', async () => {
    const f = fixture('2025-05-09T10:00:00.000Z')
    await exportPg(f.db, [f.runId], cluster.url)
    pruneLedger(f.db, f.runId)
    f.db.close()
    const r = spawnSync(
      process.execPath,
      [CLI, 'export', 'pg', String(f.runId), '--url', cluster.url, '--db', f.dbPath],
      {
        encoding: 'utf8',
        timeout: 30_000,
      },
    )
    expect(r.status, r.stderr).toBe(0)
    expect(r.stdout).toMatch(/archived samples in PostgreSQL were kept/)
    expect(await samplesOf(f.origin)).toBe(24_000)
  })

  it('a run whose load agents kept their raw rows: the CLI exports the rest, names where they are, exits 1', async () => {
    const f = fixture('2025-05-11T10:00:00.000Z')
    // Its 24,000 requests are in two agents' own ledgers on other machines (--raw keep), not here.
    f.db.prepare('DELETE FROM samples WHERE run_id = ?').run(f.runId)
    const d = distributionOf('external', [
      agentReport(0, 'box-a:/srv/agents/a0/ledger.db', 12_000, false),
      agentReport(1, 'box-b:/srv/agents/a1/ledger.db', 12_000, false),
    ])
    f.db.prepare('UPDATE runs SET distribution = ? WHERE id = ?').run(JSON.stringify(d), f.runId)
    f.db.close()
    const r = spawnSync(
      process.execPath,
      [CLI, 'export', 'pg', String(f.runId), '--url', cluster.url, '--db', f.dbPath],
      { encoding: 'utf8', timeout: 30_000 },
    )
    expect(r.status, r.stderr).toBe(1)
    expect(r.stderr).toContain(`24,000 requests of run ${f.runId} are not in this database`)
    expect(r.stderr).toContain(`cannonade import ledger FILE --run ${f.runId}`)
    expect(r.stderr).toContain('agent 1 on box-b: /srv/agents/a1/ledger.db (12,000 requests)')
    // The rest of the run is archived.
    expect(await runRow(f.origin)).toEqual([{ note: '', status: 'done' }])
  })

  it('a first export of a pruned run writes it without samples, and says so', async () => {
    const f = fixture('2025-05-10T10:00:00.000Z')
    pruneLedger(f.db, f.runId)
    const res = await exportPg(f.db, [f.runId], cluster.url)
    expect(res.archive?.[0]).toMatchObject({ samples: 'written', archivedSamples: 0 })
    expect(res.archive?.[0]?.note).toMatch(/exported without raw samples/)
  })

  for (const m of ['prune', 'delete'] as const) {
    it(`a ${m} in another process racing the export changes nothing of it`, async () => {
      const f = fixture(`2025-05-2${m === 'prune' ? 1 : 2}T10:00:00.000Z`)
      await exportPg(f.db, [f.runId], cluster.url)
      let raced = false
      const res = await exportPg(f.db, [f.runId], cluster.url, (p) => {
        if (raced || p.rowsDone === 0 || p.rowsDone >= p.rowsTotal) return
        const r = spawnSync(process.execPath, [CLI, 'runs', m, String(f.runId), '--db', f.dbPath], {
          encoding: 'utf8',
          timeout: 30_000,
        })
        if (r.status !== 0) throw new Error(r.stderr)
        raced = true
      })
      expect(raced).toBe(true)
      expect(res.archive?.[0]).toMatchObject({ samples: 'replaced', archivedSamples: 24_000 })
      expect(await samplesOf(f.origin)).toBe(24_000)
    })
  }

  it('a backend stopped mid-COPY (SIGSTOP): the export ends, naming the server and the COPY', async () => {
    const f = fixture('2025-05-30T10:00:00.000Z')
    let stopped: number | null = null
    const err = await failure(
      exportPg(
        f.db,
        [f.runId],
        cluster.url,
        () => {
          if (stopped !== null) return
          const pid = cluster
            .psql("SELECT pid FROM pg_stat_activity WHERE application_name = 'cannonade export'")
            .trim()
          stopped = Number(pid)
          process.kill(stopped, 'SIGSTOP')
        },
        { idleMs: 1500 },
      ),
    )
    try {
      expect(err.code).toBe('unavailable')
      expect(err.message).toMatch(
        new RegExp(
          `PostgreSQL at 127\\.0\\.0\\.1:${cluster.port} did not answer for 2 s while exporting run ${f.runId} \\(COPY`,
        ),
      )
      expect(err.message).toMatch(/nothing of run .* was written/)
    } finally {
      if (stopped !== null) process.kill(stopped, 'SIGCONT')
    }
    // The archive holds nothing of the run: the server rolled the transaction back.
    expect(await samplesOf(f.origin)).toBe(0)
  })

  it('another export holding the run: the lock timeout says so', async () => {
    const f = fixture('2025-05-31T10:00:00.000Z')
    await exportPg(f.db, [f.runId], cluster.url)
    const holder = new pg.Client({ connectionString: cluster.url })
    await holder.connect()
    try {
      await holder.query('BEGIN')
      await holder.query('SELECT pg_advisory_xact_lock(hashtext($1))', [f.origin])
      const err = await failure(exportPg(f.db, [f.runId], cluster.url, undefined, { lockTimeoutMs: 300 }))
      expect(err.code).toBe('conflict')
      expect(err.message).toMatch(/another export of the same run into this database is still going/)
    } finally {
      await holder.query('ROLLBACK')
      await holder.end()
    }
  })
})

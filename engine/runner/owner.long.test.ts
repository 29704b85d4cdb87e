// A run whose supervisor dies is never `running` forever (issue 12, item 2). The real command is
// started as a child process and killed with SIGKILL at several moments; its runner must notice and
// exit on its own, and the next process to open the database must end the run `aborted`, saying
// what happened, with every stored request readable. Runs of live processes are left alone, and a
// recycled pid is not mistaken for a live owner.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { withEngine } from '../cli/common.ts'
import { openDb } from '../db/db.ts'
import { insertFixtureRun } from '../testing/fixtures.ts'
import { isAlive, processStart, thisProcess } from '../store/owner.ts'
import { recoverOrphanedRuns } from '../store/recover.ts'
import { ledgerRowCount } from '../ledger/samples-read.ts'
import { peek, spawnCli, waitUntil } from '../testing/process.ts'
import { startTarget, type CountingTarget } from '../testing/target.ts'

let dir = ''
let target: CountingTarget
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cannonade-owner-'))
  target = await startTarget({ delayMs: 1 })
})
afterAll(async () => {
  await target.close()
})

interface RunRowPeek {
  id: number
  status: string
  owner_pid: number | null
  worker_pid: number | null
  worker_start: string | null
}

function config(name: string, targets: number, duration: number, cooldown: number): string {
  const file = join(dir, `${name}.yaml`)
  const list = Array.from(
    { length: targets },
    (_, i) => `  - name: t${i}\n    url: ${target.url}/t${i}`,
  ).join('\n')
  writeFileSync(
    file,
    `version: 1\nname: ${name}\ntargets:\n${list}\nload:\n  connections: 4\n  duration: ${duration}\ncooldownSeconds: ${cooldown}\n`,
  )
  return file
}

const deaths: {
  name: string
  targets: number
  duration: number
  cooldown: number
  /** When to kill, from the database as another process sees it. */
  when: (db: string) => boolean
  /** Kill the runner too: it dies with its supervisor and cleans nothing up. */
  group?: boolean
  /** Requests were stored before the kill. */
  load: boolean
}[] = [
  {
    name: 'as soon as the run row exists, before any load',
    targets: 1,
    duration: 20,
    cooldown: 0,
    when: (db) => peek(db, "SELECT 1 FROM runs WHERE status = 'running'") !== undefined,
    load: false,
  },
  {
    name: 'in its first seconds of load',
    targets: 1,
    duration: 20,
    cooldown: 0,
    when: (db) => (peek<{ n: number }>(db, 'SELECT count(*) AS n FROM series')?.n ?? 0) >= 1,
    load: true,
  },
  {
    name: 'mid-window, with blocks written',
    targets: 1,
    duration: 20,
    cooldown: 0,
    when: (db) => (peek<{ n: number }>(db, 'SELECT count(*) AS n FROM series')?.n ?? 0) >= 3,
    load: true,
  },
  {
    name: 'during the cooldown between two targets',
    targets: 2,
    duration: 1,
    cooldown: 20,
    when: (db) =>
      (peek<{ n: number }>(db, 'SELECT count(*) AS n FROM run_targets WHERE summary IS NOT NULL')?.n ?? 0) >=
      1,
    load: true,
  },
  {
    name: 'together with its runner (nothing ends the segment)',
    targets: 1,
    duration: 20,
    cooldown: 0,
    group: true,
    when: (db) => (peek<{ n: number }>(db, 'SELECT count(*) AS n FROM series')?.n ?? 0) >= 2,
    load: true,
  },
]

describe('a run whose supervisor is killed (kill -9 of the CLI)', () => {
  for (const d of deaths) {
    it(`${d.name}: the runner exits, and the next process to open the database ends it aborted`, async () => {
      const db = join(dir, `${d.name.replace(/\W+/g, '-')}.db`)
      const cli = spawnCli(['run', config('death', d.targets, d.duration, d.cooldown), '--db', db, '--quiet'])
      await waitUntil(() => d.when(db), 20_000, `the moment to kill (${d.name})`)
      const row = await waitUntil(
        () => peek<RunRowPeek>(db, 'SELECT * FROM runs ORDER BY id DESC LIMIT 1'),
        5000,
        'the run row',
      )
      const worker = await waitUntil(
        () => peek<RunRowPeek>(db, 'SELECT * FROM runs WHERE id = ? AND worker_pid IS NOT NULL', row.id),
        5000,
        'the runner pid',
      )
      if (d.group) process.kill(worker.worker_pid!, 'SIGKILL')
      cli.child.kill('SIGKILL')
      expect((await cli.result).signal).toBe('SIGKILL')
      // The runner noticed its parent was gone and ended the segment by itself (or was killed too).
      await waitUntil(
        () => !isAlive({ pid: worker.worker_pid, start: worker.worker_start }),
        15_000,
        'the orphaned runner to exit',
      )
      const goneBy = Date.now()
      expect(peek<RunRowPeek>(db, 'SELECT status FROM runs WHERE id = ?', row.id)?.status).toBe('running')
      // Found after it died (issue 20, item 8): it ends at its last stored second, not when found.
      const lastT = peek<{ t: number | null }>(
        db,
        'SELECT max(t) AS t FROM series WHERE run_id = ?',
        row.id,
      )?.t

      await withEngine(db, async (host) => {
        const run = await host.runs.get(row.id)
        expect(run.status).toBe('aborted')
        if (d.group) {
          expect(typeof lastT).toBe('number')
          expect((Date.parse(run.endedAt!) - Date.parse(run.startedAt)) / 1000).toBe(lastT! + 1)
          // No later than the runner was seen gone, so not when the next process found the run.
          expect(Date.parse(run.endedAt!)).toBeLessThanOrEqual(goneBy)
        }
        expect(run.error).toMatch(new RegExp(`pid ${row.owner_pid}\\) ended while the run was going`))
        const ledger = await host.runs.ledger(row.id)
        if (d.load) {
          expect(ledger.rows).toBeGreaterThan(0)
          // A runner that outlived its supervisor wrote its segment's summary itself (with its
          // phases); a killed one left it to the next opener, which rebuilt it from the ledger.
          expect(run.results[0]!.phases.length > 0).toBe(!d.group)
        }
        const samples = await host.runs.samples(row.id, { limit: 1 })
        expect(samples.total).toBe(ledger.rows)
        // Every stored request is in a summary, and every id stored is one the server received.
        const inflight = run.results.reduce((s, r) => s + (r.errors.inflight ?? 0), 0)
        expect(run.results.reduce((s, r) => s + r.requests, 0) + inflight).toBe(ledger.rows)
        const seen = new Set(target.ids)
        const all = await host.runs.samples(row.id, { limit: 10_000 })
        for (const s of all.rows) expect(seen.has(s.correlationId)).toBe(true)
        // No longer refused as running.
        await expect(host.runs.prune(row.id)).resolves.toMatchObject({ rows: 0 })
      })
    }, 60_000)
  }

  it('leaves a run whose owner is alive alone, whichever process opens the database', async () => {
    const db = join(dir, 'live.db')
    const cli = spawnCli(['run', config('live', 1, 3, 0), '--db', db, '--quiet'])
    const row = await waitUntil(
      () => peek<RunRowPeek>(db, "SELECT * FROM runs WHERE status = 'running' AND worker_pid IS NOT NULL"),
      20_000,
      'the run to start',
    )
    await withEngine(db, async (host) => {
      expect((await host.runs.get(row.id)).status).toBe('running')
    })
    expect((await cli.result).code).toBe(0)
    await withEngine(db, async (host) => expect((await host.runs.get(row.id)).status).toBe('done'))
  }, 60_000)
})

describe('which runs have no live owner', () => {
  const self = thisProcess()
  const gone = 2 ** 31 - 2
  const cases: {
    name: string
    owner: [number | null, string | null]
    worker: [number | null, string | null]
    recovered: boolean
  }[] = [
    {
      name: 'its owner is this live process',
      owner: [self.pid, self.start],
      worker: [null, null],
      recovered: false,
    },
    {
      name: "its owner's pid is alive but started at another time (recycled)",
      owner: [self.pid, 'another-boot:123'],
      worker: [null, null],
      recovered: true,
    },
    { name: 'its owner no longer exists', owner: [gone, 'x:1'], worker: [gone, 'x:2'], recovered: true },
    {
      name: 'its owner is gone but its runner is still writing its end',
      owner: [gone, 'x:1'],
      worker: [self.pid, processStart(self.pid)],
      recovered: false,
    },
    {
      name: "its runner's pid was recycled",
      owner: [gone, 'x:1'],
      worker: [self.pid, 'another-boot:9'],
      recovered: true,
    },
    {
      name: 'an old row with a dead runner and no owner',
      owner: [null, null],
      worker: [gone, null],
      recovered: true,
    },
    { name: 'an old row with nothing recorded', owner: [null, null], worker: [null, null], recovered: false },
  ]
  for (const c of cases) {
    it(`${c.name}: ${c.recovered ? 'aborted, with its stored requests summarized' : 'left running'}`, async () => {
      const db = openDb(':memory:')
      const { runId, samples } = insertFixtureRun(db, { status: 'running' })
      db.prepare('UPDATE run_targets SET summary = NULL WHERE run_id = ?').run(runId)
      db.prepare(
        'UPDATE runs SET owner_pid = ?, owner_start = ?, worker_pid = ?, worker_start = ? WHERE id = ?',
      ).run(c.owner[0], c.owner[1], c.worker[0], c.worker[1], runId)
      const { recovered } = await recoverOrphanedRuns(db, { pid: 999_999, start: 'the-opener' })
      const row = db.prepare('SELECT status, error FROM runs WHERE id = ?').get(runId) as {
        status: string
        error: string | null
      }
      expect(recovered.map((r) => r.runId)).toEqual(c.recovered ? [runId] : [])
      expect(row.status).toBe(c.recovered ? 'aborted' : 'running')
      if (c.recovered) {
        expect(row.error).toMatch(/ended while the run was going/)
        const summarized = db
          .prepare('SELECT count(*) FROM run_targets WHERE run_id = ? AND summary IS NOT NULL')
          .pluck()
          .get(runId)
        expect(summarized).toBe(2)
        expect(ledgerRowCount(db, runId)).toBe(samples)
      }
    })
  }
})

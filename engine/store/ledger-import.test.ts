// An agent's ledger is checked like any input (issue 29, items 2 and 14): `cannonade import ledger`
// of a run of two agents, agent 1's ledger kept, against each hostile file (a block whose count
// its data does not hold, sequence numbers that repeat, are no numbers or another agent's, targets
// and rounds the run lacks, text in numeric columns, views where tables belong, a FIFO, a file
// holding less than the agent reported). Each is refused with exit 2 and its reason, nothing is
// stored, and the run exports as before; the true ledger then imports, once. A database holding
// a damaged block from before (migration 021) is repaired when opened, and every command works.
import Database from 'better-sqlite3'
import { execFileSync } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { runCommand } from '../testing/cli.ts'
import { agentReport, distributionOf } from '../testing/distribution.ts'
import { insertFixtureRun } from '../testing/fixtures.ts'
import { encodeBlock, newBlockColumns, ROW_BYTES } from '../ledger/blocks.ts'
import { openDb } from '../db/db.ts'

const dir = mkdtempSync(join(tmpdir(), 'cannonade-ledger-import-'))
const PREFIX = 'ab12cd34'
const ROWS = 200 // per target and round; agent 1 kept the odd seqs
/** The run both sides hold: the host's part of it and agent 1's ledger. */
const RUN = { targets: [{ name: 'a' }], rounds: 2, samplesPerRound: ROWS, prefix: PREFIX }

/** The host's run (agent 0's requests in, agent 1's kept) in a fresh database; its path and id. */
function hostRun(name: string, perAgent = [0, 1]): { dbPath: string; runId: number; kept: number } {
  const dbPath = join(dir, name, 'c.db')
  mkdirSync(join(dir, name), { recursive: true })
  const db = openDb(dbPath)
  const { runId } = insertFixtureRun(db, RUN)
  const kept = db.prepare('DELETE FROM samples WHERE run_id = ? AND seq % 2 = 1').run(runId).changes
  const agents = perAgent.map((i) =>
    agentReport(i, `/x/agent-${i}/ledger.db`, i === 1 ? kept : ROWS * 2 - kept, i === 0),
  )
  db.prepare('UPDATE runs SET distribution = ? WHERE id = ?').run(
    JSON.stringify({ ...distributionOf('external', agents), agents: 2 }),
    runId,
  )
  db.close()
  return { dbPath, runId, kept }
}

/** Agent 1's true ledger: the same fixture run, its odd requests only, as rows. */
let trueLedger = ''
beforeAll(() => {
  trueLedger = join(dir, 'true-ledger.db')
  const db = openDb(trueLedger)
  const { runId } = insertFixtureRun(db, RUN)
  db.prepare('DELETE FROM samples WHERE run_id = ? AND seq % 2 = 0').run(runId)
  db.close()
})

/** A copy of the true ledger changed by `sql` (on its own connection, no checks). */
function hostile(name: string, change: (db: Database.Database, runId: number) => void): string {
  const file = join(dir, `${name.replace(/\W+/g, '-')}.db`)
  copyFileSync(trueLedger, file)
  const db = new Database(file)
  const runId = db.prepare('SELECT id FROM runs').pluck().get() as number
  change(db, runId)
  db.close()
  return file
}

/** Replace the ledger's rows by one block built by `fill` (columns of `n` rows of agent 1). */
function oneBlock(
  db: Database.Database,
  runId: number,
  n: number,
  fill: (c: ReturnType<typeof newBlockColumns>, i: number) => void,
  o: { target?: number; round?: number; count?: number; data?: (d: Buffer) => Buffer } = {},
): void {
  const c = newBlockColumns(n)
  for (let i = 0; i < n; i++) {
    c.seq[i] = 1 + 2 * i
    c.latencyUs[i] = 100
    c.status[i] = 200
    fill(c, i)
  }
  c.count = n
  const data = encodeBlock(c)
  db.prepare('DELETE FROM samples').run()
  db.prepare(
    'INSERT INTO sample_blocks (run_id, target_index, round, count, data) VALUES (?, ?, ?, ?, ?)',
  ).run(runId, o.target ?? 0, o.round ?? 1, o.count ?? n, o.data ? o.data(data) : data)
}

/** The first samples row set to `assignment`, in a copy of the table without its column types. */
function looseFirstSample(db: Database.Database, assignment: string): void {
  db.exec('CREATE TABLE s2 AS SELECT * FROM samples; DROP TABLE samples; ALTER TABLE s2 RENAME TO samples')
  db.prepare(`UPDATE samples SET ${assignment} WHERE rowid = (SELECT min(rowid) FROM samples)`).run()
}

const CASES: [string, () => string, RegExp][] = [
  [
    'a block claiming 10,000,000 requests over 57 bytes',
    () =>
      hostile('count-10m', (db, r) =>
        oneBlock(db, r, 1, () => {}, { count: 10_000_000, data: (d) => d.subarray(0, 57) }),
      ),
    /says it holds 10000000 requests \(a block holds 1 to 4096\)/,
  ],
  [
    'a block claiming 2^31 requests',
    () => hostile('count-2-31', (db, r) => oneBlock(db, r, 4, () => {}, { count: 2 ** 31 })),
    /says it holds 2147483648 requests \(a block holds 1 to 4096\)/,
  ],
  [
    'a block claiming 0 requests',
    () => hostile('count-0', (db, r) => oneBlock(db, r, 4, () => {}, { count: 0 })),
    /says it holds 0 requests/,
  ],
  [
    'a block claiming -5 requests',
    () => hostile('count-neg', (db, r) => oneBlock(db, r, 4, () => {}, { count: -5 })),
    /says it holds -5 requests/,
  ],
  [
    'a block one byte short',
    () =>
      hostile('short', (db, r) => oneBlock(db, r, 4, () => {}, { data: (d) => d.subarray(0, d.length - 1) })),
    /its data is 243 bytes/,
  ],
  [
    'a block one byte long',
    () =>
      hostile('long', (db, r) =>
        oneBlock(db, r, 4, () => {}, { data: (d) => Buffer.concat([d, Buffer.alloc(1)]) }),
      ),
    /its data is 245 bytes/,
  ],
  [
    'every request with the same seq',
    () => hostile('same-seq', (db, r) => oneBlock(db, r, 4, (c, i) => (c.seq[i] = 1))),
    /sequence number 1 is there twice/,
  ],
  [
    'a NaN seq ("agent NaN")',
    () => hostile('nan-seq', (db, r) => oneBlock(db, r, 4, (c, i) => (c.seq[i] = i === 0 ? 1 : NaN))),
    /sequence number NaN is not a whole number/,
  ],
  [
    'a first seq that is NaN',
    () => hostile('nan-first', (db, r) => oneBlock(db, r, 4, (c, i) => (c.seq[i] = NaN))),
    /first sequence number \(NaN\) is not a whole number/,
  ],
  [
    'a negative seq',
    () => hostile('neg-seq', (db, r) => oneBlock(db, r, 4, (c, i) => (c.seq[i] = i === 0 ? 1 : -3))),
    /sequence number -3 is not a whole number from 0/,
  ],
  [
    'a fractional seq',
    () => hostile('frac-seq', (db, r) => oneBlock(db, r, 4, (c, i) => (c.seq[i] = i === 0 ? 1 : 3.5))),
    /sequence number 3\.5/,
  ],
  [
    'a seq past 2^53',
    () => hostile('huge-seq', (db, r) => oneBlock(db, r, 4, (c, i) => (c.seq[i] = i === 0 ? 1 : 2 ** 60))),
    /is not a whole number/,
  ],
  [
    'another agent’s requests mixed in',
    () => hostile('mixed', (db, r) => oneBlock(db, r, 4, (c, i) => (c.seq[i] = i === 2 ? 4 : 1 + 2 * i))),
    /mixes the requests of several agents \(sequence number 4 is agent 0's\)/,
  ],
  [
    'a target the run does not have',
    () => hostile('target-5', (db, r) => oneBlock(db, r, 4, () => {}, { target: 5 })),
    /the run has 1 target\n/,
  ],
  [
    'a negative target',
    () => hostile('target-neg', (db, r) => oneBlock(db, r, 4, () => {}, { target: -1 })),
    /the run has 1 target\n/,
  ],
  [
    'a round the run does not have',
    () => hostile('round-7', (db, r) => oneBlock(db, r, 4, () => {}, { round: 7 })),
    /the run has 2 rounds\n/,
  ],
  [
    'round 0 (rounds count from 1)',
    () => hostile('round-0', (db, r) => oneBlock(db, r, 4, () => {}, { round: 0 })),
    /the run has 2 rounds\n/,
  ],
  [
    'an error kind no agent writes',
    () => hostile('error-200', (db, r) => oneBlock(db, r, 4, (c, i) => (c.error[i] = 200))),
    /error kind 200, which no agent writes/,
  ],
  [
    'a phase the run does not have',
    () => hostile('phase-9', (db, r) => oneBlock(db, r, 4, (c, i) => (c.phase[i] = 9))),
    /is of phase 9; the run has 1/,
  ],
  [
    'a latency that is Infinity',
    () => hostile('inf-latency', (db, r) => oneBlock(db, r, 4, (c, i) => (c.latencyUs[i] = Infinity))),
    /holds a time or size that is no number/,
  ],
  [
    'bytes that are NaN',
    () => hostile('nan-bytes', (db, r) => oneBlock(db, r, 4, (c, i) => (c.bytes[i] = NaN))),
    /holds a time or size that is no number/,
  ],
  [
    'text in a numeric column of a samples row',
    () => hostile('text', (db) => looseFirstSample(db, "status = 'abc'")),
    /holds a value that is no whole number/,
  ],
  [
    'a fraction in a samples row',
    () => hostile('fraction', (db) => looseFirstSample(db, 'bytes = 1.5')),
    /holds a value that is no whole number/,
  ],
  [
    'samples as a view with a recursive CTE',
    () =>
      hostile('view', (db) =>
        db.exec(
          'DROP TABLE samples; CREATE VIEW samples AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT n AS seq, 1 AS run_id FROM r',
        ),
      ),
    /its samples is a view, not a table/,
  ],
  [
    'runs as a view',
    () =>
      hostile('runs-view', (db) =>
        db.exec(`ALTER TABLE runs RENAME TO r0; CREATE VIEW runs AS SELECT * FROM r0`),
      ),
    /its runs is a view, not a table/,
  ],
  [
    'no sample_blocks table',
    () => hostile('no-blocks', (db) => db.exec('DROP TABLE sample_blocks')),
    /its sample_blocks is missing/,
  ],
  [
    'fewer requests than the agent reported',
    () =>
      hostile('fewer', (db) =>
        db.exec('DELETE FROM samples WHERE rowid IN (SELECT rowid FROM samples LIMIT 3)'),
      ),
    /holds 197 requests of agent 1, which reported 200 in its ledger/,
  ],
  [
    'another run’s ledger',
    () => hostile('other-run', (db) => db.exec(`UPDATE runs SET correlation_prefix = 'ffffffff'`)),
    /holds no requests of run \d+ \(its correlation ids start with ab12cd34-\)/,
  ],
  [
    'a FIFO',
    () => {
      const f = join(dir, 'fifo.db')
      execFileSync('mkfifo', [f])
      return f
    },
    /is not a regular file/,
  ],
  ['/dev/zero', () => '/dev/zero', /is not a regular file/],
  ['a folder', () => dir, /is a folder/],
  [
    'a file that is no database',
    () =>
      hostile('not-db', () => {}).replace(/$/, '') &&
      (execFileSync('sh', ['-c', `printf 'not sqlite' > ${join(dir, 'text.db')}`]), join(dir, 'text.db')),
    /is not a SQLite database/,
  ],
]

/** `export json` of the run to `<runId>-<tag>.json`: what it says and its exit code. */
const exportRun = (dbPath: string, runId: number, tag: string) =>
  runCommand(dbPath, ['export', 'json', String(runId), '--out', join(dir, `${runId}-${tag}.json`)])

describe('import ledger refuses a hostile agent ledger, storing nothing', () => {
  for (const [what, make, words] of CASES)
    it(what, async () => {
      const { dbPath, runId } = hostRun(what.replace(/\W+/g, '-'))
      const before = await exportRun(dbPath, runId, 'before')
      const r = await runCommand(dbPath, ['import', 'ledger', make(), '--run', String(runId)])
      expect(r.err).toMatch(words)
      expect(r.code).toBe(2)
      const db = openDb(dbPath, { readonly: true })
      expect(db.prepare('SELECT count(*) FROM sample_blocks').pluck().get()).toBe(0)
      expect(db.prepare('SELECT count(*) FROM samples WHERE seq % 2 = 1').pluck().get()).toBe(0)
      db.close()
      const after = await exportRun(dbPath, runId, 'after')
      expect([after.code, after.err.replace(/-after/g, '')]).toEqual([
        before.code,
        before.err.replace(/-before/g, ''),
      ])
    })

  it('an agent the run does not have', async () => {
    const { dbPath, runId } = hostRun('no-agent-1', [0])
    const r = await runCommand(dbPath, ['import', 'ledger', trueLedger, '--run', String(runId)])
    expect([r.code, r.err]).toEqual([2, expect.stringMatching(/agent 1 is not one of run \d+'s/)])
  })

  it('the true ledger imports once: every request of the run, each once', async () => {
    const { dbPath, runId, kept } = hostRun('true')
    const r = await runCommand(dbPath, ['import', 'ledger', trueLedger, '--run', String(runId)])
    expect([r.code, r.out]).toEqual([0, expect.stringContaining(`imported agent 1's ${kept} requests`)])
    const again = await runCommand(dbPath, ['import', 'ledger', trueLedger, '--run', String(runId)])
    expect([again.code, again.err]).toEqual([
      2,
      expect.stringMatching(/agent 1's requests are already in run/),
    ])
    const db = openDb(dbPath, { readonly: true })
    const one = (sql: string) => db.prepare(sql).pluck().get(runId)
    expect(one('SELECT count(*) FROM samples WHERE run_id = ?')).toBe(ROWS * 2)
    expect(one('SELECT count(DISTINCT seq) FROM samples WHERE run_id = ?')).toBe(ROWS * 2)
    db.close()
  })
})

describe('a database holding a damaged block from before', () => {
  it('is repaired when opened (migration 021): every command works, the good requests kept', async () => {
    expect(ROW_BYTES).toBe(61) // the migration's arithmetic
    const { dbPath, runId } = hostRun('damaged')
    const db = new Database(dbPath)
    db.prepare(
      'INSERT INTO sample_blocks (run_id, target_index, round, count, data) VALUES (?, 0, 0, ?, ?)',
    ).run(runId, 10_000_000, Buffer.alloc(57))
    db.prepare(
      'INSERT INTO sample_blocks (run_id, target_index, round, count, data) VALUES (?, 0, 0, ?, ?)',
    ).run(runId, 2 ** 31, Buffer.alloc(61))
    db.prepare('DELETE FROM schema_migrations WHERE version = 21').run()
    db.close()
    for (const argv of [
      ['runs', 'list'],
      ['runs', 'show', String(runId)],
      ['export', 'json', String(runId), '--out', join(dir, 'd.json')],
    ]) {
      const r = await runCommand(dbPath, argv)
      expect([argv.join(' '), r.err]).toEqual([
        argv.join(' '),
        expect.not.stringMatching(/allocation|damaged|memory/),
      ])
    }
    const check = openDb(dbPath, { readonly: true })
    expect(check.prepare('SELECT count(*) FROM sample_blocks').pluck().get()).toBe(0)
    expect(check.prepare('SELECT count(*) FROM samples WHERE run_id = ?').pluck().get(runId)).toBe(ROWS)
    check.close()
  })
})

// Export and report paths (issue 20, item 3): every file export of the CLI (csv, json, junit) and
// the report's HTML, written to hostile outputs: a full device, standard output, a FIFO, the
// database and its companions, the data folder's own files, a folder, a missing folder, a symlink
// to the database. Each row states the exit code and what the message names; the database keeps
// every row, the device stays a device, and no file is left that the command was not asked for.
import { spawnSync } from 'node:child_process'
import {
  createReadStream,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { removeStalePartials } from '../exports/write.ts'
import { runsFileName } from '../host/outputs.ts'
import { createReport } from '../report/index.ts'
import Database from 'better-sqlite3'
import { migrate, openDb } from '../db/db.ts'
import { HistoryStore } from '../store/history-store.ts'
import { runCommand } from '../testing/cli.ts'
import { insertFixtureRun } from '../testing/fixtures.ts'
import { spawnCli } from '../testing/process.ts'

const root = mkdtempSync(join(tmpdir(), 'cannonade-outputs-'))
const data = join(root, 'data')
const elsewhere = join(root, 'elsewhere')
const DB = join(data, 'cannonade.db')
let runId = 0
const savedDataDir = process.env.CANNONADE_DATA_DIR

beforeAll(() => {
  mkdirSync(data)
  mkdirSync(elsewhere)
  process.env.CANNONADE_DATA_DIR = data
  const db = openDb(DB)
  runId = insertFixtureRun(db, { samplesPerRound: 500 }).runId
  db.close()
  writeFileSync(join(data, 'settings.json'), '{}\n')
  writeFileSync(`${DB}-reserve`, '')
  symlinkSync(DB, join(elsewhere, 'link-to-db.csv'))
  spawnSync('mkfifo', [join(elsewhere, 'fifo')])
})
afterAll(() => {
  if (savedDataDir === undefined) delete process.env.CANNONADE_DATA_DIR
  else process.env.CANNONADE_DATA_DIR = savedDataDir
  rmSync(root, { recursive: true, force: true })
})

function counts(): Record<string, number> {
  const db = openDb(DB, { readonly: true })
  try {
    const one = (t: string) => db.prepare(`SELECT count(*) FROM ${t}`).pluck().get() as number
    return { runs: one('runs'), samples: one('samples'), series: one('series') }
  } finally {
    db.close()
  }
}

const cli = (...argv: string[]) => runCommand(DB, argv)

const KINDS = ['csv', 'json', 'junit'] as const

/** Hostile outputs: the path, the exit code, what the message says. */
export const HOSTILE_OUTPUTS: { name: string; path: () => string; code: number; says: RegExp }[] = [
  { name: '/dev/full', path: () => '/dev/full', code: 1, says: /\/dev\/full.*(ENOSPC|no space)/i },
  { name: 'the database', path: () => DB, code: 2, says: /refusing .*history database/ },
  { name: 'its WAL', path: () => `${DB}-wal`, code: 2, says: /history database's file .*-wal/ },
  { name: 'its SHM', path: () => `${DB}-shm`, code: 2, says: /history database's file .*-shm/ },
  { name: 'its reserve', path: () => `${DB}-reserve`, code: 2, says: /history database's file .*-reserve/ },
  { name: 'a backup of it', path: () => `${DB}.v12.bak`, code: 2, says: /backup of the history database/ },
  {
    name: 'settings.json',
    path: () => join(data, 'settings.json'),
    code: 2,
    says: /data folder's own files/,
  },
  { name: 'a new file in the data folder', path: () => join(data, 'x.csv'), code: 2, says: /data folder/ },
  {
    name: 'a symlink to the db',
    path: () => join(elsewhere, 'link-to-db.csv'),
    code: 2,
    says: /history database/,
  },
  { name: 'a folder', path: () => elsewhere, code: 2, says: /it is a folder, not a file/ },
  { name: 'a missing folder', path: () => join(root, 'missing', 'x.csv'), code: 2, says: /does not exist/ },
  { name: 'an empty path', path: () => '', code: 2, says: /--out FILE is required|empty/ },
]

describe('export to hostile paths (issue 20, item 3)', () => {
  const cases = KINDS.flatMap((kind) => HOSTILE_OUTPUTS.map((o) => ({ kind, ...o })))
  it.each(cases)('export $kind --out $name: exit $code, nothing lost, nothing left', async (c) => {
    const before = counts()
    const dataFiles = readdirSync(data).sort()
    const r = await cli('export', c.kind, String(runId), '--out', c.path())
    expect(r.code, r.err).toBe(c.code)
    expect(r.err).toMatch(c.says)
    expect(r.out).not.toMatch(/wrote/)
    expect(counts()).toEqual(before)
    expect(readdirSync(data).sort()).toEqual(dataFiles)
    expect(readdirSync(elsewhere).sort()).toEqual(['fifo', 'link-to-db.csv'])
    expect(lstatSync(join(elsewhere, 'link-to-db.csv')).isSymbolicLink()).toBe(true)
    expect(statSync('/dev/full').isCharacterDevice()).toBe(true)
  })

  afterAll(() => console.log(`hostile cases tried: ${cases.length} (export paths)`))
})

describe('export to what is not a regular file is written directly', () => {
  it.each(KINDS)('export %s to /dev/null and to a FIFO: the device and the FIFO stay', async (kind) => {
    const r = await cli('export', kind, String(runId), '--out', '/dev/null')
    expect(r.code, r.err).toBe(0)
    expect(statSync('/dev/null').isCharacterDevice()).toBe(true)
    const fifo = join(elsewhere, 'fifo')
    let got = ''
    const reader = new Promise<void>((resolve, reject) => {
      const s = createReadStream(fifo, 'utf8')
      s.on('data', (d) => (got += String(d)))
      s.on('end', resolve)
      s.on('error', reject)
    })
    const w = await cli('export', kind, String(runId), '--out', fifo)
    await reader
    expect(w.code, w.err).toBe(0)
    expect(got.length).toBeGreaterThan(50)
    expect(statSync(fifo).isFIFO()).toBe(true)
    expect(readdirSync(elsewhere).sort()).toEqual(['fifo', 'link-to-db.csv'])
  })

  it('--out - and --out /dev/stdout write to standard output, and say so on stderr', async () => {
    for (const out of ['-', '/dev/stdout']) {
      const r = await spawnCli(['export', 'csv', String(runId), '--out', out, '--db', DB]).result
      expect(r.code, r.stderr).toBe(0)
      expect(r.stdout.split('\n')[0]).toMatch(/^correlation_id,/)
      expect(r.stdout.trimEnd().split('\n')).toHaveLength(1001)
      expect(r.stderr).toMatch(/wrote 1,000 samples/)
    }
    expect(lstatSync('/dev/stdout').isSymbolicLink()).toBe(true)
  })
})

describe('export to a regular file', () => {
  it('replaces a file through its symlink (the link stays), privately', async () => {
    const file = join(root, 'real.csv')
    writeFileSync(file, 'old\n')
    symlinkSync(file, join(root, 'link.csv'))
    const r = await cli('export', 'csv', String(runId), '--out', join(root, 'link.csv'))
    expect(r.code, r.err).toBe(0)
    expect(lstatSync(join(root, 'link.csv')).isSymbolicLink()).toBe(true)
    expect(readFileSync(file, 'utf8')).toMatch(/^correlation_id,/)
    expect(statSync(file).mode & 0o777).toBe(0o600)
  })

  it("removes a dead process's partial file, keeps a live one's", async () => {
    const dead = spawnSync(process.execPath, [
      '-e',
      'process.stdout.write(String(process.pid))',
    ]).stdout.toString()
    const dir = join(root, 'stale')
    mkdirSync(dir)
    writeFileSync(join(dir, `x.csv.partial-${dead}`), 'half')
    writeFileSync(join(dir, `other.csv.partial-${process.ppid}`), 'live')
    const r = await cli('export', 'csv', String(runId), '--out', join(dir, 'x.csv'))
    expect(r.code, r.err).toBe(0)
    expect(readdirSync(dir).sort()).toEqual([`other.csv.partial-${process.ppid}`, 'x.csv'])
    expect(removeStalePartials(dir)).toEqual([])
  })
})

describe("the Api's JSON export file name", () => {
  it('is bounded for 1,000 ids, and differs between lists that share their first ids', () => {
    const many = Array.from({ length: 1000 }, (_, i) => i + 1)
    const name = runsFileName(many)
    expect(name.length).toBeLessThan(80)
    expect(name).toMatch(/^runs-1-2-3-4-5-6-and-994-more-[0-9a-f]{10}\.json$/)
    expect(runsFileName([...many.slice(0, 999), 5000])).not.toBe(name)
    expect(runsFileName([3, 4])).toBe('runs-3-4.json')
    expect(existsSync(join(root, name))).toBe(false)
  })
})

describe('run ids', () => {
  it('are never given again after the newest run is deleted (its exports keep their own names)', () => {
    const db = openDb(':memory:')
    const a = insertFixtureRun(db, { samplesPerRound: 10 }).runId
    const b = insertFixtureRun(db, { samplesPerRound: 10 }).runId
    db.prepare('DELETE FROM runs WHERE id = ?').run(b)
    const c = insertFixtureRun(db, { samplesPerRound: 10 }).runId
    expect([a, b, c]).toEqual([1, 2, 3])
    db.close()
  })
})

describe('the report writes through the same checks', () => {
  afterAll(() =>
    console.log(
      `hostile cases tried: ${HOSTILE_OUTPUTS.filter((o) => o.code === 2 && o.path() !== '').length + 1} (report paths)`,
    ),
  )
  it.each(HOSTILE_OUTPUTS.filter((o) => o.code === 2 && o.path() !== ''))(
    'createReport html --out $name: refused, nothing lost',
    async (o) => {
      const before = counts()
      const db = openDb(DB)
      try {
        await expect(
          createReport(new HistoryStore(db), [runId], { out: o.path(), format: 'html' }),
        ).rejects.toThrow(o.says)
      } finally {
        db.close()
      }
      expect(counts()).toEqual(before)
      expect(readdirSync(elsewhere).sort()).toEqual(['fifo', 'link-to-db.csv'])
    },
  )

  it('createReport html to /dev/full fails with the device named, and the device stays', async () => {
    const db = openDb(DB)
    try {
      await expect(
        createReport(new HistoryStore(db), [runId], { out: '/dev/full', format: 'html' }),
      ).rejects.toThrow(/\/dev\/full/)
    } finally {
      db.close()
    }
    expect(statSync('/dev/full').isCharacterDevice()).toBe(true)
  })
})

describe('migration 014 on a database of schema 13', () => {
  it('keeps every run and row; from then on a deleted newest run’s id goes to no one', () => {
    const old = join(root, 'migrations-13')
    mkdirSync(old)
    const all = new URL('../db/migrations/', import.meta.url).pathname
    for (const f of readdirSync(all).filter((n) => /^0(0\d|1[0-3])_/.test(n)))
      writeFileSync(join(old, f), readFileSync(join(all, f)))
    const file = join(root, 'v13.db')
    const db13 = new Database(file)
    migrate(db13, null, old)
    db13.pragma('foreign_keys = ON')
    const a = insertFixtureRun(db13, { samplesPerRound: 100 }).runId
    const b = insertFixtureRun(db13, { samplesPerRound: 100 }).runId
    db13.prepare('DELETE FROM runs WHERE id = ?').run(b)
    const samples = db13.prepare('SELECT count(*) FROM samples').pluck().get()
    db13.close()
    const db = openDb(file)
    // Migrated through 014 and every migration after it (the newest file's number).
    const newest = Math.max(...readdirSync(all).map((n) => Number(n.slice(0, 3))))
    expect(newest).toBeGreaterThanOrEqual(14)
    expect(db.prepare('SELECT max(version) FROM schema_migrations').pluck().get()).toBe(newest)
    expect(db.prepare('SELECT id FROM runs').pluck().all()).toEqual([a])
    expect(db.prepare('SELECT count(*) FROM samples').pluck().get()).toBe(samples)
    // An id deleted before the migration may be given once more (SQLite cannot know it); after it, never.
    const c = insertFixtureRun(db, { samplesPerRound: 10 }).runId
    expect(c).toBeGreaterThan(a)
    db.prepare('DELETE FROM runs WHERE id = ?').run(c)
    expect(insertFixtureRun(db, { samplesPerRound: 10 }).runId).toBe(c + 1)
    db.close()
  })
})

const RUN_JSON_CASES = HOSTILE_OUTPUTS.filter(
  (o) => o.code === 2 && o.path() !== '' && !/folder/.test(o.name),
)

describe('run --json is checked before the run', () => {
  afterAll(() => console.log(`hostile cases tried: ${RUN_JSON_CASES.length} (run --json paths)`))
  it.each(RUN_JSON_CASES)('run --json $name: refused before any load, nothing lost', async (o) => {
    const config = join(root, 'run.json')
    writeFileSync(
      config,
      JSON.stringify({
        version: 1,
        name: 'never run',
        targets: [{ name: 'a', url: 'http://127.0.0.1:1/' }],
        load: { connections: 1, duration: 1 },
      }),
    )
    const before = counts()
    const r = await cli('run', config, '--json', o.path(), '--db', DB)
    expect(r.code, r.err).toBe(2)
    expect(r.err).toMatch(o.says)
    expect(counts()).toEqual(before)
  })
})

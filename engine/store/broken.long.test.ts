// Broken databases through the real command: each is a message naming the path and what is wrong,
// exit 2, no stack trace, and the file is left exactly as it was (nothing is written into a file
// that is not ours or that we cannot read). A read-only database still lists and shows its runs.
import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
  copyFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { insertFixtureRun } from '../testing/fixtures.ts'
import { openDb } from '../db/db.ts'

const BIN = fileURLToPath(new URL('../../bin/cannonade.mjs', import.meta.url))

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 99) : 0, stdout, stderr })
    })
  })
}

let dir = ''
/** A good database with one run: the source of the truncated and read-only copies. */
let good = ''
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cannonade-broken-'))
  good = join(dir, 'good.db')
  const db = openDb(good)
  insertFixtureRun(db, { name: 'kept run', samplesPerRound: 5000 })
  db.pragma('wal_checkpoint(TRUNCATE)')
  db.close()
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const hash = (path: string) => {
  try {
    return createHash('sha256').update(readFileSync(path)).digest('hex')
  } catch {
    return 'unreadable'
  }
}

type Make = (path: string) => void
/** The good database cut at `at`: a fraction of its length, or a byte count. */
const truncated =
  (at: number): Make =>
  (path) => {
    const bytes = readFileSync(good)
    writeFileSync(path, bytes.subarray(0, at < 1 ? Math.floor(bytes.length * at) : at))
  }

const cases: [string, Make, RegExp][] = [
  [
    'random bytes',
    (p) => writeFileSync(p, Buffer.from(Array.from({ length: 8192 }, (_, i) => (i * 7919) % 251))),
    /is not a SQLite database/,
  ],
  ['a text file', (p) => writeFileSync(p, 'version: 1\nname: not a database\n'), /is not a SQLite database/],
  [
    'a PNG',
    (p) => writeFileSync(p, Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex')),
    /is not a SQLite database/,
  ],
  [
    'the SQLite header and nothing else',
    (p) => writeFileSync(p, 'SQLite format 3\0'),
    /is damaged|is not a SQLite database/,
  ],
  ['truncated to 100 bytes', truncated(100), /is damaged/],
  ['truncated to a tenth', truncated(0.1), /is damaged/],
  ['truncated to half', truncated(0.5), /is damaged/],
  ['truncated to 90 %', truncated(0.9), /is damaged/],
  [
    'its schema page overwritten',
    (p) => {
      const bytes = readFileSync(good)
      bytes.fill(0x5a, 100, 4096)
      writeFileSync(p, bytes)
    },
    /is damaged/,
  ],
  [
    'its page size garbled',
    (p) => {
      const bytes = readFileSync(good)
      bytes.fill(0x5a, 16, 18)
      writeFileSync(p, bytes)
    },
    /is not a SQLite database/,
  ],
  [
    "another program's SQLite database",
    (p) => {
      const db = new Database(p)
      db.exec("CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO users (name) VALUES ('x')")
      db.close()
    },
    /another program's SQLite database \(tables users\)/,
  ],
  [
    'a newer schema (a migration this release does not know)',
    (p) => {
      copyFileSync(good, p)
      const db = new Database(p)
      db.prepare("INSERT INTO schema_migrations VALUES (999, '999_future.sql', 'x', 'now')").run()
      db.close()
    },
    /migration 999_future\.sql, which this Cannonade does not know/,
  ],
  [
    'a migration changed after it was applied',
    (p) => {
      copyFileSync(good, p)
      const db = new Database(p)
      db.prepare("UPDATE schema_migrations SET hash = 'other' WHERE version = 1").run()
      db.close()
    },
    /was changed after it was applied/,
  ],
  ['a folder in its place', (p) => mkdirSync(p), /is a folder, not a database file/],
]

describe('a broken database is a message naming it, exit 2, and stays as it was', () => {
  it.each(cases)('%s', async (_name, make, problem) => {
    const path = join(dir, `case-${_name.replace(/\W+/g, '-')}.db`)
    make(path)
    const before = hash(path)
    const results = await Promise.all([
      cli(['runs', 'list', '--db', path]),
      cli(['runs', 'show', '1', '--db', path]),
    ])
    for (const { code, stderr } of results) {
      expect(code, stderr).toBe(2)
      expect(stderr).toContain(path)
      expect(stderr).toMatch(problem)
      expect(stderr).not.toMatch(/\n\s+at |SqliteError|node:internal/)
    }
    expect(hash(path)).toBe(before)
  })

  it('a file where a folder of the path should be', async () => {
    const file = join(dir, 'plain-file')
    writeFileSync(file, 'x')
    const { code, stderr } = await cli(['runs', 'list', '--db', join(file, 'cannonade.db')])
    expect(code, stderr).toBe(2)
    expect(stderr).toContain(join(file, 'cannonade.db'))
    expect(stderr).not.toMatch(/\n\s+at /)
  })

  it('--json into a folder that does not exist, or onto a folder: exit 2 before anything runs', async () => {
    const db = join(dir, 'json-case.db')
    for (const [out, problem] of [
      [join(dir, 'missing', 'summary.json'), /the folder .*missing does not exist/],
      [dir, /is a folder; give a file path/],
    ] as const) {
      const { code, stderr } = await cli(['run', '--demo', '--duration', '1', '--db', db, '--json', out])
      expect(code, stderr).toBe(2)
      expect(stderr).toMatch(problem)
    }
    // Refused before the engine opened: no database was created.
    expect(() => statSync(db)).toThrow()
  })
})

describe('a read-only database', () => {
  it('lists and shows its runs, says so once, and refuses what would write', async () => {
    const path = join(dir, 'readonly.db')
    copyFileSync(good, path)
    chmodSync(path, 0o444)
    const before = hash(path)
    const list = await cli(['runs', 'list', '--db', path])
    expect(list.code, list.stderr).toBe(0)
    expect(list.stdout).toContain('kept run')
    expect(list.stderr.split('\n').filter((l) => l.includes('read-only'))).toHaveLength(1)
    expect(list.stderr).toContain(path)
    const show = await cli(['runs', 'show', '1', '--json', '--db', path])
    expect(show.code, show.stderr).toBe(0)
    expect(JSON.parse(show.stdout)).toMatchObject({ runId: 1, status: 'done' })
    for (const args of [
      ['runs', 'delete', '1'],
      ['runs', 'prune', '1'],
      ['run', '--demo', '--duration', '1'],
    ]) {
      const { code, stderr } = await cli([...args, '--db', path])
      expect(code, `${args.join(' ')}: ${stderr}`).toBe(2)
      expect(stderr).toMatch(/opened read-only, nothing can be changed/)
    }
    expect(hash(path)).toBe(before)
    expect(statSync(path).mode & 0o777).toBe(0o444)
  })
})

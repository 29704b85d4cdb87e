// Outputs a user names (exports, reports, --json, --out): never over the database, its WAL, SHM or
// reserve, or the data folder's own files, by any path; a device or FIFO is written to, not
// replaced; a failed write says why and leaves no partial file; a partial left by a killed export
// is cleaned up by the next; run ids are never reused, so a file named after a run stays its own.
import { execFileSync } from 'node:child_process'
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  statSync,
  symlinkSync,
  writeFileSync,
  createReadStream,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiError } from './api/errors.ts'
import { exportCsv } from './exports/csv.ts'
import { runsFileName } from './host/outputs.ts'
import { writeOutput, writeOutputSync } from './output.ts'
import { openDb, type Db } from './store/db.ts'
import { insertFixtureRun } from './testing/fixtures.ts'

const dir = mkdtempSync(join(tmpdir(), 'cannonade-output-'))
const dataDir = join(dir, 'data')
const dbPath = join(dataDir, 'cannonade.db')
let db: Db
let runId = 0
const counts = () =>
  db.prepare('SELECT (SELECT count(*) FROM runs) AS runs, (SELECT count(*) FROM samples) AS samples').get()

beforeAll(() => {
  mkdirSync(join(dataDir, 'native-stacks'), { recursive: true })
  writeFileSync(join(dataDir, 'settings.json'), '{}')
  writeFileSync(join(dataDir, 'native-stacks', 'node-http.json'), '{}')
  db = openDb(dbPath)
  runId = insertFixtureRun(db).runId
})
afterAll(() => db.close())

async function refusal(out: string): Promise<ApiError> {
  try {
    await exportCsv(db, runId, { kind: 'samples' }, out)
  } catch (err) {
    if (err instanceof ApiError) return err
    throw err
  }
  throw new Error(`export to ${out} was not refused`)
}

describe('outputs a user names', () => {
  it("refuses the database's files and the data folder's own, by any path, and keeps every row", async () => {
    symlinkSync(dbPath, join(dir, 'link-to-db'))
    symlinkSync(dataDir, join(dir, 'link-to-data'))
    const before = counts()
    const bytes = readFileSync(dbPath).length
    const cases = [
      dbPath,
      `${dbPath}-wal`,
      `${dbPath}-shm`,
      `${dbPath}-reserve`,
      `${dbPath}-journal`,
      join(dataDir, '.', 'cannonade.db'),
      join(dataDir, 'native-stacks', '..', 'cannonade.db'),
      relative(process.cwd(), dbPath),
      join(dir, 'link-to-db'),
      join(dir, 'link-to-data', 'cannonade.db'),
      join(dir, 'link-to-data', 'cannonade.db-wal'),
      dataDir,
      join(dataDir, 'settings.json'),
      join(dataDir, 'native-stacks'),
      join(dataDir, 'native-stacks', 'node-http.json'),
      join(dataDir, 'native-stacks', 'new.json'),
    ]
    for (const out of cases) {
      const err = await refusal(out)
      expect(err.code, out).toBe('bad-input')
      expect(err.message, out).toMatch(
        /refusing to write over .*(database|data folder|settings|native-stacks)/,
      )
    }
    console.log(`hostile cases tried: ${cases.length} outputs over the data folder`)
    expect(counts()).toEqual(before)
    expect(readFileSync(dbPath).length).toBeGreaterThanOrEqual(bytes)
    expect(lstatSync(join(dir, 'link-to-db')).isSymbolicLink()).toBe(true)
    expect(readdirSync(dataDir).filter((f) => f.includes('partial'))).toEqual([])
  })

  it('writes a character device or a FIFO in place: /dev/full fails naming the error, a FIFO gets the text', async () => {
    const full = await refusal('/dev/full')
    expect(full.message).toMatch(/cannot write \/dev\/full: .*(ENOSPC|no space)/i)
    expect(full.code).toBe('unavailable') // exit 1 from the CLI, not 2
    expect(statSync('/dev/full').isCharacterDevice()).toBe(true)
    symlinkSync('/dev/null', join(dir, 'link-to-null'))
    await exportCsv(db, runId, { kind: 'samples' }, join(dir, 'link-to-null'))
    expect(lstatSync(join(dir, 'link-to-null')).isSymbolicLink()).toBe(true)
    expect(statSync('/dev/null').isCharacterDevice()).toBe(true)

    const fifo = join(dir, 'fifo')
    execFileSync('mkfifo', [fifo])
    const read = new Promise<string>((resolve) => {
      let text = ''
      createReadStream(fifo, 'utf8')
        .on('data', (d) => (text += String(d)))
        .on('end', () => resolve(text))
    })
    await exportCsv(db, runId, { kind: 'samples' }, fifo)
    expect((await read).split('\n')[0]).toMatch(/^correlation_id,/)
    expect(statSync(fifo).isFIFO()).toBe(true)
  })

  it('refuses a folder and a missing folder; a failed write leaves the old file and no partial', async () => {
    expect((await refusal(dir)).message).toMatch(/it is a folder/)
    expect((await refusal(join(dir, 'missing', 'x.csv'))).message).toMatch(/cannot write .*ENOENT/)
    const out = join(dir, 'kept.csv')
    writeFileSync(out, 'old\n')
    function* failing(): Generator<string> {
      yield 'a,b\n'
      throw new Error('the disk went away')
    }
    await expect(writeOutput(out, failing())).rejects.toThrow(/cannot write .*the disk went away/)
    expect(readFileSync(out, 'utf8')).toBe('old\n')
    expect(readdirSync(dir).filter((f) => f.includes('.partial-'))).toEqual([])
  })

  it("removes a killed export's partial file at the next write, and leaves a running one's", () => {
    const out = join(dir, 'run.csv')
    const dead = `${out}.partial-999999999`
    const live = `${out}.partial-1`
    writeFileSync(dead, 'half')
    writeFileSync(live, 'half')
    writeOutputSync(out, 'whole\n')
    expect(existsSync(dead)).toBe(false)
    expect(existsSync(live)).toBe(true)
    expect(readFileSync(out, 'utf8')).toBe('whole\n')
  })

  it('replaces the file a symlink points to, not the link', () => {
    const real = join(dir, 'real.json')
    writeFileSync(real, 'old')
    symlinkSync(real, join(dir, 'link.json'))
    writeOutputSync(join(dir, 'link.json'), 'new')
    expect(lstatSync(join(dir, 'link.json')).isSymbolicLink()).toBe(true)
    expect(readFileSync(real, 'utf8')).toBe('new')
  })

  it('never reuses a run id, so an export named after a new run is not the old one', () => {
    const newest = insertFixtureRun(db).runId
    db.prepare('DELETE FROM runs WHERE id = ?').run(newest)
    expect(insertFixtureRun(db).runId).toBeGreaterThan(newest)
  })

  it('names the JSON export of many runs within a file name’s length', () => {
    const ids = Array.from({ length: 1000 }, (_, i) => i + 1)
    const name = runsFileName(ids)
    expect(name.length).toBeLessThan(80)
    expect(name).toMatch(/^runs-1-2-3-4-5-6-and-994-more-[0-9a-f]{8}\.json$/)
    expect(runsFileName([1, 2])).toBe('runs-1-2.json')
    expect(runsFileName(ids.slice(0, 999))).not.toBe(name)
  })
})

// Issue 20, item 3's class for the commands that only render: `cannonade import har|curl|openapi
// --out FILE` and `cannonade agents manifest --out FILE` write their file as exports do
// (engine/exports/write.ts). Each hostile output is tried on every command: the database and the
// data folder's files are refused (exit 2) and stay as they were, /dev/full is exit 1 naming it and
// stays a device, a FIFO is written directly and stays a FIFO, a symlink is kept (the file it
// points to replaced whole), a folder is refused; no temporary file is left anywhere.
import { spawnSync } from 'node:child_process'
import {
  closeSync,
  constants,
  createReadStream,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
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
import { openDb } from '../db/db.ts'
import { runCommand } from '../testing/cli.ts'
import { insertFixtureRun } from '../testing/fixtures.ts'
import { spawnCli } from '../testing/process.ts'

const root = mkdtempSync(join(tmpdir(), 'cannonade-render-outputs-'))
const data = join(root, 'data')
const elsewhere = join(root, 'elsewhere')
const DB = join(data, 'cannonade.db')
const HAR = new URL('../../e2e/fixtures/web-mode.har', import.meta.url).pathname
const OPENAPI = new URL('../../targets/openapi.yaml', import.meta.url).pathname
const CONFIG = join(root, 'agents.yaml')
const KEY = '0123456789abcdef'
const saved = { data: process.env.CANNONADE_DATA_DIR, store: process.env.CANNONADE_STORE_URL }
const STORE_URL = 'postgres://agent:s3cret-pw@127.0.0.1:5432/cannonade'

/** Each rendering command, its arguments before --out, and a line its file holds. */
const COMMANDS: { name: string; argv: string[]; holds: RegExp }[] = [
  { name: 'import har', argv: ['import', 'har', HAR], holds: /^targets:/m },
  { name: 'import curl', argv: ['import', 'curl', 'curl http://127.0.0.1:8080/a'], holds: /path: \/a/ },
  {
    name: 'import openapi',
    argv: ['import', 'openapi', OPENAPI, '--base', 'http://127.0.0.1:8082'],
    holds: /^targets:/m,
  },
  {
    name: 'agents manifest',
    argv: ['agents', 'manifest', CONFIG, '--agents', '2', '--on', 'kubernetes', '--run', KEY],
    holds: /kind: Job/,
  },
  {
    name: 'agents manifest --secret-from-env',
    argv: [
      'agents',
      'manifest',
      CONFIG,
      '--agents',
      '2',
      '--on',
      'kubernetes',
      '--run',
      KEY,
      '--secret-from-env',
    ],
    holds: /s3cret-pw/,
  },
]

/** Hostile outputs: the path, the exit code, what the message says. */
const HOSTILE: { name: string; path: () => string; code: number; says: RegExp }[] = [
  { name: '/dev/full', path: () => '/dev/full', code: 1, says: /\/dev\/full.*(ENOSPC|no space)/i },
  { name: 'the database', path: () => DB, code: 2, says: /refusing .*history database/ },
  { name: 'its WAL', path: () => `${DB}-wal`, code: 2, says: /history database's file .*-wal/ },
  { name: 'its SHM', path: () => `${DB}-shm`, code: 2, says: /history database's file .*-shm/ },
  {
    name: 'settings.json',
    path: () => join(data, 'settings.json'),
    code: 2,
    says: /data folder's own files/,
  },
  { name: 'a new file in the data folder', path: () => join(data, 'x.yaml'), code: 2, says: /data folder/ },
  {
    name: 'a symlink to the db',
    path: () => join(elsewhere, 'link-to-db'),
    code: 2,
    says: /history database/,
  },
  { name: 'a folder', path: () => elsewhere, code: 2, says: /it is a folder, not a file/ },
  { name: 'a missing folder', path: () => join(root, 'missing', 'x.yaml'), code: 2, says: /does not exist/ },
]

beforeAll(() => {
  mkdirSync(data)
  mkdirSync(elsewhere)
  process.env.CANNONADE_DATA_DIR = data
  process.env.CANNONADE_STORE_URL = STORE_URL
  const db = openDb(DB)
  insertFixtureRun(db, { samplesPerRound: 100 })
  db.close()
  writeFileSync(join(data, 'settings.json'), '{}\n')
  symlinkSync(DB, join(elsewhere, 'link-to-db'))
  spawnSync('mkfifo', [join(elsewhere, 'fifo')])
  writeFileSync(
    CONFIG,
    'version: 1\nname: k8s\ntargets: [{ name: a, url: "http://127.0.0.1:9/" }]\nload: { connections: 4, duration: 5 }\n',
  )
})
afterAll(() => {
  for (const [k, v] of [
    ['CANNONADE_DATA_DIR', saved.data],
    ['CANNONADE_STORE_URL', saved.store],
  ] as const) {
    if (v === undefined) delete process.env[k]
    else process.env[k] = v
  }
  rmSync(root, { recursive: true, force: true })
})

const cli = (argv: string[]) => runCommand(DB, argv)

/** A command that never opened the FIFO leaves its reader waiting: a writer that closes at once ends it. */
function releaseReader(fifo: string): void {
  try {
    closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK))
  } catch {
    // No reader left waiting (ENXIO): the command's own write ended it.
  }
}

/** Every file of the data folder with its bytes: what must not change. */
function dataFolder(): Record<string, string> {
  const all: Record<string, string> = {}
  for (const name of readdirSync(data).sort()) all[name] = readFileSync(join(data, name)).toString('base64')
  return all
}

describe('import and agents manifest write --out as exports do (issue 20, item 3)', () => {
  const cases = COMMANDS.flatMap((c) => HOSTILE.map((o) => ({ command: c.name, argv: c.argv, ...o })))
  it.each(cases)('$command --out $name: exit $code, nothing touched, nothing left', async (c) => {
    const before = dataFolder()
    const r = await cli([...c.argv, '--out', c.path()])
    expect(r.code, r.err).toBe(c.code)
    expect(r.err).toMatch(c.says)
    expect(r.out).not.toMatch(/wrote/)
    expect(dataFolder()).toEqual(before)
    expect(readdirSync(elsewhere).sort()).toEqual(['fifo', 'link-to-db'])
    expect(lstatSync(join(elsewhere, 'link-to-db')).isSymbolicLink()).toBe(true)
    expect(statSync('/dev/full').isCharacterDevice()).toBe(true)
    expect(readdirSync(root).filter((n) => n.includes('.partial-'))).toEqual([])
  })

  it.each(COMMANDS)('$name --out a FIFO: written directly, the FIFO stays', async (c) => {
    const fifo = join(elsewhere, 'fifo')
    let got = ''
    const reader = new Promise<void>((resolve, reject) => {
      const s = createReadStream(fifo, 'utf8')
      s.on('data', (d) => (got += String(d)))
      s.on('end', resolve)
      s.on('error', reject)
    })
    // In its own process: a command writing the FIFO synchronously would wait for a reader this
    // process could then never start.
    const r = await spawnCli([...c.argv, '--out', fifo]).result
    releaseReader(fifo)
    await reader
    expect(r.code, r.stderr).toBe(0)
    expect(got).toMatch(c.holds)
    expect(statSync(fifo).isFIFO()).toBe(true)
    expect(readdirSync(elsewhere).sort()).toEqual(['fifo', 'link-to-db'])
  })

  it.each(COMMANDS)(
    '$name --out a symlink: the link stays, the file it names is replaced whole',
    async (c) => {
      const dir = mkdtempSync(join(root, 'link-'))
      const file = join(dir, 'real.yaml')
      writeFileSync(file, 'old\n', { mode: 0o644 })
      symlinkSync(file, join(dir, 'link.yaml'))
      const r = await cli([...c.argv, '--out', join(dir, 'link.yaml')])
      expect(r.code, r.err).toBe(0)
      expect(lstatSync(join(dir, 'link.yaml')).isSymbolicLink()).toBe(true)
      expect(readFileSync(file, 'utf8')).toMatch(c.holds)
      expect(readdirSync(dir).sort()).toEqual(['link.yaml', 'real.yaml'])
      // The store's password is its owner's alone, in a file that was there before as well.
      if (c.name.endsWith('--secret-from-env')) expect(statSync(file).mode & 0o777).toBe(0o600)
    },
  )

  afterAll(() =>
    console.log(`hostile cases tried: ${cases.length + 2 * COMMANDS.length} (import and manifest outputs)`),
  )
})

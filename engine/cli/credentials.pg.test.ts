// Credentials end to end, through the real command: a password in a target URL is sent as Basic
// auth (the target logs it) and then appears nowhere: not in the database file, its WAL, the CLI's
// output, the run detail, the JSON summary, the exports (CSV, JSON, JUnit, PostgreSQL) or the
// report. Secret-looking headers stay out of exports and reports. The data folder is private,
// settings hold no password, and the runner process does not inherit the engine's secrets.
import { execFile } from 'node:child_process'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiError } from '../api/errors.ts'
import { pgAvailableForTests, startPg } from '../testing/pg.ts'
import { createEngine } from '../host/index.ts'
import { startRawTarget, type RawTarget } from '../testing/raw-http.ts'
import { runConfig } from '../testing/run-config.ts'

const BIN = fileURLToPath(new URL('../../bin/cannonade.mjs', import.meta.url))
const PASSWORD = 'S3cr3t-Pa55'
const API_KEY = 'K3y-S3cr3t-value'
const COOKIE = 'C00kie-S3cr3t-value'

function cli(args: string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { timeout: 120_000, env: { ...process.env, ...env } },
      (err, stdout, stderr) =>
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : 99) : 0, stdout, stderr }),
    )
  })
}

/** Every file under `dir`, as text (binary files too: a password would show as its bytes). */
function filesUnder(dir: string): { path: string; text: string }[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile())
    .map((path) => ({ path, text: readFileSync(path).toString('latin1') }))
}

let root = ''
let data = ''
let db = ''
let target: RawTarget
const outputs: string[] = []

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'cannonade-credentials-'))
  data = join(root, 'data') // does not exist yet: the engine creates it
  db = join(data, 'cannonade.db')
  target = await startRawTarget()
  const config = join(root, 'config.json')
  writeFileSync(
    config,
    JSON.stringify({
      version: 1,
      name: 'with credentials',
      targets: [
        {
          name: 'secured',
          url: `http://alice:${PASSWORD}@127.0.0.1:${target.port}/items`,
          headers: { 'X-Api-Key': API_KEY, Cookie: `sid=${COOKIE}`, Accept: 'text/plain' },
        },
      ],
      load: { connections: 2, requests: 200 },
      cooldownSeconds: 0,
      thresholds: [{ metric: 'errorRate', max: 0.5 }],
    }),
  )
  mkdirSync(join(root, 'out'))
  const run = await cli(['run', config, '--db', db, '--json', join(root, 'out', 'summary.json')])
  outputs.push(run.stdout, run.stderr)
  expect(run.code, run.stderr).toBe(0)
})
afterAll(async () => {
  await target.close()
  rmSync(root, { recursive: true, force: true })
})

describe('a password in a target URL', () => {
  it('is sent as Basic auth, on every request', () => {
    const expected = `Authorization: Basic ${Buffer.from(`alice:${PASSWORD}`).toString('base64')}\r\n`
    expect(target.requests.length).toBeGreaterThanOrEqual(200)
    for (const r of target.requests) expect(r.toString('latin1')).toContain(expected)
  })

  it('appears in no stored file, CLI output, export or report; secret headers leave no file', async () => {
    const out = join(root, 'out')
    for (const args of [
      ['runs', 'list'],
      ['runs', 'list', '--json'],
      ['runs', 'show', '1'],
      ['runs', 'show', '1', '--json'],
      ['export', 'csv', '1', '--out', join(out, 'samples.csv')],
      ['export', 'csv', '1', '--series', '--out', join(out, 'series.csv')],
      ['export', 'json', '1', '--out', join(out, 'run.json')],
      ['export', 'junit', '1', '--out', join(out, 'junit.xml')],
    ]) {
      const r = await cli([...args, '--db', db])
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0)
      outputs.push(r.stdout, r.stderr)
    }
    // The app's own exports and an HTML report, into the data folder, through the Api.
    const engine = await createEngine({ dbPath: db })
    try {
      await engine.exports.json([1])
      await engine.exports.csv(1, { kind: 'samples' })
      await engine.exports.junit(1)
      await engine.reports.create([1], { format: 'html' })
      const detail = await engine.runs.get(1)
      outputs.push(JSON.stringify(detail))
      expect(detail.config.targets[0]!.url).toBe(`http://alice:***@127.0.0.1:${target.port}/items`)
      // The local database keeps the headers (so "run again" sends them); what leaves it does not.
      expect(detail.config.targets[0]!.headers['X-Api-Key']).toBe(API_KEY)
    } finally {
      await engine.close()
    }
    for (const text of outputs) expect(text).not.toContain(PASSWORD)
    const stored = filesUnder(data)
    expect(stored.map((f) => f.path)).toEqual(expect.arrayContaining([db]))
    for (const f of [...stored, ...filesUnder(out)]) expect(f.text, f.path).not.toContain(PASSWORD)
    const shared = [
      ...filesUnder(out),
      ...filesUnder(join(data, 'exports')),
      ...filesUnder(join(data, 'reports')),
    ]
    expect(shared.length).toBeGreaterThanOrEqual(9)
    for (const f of shared) {
      expect(f.text, f.path).not.toContain(API_KEY)
      expect(f.text, f.path).not.toContain(COOKIE)
    }
    // What is kept of it says there was one.
    const json = readFileSync(join(out, 'run.json'), 'utf8')
    expect(json).toContain('alice:***@')
    expect(json).toContain('"X-Api-Key":"***"')
    expect(readFileSync(join(data, 'reports', readdirSync(join(data, 'reports'))[0]!), 'utf8')).toContain(
      'alice:***@',
    )
  })

  it.skipIf(!pgAvailableForTests())('appears in no PostgreSQL export either', async () => {
    const cluster = await startPg({ durable: false })
    try {
      const r = await cli(['export', 'pg', '1', '--url', cluster.url, '--db', db])
      expect(r.code, r.stderr).toBe(0)
      expect(r.stdout + r.stderr).not.toContain(cluster.password)
      const client = new pg.Client({ connectionString: cluster.url })
      await client.connect()
      try {
        const rows = await client.query<{ t: string }>(
          `SELECT r.config::text || coalesce(string_agg(t.url, ' '), '') || coalesce(e.details::text, '') AS t
             FROM cannonade.runs r JOIN cannonade.run_targets t ON t.run_id = r.id
             LEFT JOIN cannonade.environment e ON e.run_id = r.id GROUP BY r.config, e.details`,
        )
        expect(rows.rows).toHaveLength(1)
        expect(rows.rows[0]!.t).toContain('alice:***@')
        for (const secret of [PASSWORD, API_KEY, COOKIE]) expect(rows.rows[0]!.t).not.toContain(secret)
      } finally {
        await client.end()
      }
    } finally {
      await cluster.stop()
    }
  })
})

describe('the data folder', () => {
  it('is 0700 and its files 0600: database, WAL, settings, exports, reports', async () => {
    const engine = await createEngine({ dbPath: db })
    try {
      await engine.settings.set({ theme: 'dark' })
      // The WAL exists while the database is open.
      const files = [
        db,
        `${db}-wal`,
        join(data, 'settings.json'),
        ...filesUnder(join(data, 'exports')).map((f) => f.path),
        ...filesUnder(join(data, 'reports')).map((f) => f.path),
      ]
      expect(files.filter(existsSync).length).toBeGreaterThanOrEqual(6)
      for (const dir of [data, join(data, 'exports'), join(data, 'reports')])
        expect((statSync(dir).mode & 0o777).toString(8), dir).toBe('700')
      for (const f of files.filter(existsSync)) expect((statSync(f).mode & 0o777).toString(8), f).toBe('600')
    } finally {
      await engine.close()
    }
  })

  it('settings refuse a URL with a password, and an old settings file loses its password', async () => {
    const dir = join(root, 'settings-data')
    mkdirSync(dir)
    writeFileSync(
      join(dir, 'settings.json'),
      JSON.stringify({ theme: 'light', pgExportUrl: `postgres://archive:${PASSWORD}@db.example/runs` }),
    )
    const engine = await createEngine({ dbPath: join(dir, 'cannonade.db') })
    try {
      const got = await engine.settings.get()
      expect(got.pgExportUrl).toBe('postgres://archive@db.example/runs')
      expect(readFileSync(join(dir, 'settings.json'), 'utf8')).not.toContain(PASSWORD)
      for (const field of ['pgExportUrl', 'dockerHost', 'cfApi'] as const) {
        const error = await engine.settings
          .set({ [field]: `https://u:${PASSWORD}@h.example/` })
          .catch((e: unknown) => e)
        expect(error, field).toBeInstanceOf(ApiError)
        expect((error as ApiError).message).toMatch(new RegExp(`${field} holds a password`))
      }
      expect(JSON.stringify(await engine.settings.get())).not.toContain(PASSWORD)
    } finally {
      await engine.close()
    }
  })
})

describe('the runner process', () => {
  it('gets a minimal environment: none of the engine secrets', async () => {
    const secrets = {
      PGPASSWORD: 'pg-secret',
      CF_PASSWORD: 'cf-secret',
      CANNONADE_PG_URL: 'postgres://u:p@h/d',
      AWS_SECRET_ACCESS_KEY: 'aws',
    }
    Object.assign(process.env, secrets)
    let environ = ''
    try {
      await runConfig(
        {
          version: 1,
          name: 'env',
          targets: [{ name: 't', url: `http://127.0.0.1:${target.port}/` }],
          load: { connections: 1, duration: 1 },
          cooldownSeconds: 0,
        },
        // Right after the fork: the runner process exists, its environment is fixed.
        (handle) => {
          environ = readFileSync(`/proc/${handle.pid}/environ`, 'utf8')
        },
      )
    } finally {
      for (const k of Object.keys(secrets)) delete process.env[k]
    }
    const names = environ.split('\0').map((kv) => kv.split('=')[0])
    expect(names).toContain('PATH')
    for (const k of Object.keys(secrets)) expect(names).not.toContain(k)
  })
})

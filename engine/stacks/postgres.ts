// A local PostgreSQL cluster in a temporary folder (initdb + pg_ctl on a free 127.0.0.1 port): the
// database of a native stack (`stacks up --native`), and, through engine/testing/pg.ts, of every
// test that needs a real PostgreSQL. Plain Node, no dependencies. As root, the server runs as an
// unprivileged OS user (PostgreSQL refuses root): `postgres`, or $PG_OS_USER.
import { execFileSync, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { childEnv } from '../env.ts'

export type Log = (line: string) => void
const quiet: Log = () => {}

/** A TCP port that was free on 127.0.0.1 a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer()
    srv.unref()
    srv.once('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address()
      const port = typeof address === 'object' && address ? address.port : 0
      srv.close(() => resolve(port))
    })
  })
}

/** Whether `port` on 127.0.0.1 can be listened on now (a stack's own port, before it starts). */
export function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.createServer()
    s.once('error', () => resolve(false))
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)))
  })
}

/** Directory holding initdb, pg_ctl and psql: $PG_BIN, the newest /usr/lib/postgresql/N/bin, or PATH; null if none. */
export function findPgBin(): string | null {
  const candidates: string[] = []
  if (process.env['PG_BIN']) candidates.push(process.env['PG_BIN'])
  for (const root of ['/usr/lib/postgresql', '/usr/local/lib/postgresql']) {
    if (!fs.existsSync(root)) continue
    const versions = fs
      .readdirSync(root)
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a))
    for (const v of versions) candidates.push(path.join(root, v, 'bin'))
  }
  candidates.push('/usr/local/pgsql/bin', '/usr/local/bin', '/opt/homebrew/bin')
  for (const dir of (process.env['PATH'] ?? '').split(path.delimiter)) if (dir) candidates.push(dir)
  for (const dir of candidates) {
    if (fs.existsSync(path.join(dir, 'initdb')) && fs.existsSync(path.join(dir, 'pg_ctl'))) return dir
  }
  return null
}

function isRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0
}

/**
 * A local OS user's ids, from /etc/passwd: no `id` child process run synchronously in the engine
 * host (through NSS it may wait on a directory server). A user only a directory knows is none.
 */
function osUserIds(user: string): { uid: number; gid: number } | null {
  let passwd: string
  try {
    passwd = fs.readFileSync('/etc/passwd', 'utf8')
  } catch {
    return null
  }
  for (const line of passwd.split('\n')) {
    const [name, , uid, gid] = line.split(':')
    if (name === user && /^\d+$/.test(uid ?? '') && /^\d+$/.test(gid ?? ''))
      return { uid: Number(uid), gid: Number(gid) }
  }
  return null
}

/** null when a local cluster can be started here, else why not (for an error or a test's skip). */
export function pgUnavailableReason(osUser?: string): string | null {
  if (!findPgBin()) {
    return 'PostgreSQL server binaries (initdb, pg_ctl) not found: install PostgreSQL (Debian: apt-get install postgresql) or set PG_BIN'
  }
  const user = osUser ?? process.env['PG_OS_USER'] ?? 'postgres'
  if (isRoot() && !osUserIds(user)) {
    return `running as root and OS user "${user}" does not exist to run PostgreSQL as (set PG_OS_USER to a non-root user)`
  }
  return null
}

export interface StartPostgresOptions {
  /** The port, or none: a free one (another free one if it is taken before postgres binds it). */
  port?: number
  /** No `port`: try this one first, then free ones (a test takes it to show the retry). */
  firstPort?: number
  /** The superuser role initdb creates (default "cannonade"). */
  user?: string
  /**
   * With a password, TCP connections authenticate with it (scram-sha-256), so a wrong password is
   * a real failure; without one, every connection is trusted (a native stack's throwaway database).
   */
  password?: string
  /** Extra server settings, e.g. { fsync: 'off' } for throwaway test clusters. */
  settings?: Record<string, string>
  /** OS user that runs postgres when this process is root (default $PG_OS_USER or "postgres"). */
  osUser?: string
  log?: Log
}

export interface LocalPostgres {
  host: string
  port: number
  user: string
  password: string | null
  /** The temporary folder: data/, the server log, the Unix socket. Removed by stop(). */
  dir: string
  pgBin: string
  /** The postmaster's pid (to record a native stack's processes). */
  pid: number
  /** postgres://user[:password]@127.0.0.1:port/database, for this superuser or another role. */
  url(database?: string, role?: { user: string; password: string }): string
  createDatabase(name: string): Promise<void>
  /** argv of psql as the superuser over the Unix socket, on `database` (`-qAt`, stop on error). */
  psqlArgv(database?: string): string[]
  stop(): Promise<void>
}

interface RunResult {
  code: number
  stdout: string
  stderr: string
}

export function run(
  argv: string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const [cmd, ...args] = argv
    if (!cmd) return reject(new Error('empty command'))
    const child = spawn(cmd, args, {
      cwd: opts.cwd,
      // initdb, pg_ctl, psql and a stack's build: none needs the engine's secrets (engine/env.ts).
      env: opts.env ?? childEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    child.on('error', reject) // every 'error', not only the first, has a listener
    child.once('close', (code) => resolve({ code: code ?? -1, stdout, stderr }))
  })
}

export async function runOk(
  argv: string[],
  what: string,
  opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<RunResult> {
  const r = await run(argv, opts)
  if (r.code !== 0)
    throw new Error(`${what} failed (exit ${r.code}): ${(r.stderr || r.stdout).trim().slice(-2000)}`)
  return r
}

/**
 * `pg_ctl start`, again on another port when the free port was taken by another process between
 * freePort() and postgres binding it (a later `port` line of postgresql.conf wins). The port it
 * listens on.
 */
async function startOnFreePort(
  argv: string[],
  o: { data: string; logFile: string; port: number; fixed: boolean; log: Log },
): Promise<number> {
  let port = o.port
  for (let attempt = 1; ; attempt++) {
    try {
      await runOk(argv, 'pg_ctl start')
      return port
    } catch (err) {
      const logText = fs.existsSync(o.logFile) ? fs.readFileSync(o.logFile, 'utf8') : ''
      if (o.fixed || attempt === 3 || !/could not bind|Address already in use/.test(logText)) throw err
      port = await freePort()
      o.log(`[pg] the port was taken meanwhile: starting again on ${port}`)
      fs.appendFileSync(path.join(o.data, 'postgresql.conf'), `port = ${port}\n`)
      fs.rmSync(o.logFile, { force: true })
    }
  }
}

/** Starts a throwaway cluster in a temp dir (initdb + pg_ctl), listening on 127.0.0.1 only. */
export async function startPostgres(opts: StartPostgresOptions = {}): Promise<LocalPostgres> {
  const log = opts.log ?? quiet
  const pgBin = findPgBin()
  const why = pgUnavailableReason(opts.osUser)
  if (!pgBin || why) throw new Error(why ?? 'PostgreSQL not found')
  const user = opts.user ?? 'cannonade'
  const password = opts.password ?? null
  let port = opts.port ?? opts.firstPort ?? (await freePort())
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cannonade-pg-'))
  const data = path.join(dir, 'data')
  const logFile = path.join(dir, 'postgres.log')
  // postgres refuses to run as root: its commands run as an unprivileged OS user instead.
  let asUser: string[] = []
  if (isRoot()) {
    const osUser = opts.osUser ?? process.env['PG_OS_USER'] ?? 'postgres'
    const ids = osUserIds(osUser) as { uid: number; gid: number }
    fs.chownSync(dir, ids.uid, ids.gid)
    asUser = ['runuser', '-u', osUser, '--']
  }
  const bin = (name: string) => path.join(pgBin, name)
  log(`[pg] initdb ${dir}`)
  try {
    const auth = ['-A', 'trust']
    if (password !== null) {
      const pwfile = path.join(dir, 'pw')
      fs.writeFileSync(pwfile, `${password}\n`, { mode: 0o644 })
      auth.splice(0, 2, `--pwfile=${pwfile}`, '--auth-local=trust', '--auth-host=scram-sha-256')
    }
    await runOk(
      [...asUser, bin('initdb'), '-D', data, '-U', user, ...auth, '-E', 'UTF8', '--locale=C', '--no-sync'],
      'initdb',
    )
    fs.rmSync(path.join(dir, 'pw'), { force: true })
    const settings: Record<string, string> = {
      listen_addresses: "'127.0.0.1'",
      port: String(port),
      unix_socket_directories: `'${dir}'`,
      ...Object.fromEntries(Object.entries(opts.settings ?? {}).map(([k, v]) => [k, `'${v}'`])),
    }
    fs.appendFileSync(
      path.join(data, 'postgresql.conf'),
      Object.entries(settings)
        .map(([k, v]) => `${k} = ${v}\n`)
        .join(''),
    )
    port = await startOnFreePort(
      [...asUser, bin('pg_ctl'), '-D', data, '-l', logFile, '-w', '-t', '60', 'start'],
      { data, logFile, port, fixed: opts.port !== undefined, log },
    )
  } catch (err) {
    const tail = fs.existsSync(logFile) ? `\n${fs.readFileSync(logFile, 'utf8').slice(-2000)}` : ''
    fs.rmSync(dir, { recursive: true, force: true })
    throw new Error(`could not start a local PostgreSQL: ${(err as Error).message}${tail}`, { cause: err })
  }
  const pid = Number(fs.readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0])
  log(`[pg] listening on 127.0.0.1:${port}`)
  const psqlArgv = (database = 'postgres'): string[] => [
    ...asUser,
    fs.existsSync(bin('psql')) ? bin('psql') : 'psql',
    ...['-X', '-qAt', '-v', 'ON_ERROR_STOP=1', '-h', dir, '-p', String(port), '-U', user, '-d', database],
  ]
  let stopped = false
  return {
    host: '127.0.0.1',
    port,
    user,
    password,
    dir,
    pgBin,
    pid,
    url(database = 'postgres', role) {
      const who = role ?? { user, password }
      const secret = who.password === null ? '' : `:${encodeURIComponent(who.password)}`
      return `postgres://${encodeURIComponent(who.user)}${secret}@127.0.0.1:${port}/${database}`
    },
    psqlArgv,
    async createDatabase(name) {
      await runOk(
        [...psqlArgv(), '-c', `CREATE DATABASE "${name.replace(/"/g, '""')}"`],
        `create database ${name}`,
      )
    },
    async stop() {
      if (stopped) return
      stopped = true
      await run([...asUser, bin('pg_ctl'), '-D', data, '-m', 'immediate', '-w', 'stop'])
      fs.rmSync(dir, { recursive: true, force: true })
      log(`[pg] stopped ${port}`)
    },
  }
}

/** A random password for a cluster that must authenticate (tests of wrong credentials). */
export function randomPassword(): string {
  return randomBytes(12).toString('hex')
}

/** Runs seed.sql (schema + 10 000 ads; idempotent) into the database at `databaseUrl`. */
export async function seedDatabase(databaseUrl: string, seedFile: string, pgBin?: string): Promise<void> {
  const dir = pgBin ?? findPgBin()
  const psql = dir && fs.existsSync(path.join(dir, 'psql')) ? path.join(dir, 'psql') : 'psql'
  await runOk([psql, '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', databaseUrl, '-f', seedFile], 'seed')
}

/** psql synchronously (test setup: roles, grants); returns its output. */
export function psqlSync(pg: LocalPostgres, sql: string, database?: string): string {
  const [file, ...args] = pg.psqlArgv(database)
  return execFileSync(file as string, args, { encoding: 'utf8', input: sql })
}

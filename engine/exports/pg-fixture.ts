// A throwaway PostgreSQL cluster for tests and benchmarks (EXAMPLES.md 14: the real thing, never
// a mock). Debian's binaries, a temporary data directory, a free port on 127.0.0.1, password
// authentication over TCP (so a wrong password is a real failure). As root, the server runs as
// the `postgres` user: PostgreSQL refuses to run as root.
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface PgCluster {
  /** postgres://postgres:<password>@127.0.0.1:<port>/postgres */
  url: string
  host: string
  port: number
  user: string
  password: string
  dir: string
  /** The URL for another role or database of this cluster. */
  urlFor(user: string, password: string, database?: string): string
  /** Run SQL as the superuser through psql (setup only: roles, grants). */
  psql(sql: string, database?: string): string
  stop(): void
}

export interface PgFixtureOptions {
  /** fsync off makes tests faster; benchmarks keep the defaults (default: true = durable). */
  durable?: boolean
}

const SEARCH = ['/usr/lib/postgresql', '/usr/local/lib/postgresql']

/** The directory holding initdb and pg_ctl, or null. */
export function findPgBin(): string | null {
  for (const root of SEARCH) {
    if (!existsSync(root)) continue
    const versions = readdirSync(root)
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a))
    for (const v of versions) {
      const bin = join(root, v, 'bin')
      if (existsSync(join(bin, 'initdb')) && existsSync(join(bin, 'pg_ctl'))) return bin
    }
  }
  for (const dir of ['/usr/local/bin', '/usr/bin']) {
    if (existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'))) return dir
  }
  return null
}

function isRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0
}

function hasPostgresUser(): boolean {
  try {
    execFileSync('id', ['-u', 'postgres'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

/** null when a cluster can be started here, else why not (for a skip message). */
export function pgUnavailableReason(): string | null {
  if (!findPgBin()) {
    return 'PostgreSQL binaries (initdb, pg_ctl) not found in /usr/lib/postgresql/*/bin or /usr/local/bin: apt-get install -y postgresql'
  }
  if (isRoot() && !hasPostgresUser())
    return 'running as root but there is no "postgres" user to run the server as'
  return null
}

/** For test files: skip with a printed reason, or fail when CI requires the real thing. */
export function pgAvailableForTests(): boolean {
  const reason = pgUnavailableReason()
  if (reason === null) return true
  if (process.env.CANNONADE_REQUIRE_DOCKER === '1') {
    throw new Error(`PostgreSQL tests are required (CANNONADE_REQUIRE_DOCKER=1) but cannot run: ${reason}`)
  }
  console.warn(`skipping PostgreSQL tests: ${reason}`)
  return false
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer()
    srv.once('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address()
      const port = typeof addr === 'object' && addr ? addr.port : 0
      srv.close(() => resolve(port))
    })
  })
}

export async function startPg(opts: PgFixtureOptions = {}): Promise<PgCluster> {
  const bin = findPgBin()
  if (!bin) throw new Error(pgUnavailableReason() ?? 'PostgreSQL not found')
  const asPostgres = isRoot()
  const run = (cmd: string, args: string[], input?: string): string => {
    const [file, argv] = asPostgres
      ? ['runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args]]
      : [join(bin, cmd), args]
    return execFileSync(file, argv, { encoding: 'utf8', input, stdio: ['pipe', 'pipe', 'pipe'] })
  }
  const dir = mkdtempSync(join(tmpdir(), 'cannonade-pg-'))
  chmodSync(dir, 0o777) // the postgres user writes here; the directory is private by its random name
  const password = randomBytes(12).toString('hex')
  const pwfile = join(dir, 'pw')
  writeFileSync(pwfile, `${password}\n`, { mode: 0o644 })
  const data = join(dir, 'data')
  const log = join(dir, 'log')
  try {
    run('initdb', [
      '-D',
      data,
      '-U',
      'postgres',
      `--pwfile=${pwfile}`,
      '--auth-local=trust',
      '--auth-host=scram-sha-256',
      '-E',
      'UTF8',
      '--no-sync',
    ])
    rmSync(pwfile)
    const port = await freePort()
    const settings = [`-p ${port}`, `-k ${dir}`, "-c listen_addresses='127.0.0.1'"]
    if (opts.durable === false)
      settings.push('-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off')
    run('pg_ctl', ['-D', data, '-l', log, '-w', '-t', '60', '-o', settings.join(' '), 'start'])
    const host = '127.0.0.1'
    const urlFor = (user: string, pw: string, database = 'postgres'): string =>
      `postgres://${encodeURIComponent(user)}:${encodeURIComponent(pw)}@${host}:${port}/${database}`
    return {
      url: urlFor('postgres', password),
      host,
      port,
      user: 'postgres',
      password,
      dir,
      urlFor,
      psql: (sql, database = 'postgres') => {
        const args = [
          '-h',
          dir,
          '-p',
          String(port),
          '-U',
          'postgres',
          '-d',
          database,
          '-v',
          'ON_ERROR_STOP=1',
          '-qAt',
        ]
        const psql = existsSync(join(bin, 'psql')) ? join(bin, 'psql') : 'psql'
        const [file, argv] = asPostgres ? ['runuser', ['-u', 'postgres', '--', psql, ...args]] : [psql, args]
        return execFileSync(file, argv, { encoding: 'utf8', input: sql })
      },
      stop: () => {
        try {
          run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop'])
        } finally {
          rmSync(dir, { recursive: true, force: true })
        }
      },
    }
  } catch (err) {
    const detail = existsSync(log) ? `\n${execFileSync('tail', ['-n', '20', log], { encoding: 'utf8' })}` : ''
    rmSync(dir, { recursive: true, force: true })
    throw new Error(`could not start a PostgreSQL test cluster: ${(err as Error).message}${detail}`)
  }
}

// Opening the local database: WAL, foreign keys, numbered migrations applied in order, each in a
// transaction and recorded with its hash; a backup is taken before an existing database migrates,
// so a failed migration loses nothing. What is in the way (a folder, another program's file or
// SQLite database, a damaged or truncated file, a newer schema) is a StorageError naming the path
// and the problem, before anything is written; a file the user cannot write is opened read-only.
import Database from 'better-sqlite3'
import { createHash } from 'node:crypto'
import {
  accessSync,
  closeSync,
  constants,
  existsSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  statSync,
} from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { makePrivate, privateDataDir } from '../paths.ts'

export type Db = Database.Database
/** A prepared statement with positional parameters (kept by writers that run it many times). */
export type Statement = Database.Statement<unknown[]>

const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations')

export class MigrationError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'MigrationError'
  }
}

/** The database at `path` cannot be used as it is: `problem` says why and what to do. */
export class StorageError extends Error {
  readonly path: string
  constructor(path: string, problem: string) {
    super(`the history database ${path} ${problem}`)
    this.name = 'StorageError'
    this.path = path
  }
}

/** SQLite's error codes that mean the file itself is unusable, as words. */
export function storageProblem(err: unknown): string | null {
  const code = (err as { code?: unknown } | null)?.code
  if (typeof code !== 'string' || !code.startsWith('SQLITE_')) return null
  const detail = err instanceof Error ? err.message : code
  if (code.startsWith('SQLITE_CORRUPT'))
    return `is damaged (${detail}): restore a backup (a .bak file next to it) or move it away to start a new one`
  if (code === 'SQLITE_NOTADB') return 'is not a SQLite database (another kind of file, or damaged)'
  if (code.startsWith('SQLITE_READONLY'))
    return `cannot be written (${detail}): check its permissions and its folder's`
  if (code.startsWith('SQLITE_CANTOPEN'))
    return `cannot be opened (${detail}): check the path and its permissions`
  if (code === 'SQLITE_FULL') return `cannot grow: the disk is full (${detail})`
  if (code.startsWith('SQLITE_IOERR'))
    return `cannot be read or written (${detail}): a disk or file system error`
  return null
}

interface Migration {
  version: number
  name: string
  sql: string
  hash: string
}

function loadMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((f) => /^\d{3}_.+\.sql$/.test(f))
    .sort()
    .map((f) => {
      const sql = readFileSync(join(dir, f), 'utf8')
      return {
        version: Number(f.slice(0, 3)),
        name: f,
        sql,
        hash: createHash('sha256').update(sql).digest('hex'),
      }
    })
}

export function migrate(
  db: Db,
  file: string | null,
  dir?: string,
): { applied: string[]; backup: string | null } {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, hash TEXT NOT NULL, applied_at TEXT NOT NULL) STRICT`)
  const done = new Map(
    (
      db.prepare('SELECT version, name, hash FROM schema_migrations').all() as {
        version: number
        name: string
        hash: string
      }[]
    ).map((r) => [r.version, r]),
  )
  const all = loadMigrations(dir)
  const versions = new Set(all.map((m) => m.version))
  const unknown = [...done.values()].filter((m) => !versions.has(m.version))
  if (unknown.length > 0) {
    throw new MigrationError(
      `it holds migration ${unknown.map((m) => m.name).join(', ')}, which this Cannonade does not know (a newer release wrote it); update Cannonade`,
    )
  }
  for (const m of all) {
    const seen = done.get(m.version)
    if (seen && seen.hash !== m.hash) {
      throw new MigrationError(
        `migration ${m.name} was changed after it was applied to this database (hash mismatch); restore the original file`,
      )
    }
  }
  const newest = all.at(-1)?.version ?? 0
  const known = Math.max(0, ...done.keys())
  if (known > newest) {
    throw new MigrationError(
      `this database is at schema version ${known}, newer than this Cannonade (${newest}); update Cannonade`,
    )
  }
  const pending = all.filter((m) => !done.has(m.version))
  let backup: string | null = null
  if (pending.length > 0 && done.size > 0 && file) {
    backup = `${file}.v${known}.bak`
    db.exec(`VACUUM INTO '${backup.replaceAll("'", "''")}'`)
    makePrivate(backup)
  }
  const record = db.prepare(
    'INSERT INTO schema_migrations (version, name, hash, applied_at) VALUES (?, ?, ?, ?)',
  )
  for (const m of pending) {
    // A migration that rebuilds a table (SQLite's way to change a constraint) runs with foreign
    // keys off, or dropping the old table would cascade into its children; every foreign key is
    // checked before it commits instead. The pragma only takes effect outside a transaction.
    const rebuild = /^-- foreign keys: off/.test(m.sql)
    if (rebuild) db.pragma('foreign_keys = OFF')
    try {
      db.transaction(() => {
        db.exec(m.sql)
        if (rebuild) {
          const broken = db.pragma('foreign_key_check') as { table: string; parent: string }[]
          if (broken.length > 0) {
            throw new Error(
              `${broken.length} rows of ${broken[0]!.table} point to missing ${broken[0]!.parent} rows`,
            )
          }
        }
        record.run(m.version, m.name, m.hash, new Date().toISOString())
      })()
    } catch (err) {
      throw new MigrationError(
        `migration ${m.name} failed: ${(err as Error).message}` +
          (backup ? ` (the database before migrating is in ${backup})` : ''),
      )
    } finally {
      if (rebuild) db.pragma('foreign_keys = ON')
    }
  }
  return { applied: pending.map((m) => m.name), backup }
}

export interface OpenOptions {
  readonly?: boolean
  /** Skip migrations (a reader in another thread of a process that already migrated). */
  skipMigrations?: boolean
}

const SQLITE_HEADER = 'SQLite format 3\0'

/** Checks on the path before SQLite touches it: SQLite would create, or misread, what is there. */
function checkPath(file: string): void {
  let info
  try {
    info = statSync(file)
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return
    if (code === 'ENOTDIR') throw new StorageError(file, 'has a file where a folder of its path should be')
    throw new StorageError(file, `cannot be read (${code ?? String(err)})`)
  }
  if (info.isDirectory())
    throw new StorageError(file, 'is a folder, not a database file: give a file path with --db')
  if (!info.isFile()) throw new StorageError(file, 'is not a regular file')
  if (info.size === 0) return // an empty file is an empty database
  const head = Buffer.alloc(16)
  let fd: number
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0))
  } catch (err) {
    throw new StorageError(file, `cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`)
  }
  try {
    readSync(fd, head, 0, 16, 0)
  } finally {
    closeSync(fd)
  }
  if (head.toString('latin1') !== SQLITE_HEADER)
    throw new StorageError(
      file,
      'is not a SQLite database (another kind of file, or damaged): choose another --db',
    )
}

/**
 * Why this process must not write the file, or null: no write permission, or the owner's write
 * bit cleared (a user who made it read-only meant it, even for root, whom permissions let through).
 */
function readOnlyReason(file: string): string | null {
  try {
    if ((statSync(file).mode & 0o200) === 0) return 'is read-only (no write permission)'
    accessSync(file, constants.W_OK)
    accessSync(dirname(file), constants.W_OK)
    return null
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    return code === 'ENOENT'
      ? null
      : `is read-only (${code === 'EROFS' ? 'a read-only file system' : 'no write permission here'})`
  }
}

/** Tables that say the database is not ours: anything, once schema_migrations is missing. */
function foreignTables(db: Db): string[] {
  const tables = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .pluck()
    .all() as string[]
  return tables.includes('schema_migrations') ? [] : tables
}

/** Every migration file's version, for a read-only database's check. */
function pendingOrUnknown(db: Db, file: string): void {
  const hasTable = db
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'")
    .get()
  if (!hasTable)
    throw new StorageError(file, 'is read-only and empty: nothing to show; make it writable to use it')
  const done = new Set(db.prepare('SELECT version FROM schema_migrations').pluck().all() as number[])
  const all = loadMigrations().map((m) => m.version)
  const unknown = [...done].filter((v) => !all.includes(v))
  if (unknown.length > 0)
    throw new StorageError(
      file,
      `holds migration ${unknown.join(', ')}, which this Cannonade does not know (a newer release wrote it); update Cannonade`,
    )
  if (all.some((v) => !done.has(v)))
    throw new StorageError(
      file,
      'is read-only and needs migrating to this version of Cannonade: make it writable once',
    )
}

/** Run `fn` on an open database; SQLite's "this file is unusable" errors become StorageErrors. */
function guarded<T>(file: string, fn: () => T): T {
  try {
    return fn()
  } catch (err) {
    if (err instanceof StorageError) throw err
    if (err instanceof MigrationError) throw new StorageError(file, `cannot be used: ${err.message}`)
    const problem = storageProblem(err)
    if (problem !== null) throw new StorageError(file, problem)
    throw err
  }
}

/** How long a connection waits for another's write lock before SQLITE_BUSY. */
const LOCK_WAIT_MS = 5000

/** Another connection held the write lock (past the wait, if there was one). */
export function isBusy(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY')
}

/** The wait of a write that can be tried again later (`withLockWait`): longer than a block's write. */
const BRIEF_WAIT_MS = 50

/**
 * `fn` on `db`, waiting for another connection's write lock as usual (`wait`) or only briefly (it
 * throws SQLITE_BUSY after 50 ms): for writes that can be tried again later and must not stall the
 * event loop for seconds.
 */
export function withLockWait<T>(db: Db, wait: boolean, fn: () => T): T {
  if (wait) return fn()
  db.pragma(`busy_timeout = ${BRIEF_WAIT_MS}`)
  try {
    return fn()
  } finally {
    db.pragma(`busy_timeout = ${LOCK_WAIT_MS}`)
  }
}

export function openDb(file: string, opts: OpenOptions = {}): Db {
  return openHistory(file, opts).db
}

export interface OpenedHistory {
  db: Db
  /** Why the database was opened read-only (the file is not writable here), or null. */
  readOnly: string | null
}

/**
 * Open (creating it if missing) and migrate the history database. A file this process may not
 * write is opened read-only instead (history can still be listed and shown) when it needs no
 * migration. Everything else in the way is a StorageError, before anything is written.
 */
export function openHistory(file: string, opts: OpenOptions = {}): OpenedHistory {
  const memory = file === ':memory:'
  if (!memory) {
    checkPath(file)
    try {
      privateDataDir(dirname(file))
    } catch (err) {
      const e = err as NodeJS.ErrnoException
      throw new StorageError(
        file,
        `cannot be created: its folder ${dirname(file)} cannot be made (${e.code ?? e.message})`,
      )
    }
  }
  const fresh = memory || !existsSync(file)
  const forced = !memory && !fresh && !opts.readonly ? readOnlyReason(file) : null
  const readonly = (opts.readonly ?? false) || forced !== null
  let db: Db
  try {
    db = new Database(file, { readonly, fileMustExist: readonly })
  } catch (err) {
    throw new StorageError(file, storageProblem(err) ?? `cannot be opened (${(err as Error).message})`)
  }
  try {
    guarded(file, () => {
      db.pragma(`busy_timeout = ${LOCK_WAIT_MS}`)
      const foreign = foreignTables(db)
      if (foreign.length > 0)
        throw new StorageError(
          file,
          `is another program's SQLite database (tables ${foreign.slice(0, 5).join(', ')}${foreign.length > 5 ? ', …' : ''}), not Cannonade's history: choose another --db`,
        )
      if (readonly) {
        if (forced !== null && !opts.skipMigrations) pendingOrUnknown(db, file)
        return
      }
      if (!memory) makePrivate(file)
      db.pragma('journal_mode = WAL')
      db.pragma('synchronous = NORMAL')
      db.pragma('foreign_keys = ON')
      if (!memory) for (const f of [`${file}-wal`, `${file}-shm`]) makePrivate(f)
      if (!opts.skipMigrations) migrate(db, fresh ? null : file)
    })
  } catch (err) {
    db.close()
    throw err
  }
  return { db, readOnly: forced }
}

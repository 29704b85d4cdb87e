// Opening the local database: WAL, foreign keys, numbered migrations applied in order, each in a
// transaction and recorded with its hash; a backup is taken before an existing database migrates,
// so a failed migration loses nothing.
import Database from 'better-sqlite3'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

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
  }
  const record = db.prepare(
    'INSERT INTO schema_migrations (version, name, hash, applied_at) VALUES (?, ?, ?, ?)',
  )
  for (const m of pending) {
    try {
      db.transaction(() => {
        db.exec(m.sql)
        record.run(m.version, m.name, m.hash, new Date().toISOString())
      })()
    } catch (err) {
      throw new MigrationError(
        `migration ${m.name} failed: ${(err as Error).message}` +
          (backup ? ` (the database before migrating is in ${backup})` : ''),
      )
    }
  }
  return { applied: pending.map((m) => m.name), backup }
}

export interface OpenOptions {
  readonly?: boolean
  /** Skip migrations (a reader in another thread of a process that already migrated). */
  skipMigrations?: boolean
}

export function openDb(file: string, opts: OpenOptions = {}): Db {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true })
  const fresh = file === ':memory:' || !existsSync(file)
  const db = new Database(file, { readonly: opts.readonly ?? false })
  db.pragma('busy_timeout = 5000')
  if (!opts.readonly) {
    db.pragma('journal_mode = WAL')
    db.pragma('synchronous = NORMAL')
    db.pragma('foreign_keys = ON')
    if (!opts.skipMigrations) migrate(db, fresh ? null : file)
  }
  return db
}

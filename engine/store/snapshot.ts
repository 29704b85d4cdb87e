// One consistent view of the database for a reader that awaits between reads (an export streams
// chunks into a file or a COPY): its own read-only connection in one read transaction, so a delete
// or prune committed meanwhile by another process (or this one) does not truncate what it reads.
// WAL keeps the snapshot's pages while it is open: checkpoints cannot move past it, so the WAL
// file grows during a long export and is reused after it. The snapshot never writes.
import Database from 'better-sqlite3'
import type { Db } from '../db/db.ts'

export async function withSnapshot<T>(db: Db, fn: (snap: Db) => Promise<T>): Promise<T> {
  // An in-memory database (tests) has no second connection; it is one process's alone.
  if (db.memory) return fn(db)
  const snap = new Database(db.name, { readonly: true, fileMustExist: true })
  try {
    snap.pragma('busy_timeout = 5000')
    snap.exec('BEGIN')
    // A WAL read transaction starts at its first read: take the snapshot now.
    snap.prepare('SELECT count(*) FROM runs').get()
    return await fn(snap)
  } finally {
    if (snap.inTransaction) snap.exec('COMMIT')
    snap.close()
  }
}

// When the disk under the database fails (full, an I/O error, remounted read-only), a run ends
// `failed` with a message naming the disk, and what was written stays readable. Finishing the run
// needs a few pages of its own (summaries rebuilt from what was stored, the run row): a small
// reserve file next to the database is given back to the disk for that, and made again when a
// later run starts. Its first bytes first become the run's end as a note (written over blocks the
// file already holds, so even a disk with no byte free takes it): when the database still cannot
// take the end, whatever opens it next ends the run `failed` for that reason (store/recover.ts),
// not `aborted` as if its process had been killed.
import {
  closeSync,
  ftruncateSync,
  fsyncSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs'
import { dirname } from 'node:path'
import { storageProblem } from '../db/db.ts'

/**
 * A failure of the storage itself (the disk is full, an I/O error, the file turned read-only…), as
 * words naming the disk or the database; null for any other error. A full disk names its folder
 * and says "disk full"; the rest say what db.ts's storageProblem says of the database file.
 */
export function storageFailure(err: unknown, dbPath: string): string | null {
  const e = err as { code?: unknown } | null
  const code = typeof e?.code === 'string' ? e.code : ''
  if (code === 'SQLITE_FULL' || code === 'ENOSPC')
    return `the disk holding ${dirname(dbPath)} is full (disk full, ${code}): free some space there, or move the data folder (CANNONADE_DATA_DIR / --db)`
  const problem = storageProblem(err)
  if (problem) return `the history database ${dbPath} ${problem}`
  if (code === 'EIO' || code === 'EROFS')
    return `the history database ${dbPath} cannot be written (${code}): a disk or file system error`
  return null
}

/** Bytes kept back for finishing a run on a full disk. */
export const RESERVE_BYTES = 2 << 20

export function reservePath(dbPath: string): string {
  return `${dbPath}-reserve`
}

/** Make the reserve if it is missing and the disk has room; never fails. */
export function ensureReserve(dbPath: string): void {
  if (dbPath === ':memory:') return
  const file = reservePath(dbPath)
  try {
    if (statSync(file).size >= RESERVE_BYTES) return
  } catch {
    /* missing: made below */
  }
  let fd: number | null = null
  try {
    fd = openSync(file, 'w', 0o600)
    // Zeros written for real: a sparse file would reserve nothing.
    const chunk = Buffer.alloc(64 << 10)
    for (let done = 0; done < RESERVE_BYTES; done += chunk.length) writeSync(fd, chunk)
  } catch {
    rmSync(file, { force: true }) // no room even for the reserve: nothing to keep back
  } finally {
    if (fd !== null) closeSync(fd)
  }
}

/** A run's end kept in the reserve file while the database cannot take it. */
export interface EndNote {
  runId: number
  error: string
}

/**
 * Give the reserve back to the disk, so the run's end can be written; never fails. With `note`,
 * the run's end stays in the file's first bytes (written in place, no new block needed) until
 * clearEndNote: if the database cannot take the end, the next open finds it there.
 */
export function releaseReserve(dbPath: string, note?: EndNote): void {
  if (dbPath === ':memory:') return
  const file = reservePath(dbPath)
  if (note) {
    let fd: number | null = null
    try {
      fd = openSync(file, 'r+')
      const text = Buffer.from(`${JSON.stringify({ end: note })}\n`)
      if (text.length <= statSync(file).size) {
        writeSync(fd, text, 0, text.length, 0)
        ftruncateSync(fd, text.length)
        fsyncSync(fd)
        return
      }
    } catch {
      /* no reserve, or it cannot be written: given back below */
    } finally {
      if (fd !== null) closeSync(fd)
    }
  }
  try {
    rmSync(file, { force: true })
  } catch {
    /* a read-only or failing disk: nothing to give back */
  }
}

/** The run's end a failed disk left in the reserve file, or null. */
export function readEndNote(dbPath: string): EndNote | null {
  if (dbPath === ':memory:' || dbPath === '') return null
  try {
    const file = reservePath(dbPath)
    if (statSync(file).size > 64 * 1024) return null
    const { end } = JSON.parse(readFileSync(file, 'utf8')) as { end?: Partial<EndNote> }
    return end && Number.isInteger(end.runId) && typeof end.error === 'string'
      ? { runId: end.runId!, error: end.error.slice(0, 4000) }
      : null
  } catch {
    return null
  }
}

/** The run's end is in the database: the note goes (the next run makes the reserve again). */
export function clearEndNote(dbPath: string): void {
  if (readEndNote(dbPath)) rmSync(reservePath(dbPath), { force: true })
}

/**
 * The database's write-ahead log folded into it and emptied, so a disk without room can take the
 * run's end (the log grows with every write while frames wait in it); never fails.
 */
export function foldLog(db: { pragma(sql: string): unknown }): void {
  try {
    db.pragma('wal_checkpoint(TRUNCATE)')
  } catch {
    /* a reader holds the log, or the disk fails: the end is tried as it is */
  }
}

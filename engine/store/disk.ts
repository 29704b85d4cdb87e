// When the disk under the database fails (full, an I/O error, remounted read-only), a run ends
// `failed` with a message naming the disk, and what was written stays readable. Finishing the run
// needs a few pages of its own (summaries rebuilt from what was stored, the run row): a small
// reserve file next to the database is given back to the disk for that, and made again when a
// later run starts.
import { closeSync, openSync, rmSync, statSync, writeSync } from 'node:fs'
import { dirname } from 'node:path'
import { storageProblem } from './db.ts'

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

/** Give the reserve back to the disk, so the run's end can be written; never fails. */
export function releaseReserve(dbPath: string): void {
  if (dbPath === ':memory:') return
  try {
    rmSync(reservePath(dbPath), { force: true })
  } catch {
    /* a read-only or failing disk: nothing to give back */
  }
}

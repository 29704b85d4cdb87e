// The history database as the host sees it: opened (or refused with a message naming the path and
// the problem), read-only when the file is not writable here (history can still be listed and
// shown; nothing that writes is allowed), and SQLite's "this file is unusable" errors from any
// call turned into that same kind of message instead of a raw SqliteError.
import { ApiError } from '../api/errors.ts'
import { openHistory, StorageError, storageProblem, type OpenedHistory } from '../db/db.ts'

/** The problem as an ApiError: a file in the way is bad input (exit 2), a failing disk is not. */
export function storageApiError(err: unknown, dbPath: string): unknown {
  if (err instanceof ApiError) return err
  if (err instanceof StorageError) return new ApiError('bad-input', err.message, 'db')
  const problem = storageProblem(err)
  if (problem === null) return err
  const code = String((err as { code?: unknown }).code)
  const kind = code === 'SQLITE_FULL' || code.startsWith('SQLITE_IOERR') ? 'unavailable' : 'bad-input'
  return new ApiError(kind, `the history database ${dbPath} ${problem}`, 'db')
}

/** Open the host's database; a read-only one is announced once through `onNotice`. */
export function openHostHistory(dbPath: string, onNotice?: (message: string) => void): OpenedHistory {
  let opened: OpenedHistory
  try {
    opened = openHistory(dbPath)
  } catch (err) {
    throw storageApiError(err, dbPath)
  }
  if (opened.readOnly !== null)
    onNotice?.(
      `the history database ${dbPath} ${opened.readOnly}: opened read-only (history can be listed, shown and exported; runs, changes, migrations and retention are off)`,
    )
  return opened
}

/** Throws when the database is read-only: for every operation that writes to it. */
export function writableCheck(dbPath: string, readOnly: string | null): () => void {
  return () => {
    if (readOnly !== null)
      throw new ApiError(
        'conflict',
        `the history database ${dbPath} ${readOnly}: opened read-only, nothing can be changed`,
        'db',
      )
  }
}

type AnyFn = (...args: unknown[]) => unknown

/**
 * Every operation of `api` (each domain's functions; `onX` subscriptions pass through) with
 * storage errors mapped by storageApiError. The same object shape comes back.
 */
export function withStorageErrors<T extends object>(api: T, dbPath: string): T {
  const wrap = (fn: AnyFn): AnyFn =>
    function (this: unknown, ...args: unknown[]) {
      try {
        const out = fn.apply(this, args)
        return out instanceof Promise
          ? out.catch((err: unknown) => {
              throw storageApiError(err, dbPath)
            })
          : out
      } catch (err) {
        throw storageApiError(err, dbPath)
      }
    }
  const out: Record<string, unknown> = {}
  for (const [domain, members] of Object.entries(api)) {
    if (typeof members !== 'object' || members === null || Array.isArray(members)) {
      out[domain] = members
      continue
    }
    out[domain] = Object.fromEntries(
      Object.entries(members as Record<string, unknown>).map(([name, fn]) => [
        name,
        typeof fn === 'function' && !/^on[A-Z]/.test(name) ? wrap(fn as AnyFn) : fn,
      ]),
    )
  }
  // Same keys, same function signatures: only rejections are mapped.
  return out as T
}

// Writing an export or report file (issue 20, item 3), one helper for every path the CLI and the
// Api write to. A regular file (or a path that does not exist yet) is written whole into a
// temporary file next to it, then renamed into place: never half-written. Anything else the user
// names (a character device such as /dev/null, a FIFO, `-` for standard output) is written to
// directly, since renaming over it would replace it with a file, and every write is checked. A
// failed write is an error (exit 1), and leaves no temporary file; a temporary file left by a
// process that died (kill -9) is removed by the next write into that folder. The history
// database, its WAL, SHM and reserve files and the data folder's own files are never an output.
// The file is private (0600): exports hold a run's URLs, names and numbers (engine/paths.ts).
import {
  createWriteStream,
  lstatSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { Readable, type Writable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { ApiError } from '../api/errors.ts'
import { dataDir, PRIVATE_FILE_MODE } from '../paths.ts'

/** What an output path is: written through a temporary file, or directly. */
export type OutputKind = 'file' | 'direct'

export interface OutputOptions {
  /** The history database in use (better-sqlite3's `db.name`): it and its companions are refused. */
  dbPath?: string
  /** The input field named in errors ('out', 'html'). */
  field?: string
  env?: NodeJS.ProcessEnv
  /** A regular file's mode (default PRIVATE_FILE_MODE, 0600); a device or FIFO keeps its own. */
  mode?: number
}

const PARTIAL = /\.partial-(\d+)$/

/** Names of this process's own standard output and error: written through the descriptor (a pipe or socket there cannot be opened by name). */
const STD_FD: Record<string, number> = {
  '-': 1,
  '/dev/stdout': 1,
  '/dev/fd/1': 1,
  '/proc/self/fd/1': 1,
  '/dev/stderr': 2,
  '/dev/fd/2': 2,
  '/proc/self/fd/2': 2,
}

/** Whether `path` names standard output ('-', /dev/stdout): a command then says what it wrote on stderr. */
export function isStdout(path: string | undefined): boolean {
  return path !== undefined && STD_FD[path] === 1
}

/** The path with its folder's symbolic links resolved (the file itself may not exist yet). */
function real(path: string): string {
  try {
    return realpathSync(path)
  } catch {
    try {
      return join(realpathSync(dirname(path)), basename(path))
    } catch {
      return resolve(path)
    }
  }
}

/** The files that belong to the database at `dbPath` (it, its WAL, SHM, journal and reserve). */
function databaseFiles(dbPath: string | undefined): string[] {
  if (!dbPath || dbPath === ':memory:' || dbPath === '') return []
  const db = real(dbPath)
  return [db, `${db}-wal`, `${db}-shm`, `${db}-journal`, `${db}-reserve`]
}

/** Why `path` must not be written as an output, or null. */
export function protectedOutput(path: string, opts: OutputOptions = {}): string | null {
  const target = real(path)
  const dbFiles = databaseFiles(opts.dbPath)
  if (dbFiles.includes(target)) return `${path} is the history database's file ${target}`
  const db = dbFiles[0]
  if (db && dirname(target) === dirname(db) && /^\.v\d+\.bak$/.test(target.slice(db.length)))
    return `${path} is a backup of the history database`
  const data = real(dataDir(opts.env))
  if (dirname(target) === data) return `${path} is one of the data folder's own files (${data})`
  return null
}

/**
 * How `path` is written: 'file' (temporary file and rename) for a regular file or a path that does
 * not exist, 'direct' for `-`, a character device or a FIFO; refused (bad input) otherwise.
 */
export function outputKind(path: string, opts: OutputOptions = {}): OutputKind {
  const field = opts.field ?? 'out'
  if (STD_FD[path] !== undefined) return 'direct'
  if (path === '') throw new ApiError('bad-input', `${field}: the output path is empty`, field)
  const why = protectedOutput(path, opts)
  if (why) throw new ApiError('bad-input', `${field}: refusing to write ${why}: choose another file`, field)
  let st
  try {
    st = statSync(path)
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code !== 'ENOENT') throw cannotWrite(path, err, field)
    if (!isDir(dirname(resolve(path))))
      throw new ApiError(
        'bad-input',
        `${field}: cannot write ${path}: its folder ${dirname(resolve(path))} does not exist`,
        field,
      )
    return 'file'
  }
  if (st.isFile()) return 'file'
  if (st.isCharacterDevice() || st.isFIFO()) return 'direct'
  const what = st.isDirectory() ? 'a folder' : st.isSocket() ? 'a socket' : 'a block device'
  throw new ApiError('bad-input', `${field}: cannot write ${path}: it is ${what}, not a file`, field)
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}

function alive(pid: number): boolean {
  if (pid === process.pid) return true
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Remove `NAME.partial-PID` files in `dir` whose process is gone (a kill -9 mid-write). */
export function removeStalePartials(dir: string): string[] {
  const removed: string[] = []
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch {
    return removed
  }
  for (const name of names) {
    const pid = PARTIAL.exec(name)?.[1]
    if (pid === undefined || alive(Number(pid))) continue
    const file = join(dir, name)
    try {
      if (!lstatSync(file).isFile()) continue
      rmSync(file, { force: true })
      removed.push(file)
    } catch {
      // Gone already, or not ours to remove: left alone.
    }
  }
  return removed
}

function cannotWrite(path: string, err: unknown, field: string): ApiError {
  const e = err as NodeJS.ErrnoException
  const message = `${field}: cannot write ${path}: ${e.message ?? String(err)}`
  const input = ['ENOENT', 'EACCES', 'EPERM', 'EISDIR', 'EROFS', 'ENOTDIR', 'ENAMETOOLONG', 'ELOOP']
  // The path was wrong (bad input, exit 2); the write itself failed (a full disk, EIO: exit 1).
  return new ApiError(input.includes(e.code ?? '') ? 'bad-input' : 'unavailable', message, field)
}

export interface PreparedOutput {
  kind: OutputKind
  /** Where the producer writes: the temporary file, or the destination itself. */
  path: string
  /** Put the temporary file in place (nothing for a direct output). */
  commit(): void
  /** Remove the temporary file (nothing for a direct output). */
  discard(): void
  fail(err: unknown): ApiError
}

/** Check `outPath` and choose where to write it; for a producer that writes a file itself (a PDF). */
export function prepareOutput(outPath: string, opts: OutputOptions = {}): PreparedOutput {
  const field = opts.field ?? 'out'
  const kind = outputKind(outPath, opts)
  const fail = (err: unknown) => (err instanceof ApiError ? err : cannotWrite(outPath, err, field))
  if (kind === 'direct') {
    return { kind, path: outPath, commit() {}, discard() {}, fail }
  }
  // Through a symbolic link: the file it points to is replaced, the link kept.
  const dest = real(outPath)
  removeStalePartials(dirname(dest))
  const partial = `${dest}.partial-${process.pid}`
  return {
    kind,
    path: partial,
    commit: () => renameSync(partial, dest),
    discard: () => rmSync(partial, { force: true }),
    fail,
  }
}

function destination(out: PreparedOutput, outPath: string, mode: number): Writable {
  const fd = STD_FD[outPath]
  if (fd !== undefined) return createWriteStream('', { fd, autoClose: false })
  return out.kind === 'file'
    ? createWriteStream(out.path, { mode })
    : createWriteStream(out.path, { flags: 'w' })
}

/** Stream `text` (with backpressure) to `outPath`; see the header for what is written how. */
export async function writeOutput(
  outPath: string,
  text: Iterable<string | Uint8Array> | AsyncIterable<string | Uint8Array>,
  opts: OutputOptions = {},
): Promise<void> {
  const out = prepareOutput(outPath, opts)
  try {
    await pipeline(
      Readable.from(text, { objectMode: false }),
      destination(out, outPath, opts.mode ?? PRIVATE_FILE_MODE),
    )
    out.commit()
  } catch (err) {
    out.discard()
    throw out.fail(err)
  }
}

/** RFC 4180 field: quoted when it holds a comma, quote, CR or LF. */
export function csvField(v: string | number | bigint | null | undefined): string {
  if (v === null || v === undefined) return ''
  if (typeof v !== 'string') return String(v)
  return /[",\r\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v
}

export function csvLine(fields: readonly (string | number | bigint | null | undefined)[]): string {
  return `${fields.map(csvField).join(',')}\n`
}

/** A latency's columns in the CSV exports, µs: the mean, the percentiles and the max. */
export const LATENCY_US_COLUMNS = [
  'mean_us',
  'p50_us',
  'p90_us',
  'p95_us',
  'p99_us',
  'p999_us',
  'max_us',
] as const

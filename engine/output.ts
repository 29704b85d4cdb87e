// Writing a file a user named (an export, a report, a CLI's --json or --out): never over the data a
// run is kept in, never replacing what is not a regular file, never half-written.
// - The databases this process opened, their WAL, SHM, journal and reserve files, and the data
//   folder's own files (settings.json, native-stacks/) are refused as outputs, whatever path
//   (relative, through a symlink) names them.
// - A regular file, or a path that does not exist yet, gets a temporary file beside it, renamed
//   over it once complete (a symlink to a regular file: its target is replaced, not the link).
// - A character device, FIFO or socket (/dev/stdout, /dev/full, a pipe) and `-` (standard output)
//   are written to directly, and the write's result is checked: /dev/full fails, naming the error.
// - The temporary file is `NAME.partial-PID`; one left by a process that no longer runs (killed
//   mid-export) is removed by the next write beside it.
import {
  closeSync,
  fsyncSync,
  lstatSync,
  openSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs'
import type { Stats } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import type { Writable } from 'node:stream'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { createWriteStream } from 'node:fs'
import { ApiError } from './api/errors.ts'
import { PRIVATE_FILE_MODE } from './paths.ts'

const DB_SUFFIXES = ['', '-wal', '-shm', '-journal', '-reserve']
const kept = new Set<string>()

/** Called by the store for every database it opens: its files, and its folder's, are no output. */
export function keepFromOutputs(dbPath: string): void {
  if (dbPath === ':memory:') return
  kept.add(realOf(resolve(dbPath)))
}

/** The real path of `p`, or of its folder plus its name when it does not exist yet. */
function realOf(p: string): string {
  try {
    return realpathSync(p)
  } catch {
    try {
      return join(realpathSync(dirname(p)), basename(p))
    } catch {
      return p
    }
  }
}

/** Why `out` may not be written: it is a database's file or the data folder's own. Null if it may. */
export function outputRefusal(out: string): string | null {
  if (out === '-') return null
  const real = realOf(resolve(out))
  for (const db of kept) {
    for (const suffix of DB_SUFFIXES)
      if (real === db + suffix)
        return `${out} is ${suffix ? `the ${suffix.slice(1)} file of ` : ''}the database ${db}`
    const dir = dirname(db)
    if (real === dir) return `${out} is the data folder ${dir}`
    if (real === join(dir, 'settings.json')) return `${out} is the settings file of the data folder ${dir}`
    if (real.startsWith(join(dir, 'native-stacks') + '/') || real === join(dir, 'native-stacks'))
      return `${out} is in the data folder's native-stacks/ (where running stacks are recorded)`
  }
  return null
}

function statOf(p: string): Stats | null {
  try {
    return statSync(p)
  } catch {
    return null
  }
}

function cannotWrite(out: string, err: unknown, field: string): ApiError {
  if (err instanceof ApiError) return err
  const e = err as NodeJS.ErrnoException
  // A path that cannot be written is the user's to change (exit 2); a write that failed on the
  // way (a full disk, /dev/full, an I/O error) is not (exit 1).
  const path = ['ENOENT', 'EACCES', 'EPERM', 'EISDIR', 'ENOTDIR', 'EROFS', 'ENAMETOOLONG', 'ELOOP'].includes(
    e.code ?? '',
  )
  return new ApiError(
    path ? 'bad-input' : 'unavailable',
    `cannot write ${out}: ${e.message ?? String(err)}`,
    field,
  )
}

/** Removes `NAME.partial-PID` files beside `target` whose process no longer runs. */
function removeStalePartials(target: string): void {
  const prefix = `${basename(target)}.partial-`
  let names: string[]
  try {
    names = readdirSync(dirname(target))
  } catch {
    return
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue
    const pid = Number(name.slice(prefix.length))
    if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid || alive(pid)) continue
    rmSync(join(dirname(target), name), { force: true })
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Where a write goes: straight to a device, pipe or stdout, or through a temporary file. */
function planOf(out: string, field: string): { direct: string | 1 } | { target: string; partial: string } {
  const refusal = outputRefusal(out)
  if (refusal) throw new ApiError('bad-input', `${field}: refusing to write over ${refusal}`, field)
  if (out === '-') return { direct: 1 }
  const st = statOf(out)
  if (st?.isDirectory()) throw new ApiError('bad-input', `cannot write ${out}: it is a folder`, field)
  if (st && !st.isFile()) return { direct: out }
  // A regular file (through any symlinks) or a new path: replace the file itself, not a link to it.
  const target = st ? realpathSync(out) : resolve(out)
  if (!st && lstatOf(out)?.isSymbolicLink())
    throw new ApiError('bad-input', `cannot write ${out}: a link to nothing`, field)
  removeStalePartials(target)
  return { target, partial: `${target}.partial-${process.pid}` }
}

function lstatOf(p: string): Stats | null {
  try {
    return lstatSync(p)
  } catch {
    return null
  }
}

/** Streams `text` (with backpressure) to `out` as above; a failed write is an ApiError naming it. */
export async function writeOutput(
  out: string,
  text: Iterable<string> | AsyncIterable<string>,
  field = 'out',
): Promise<void> {
  const plan = planOf(out, field)
  const source = () => Readable.from(text, { objectMode: false })
  if ('direct' in plan) {
    const sink: Writable =
      plan.direct === 1
        ? createWriteStream('', { fd: 1, autoClose: false })
        : createWriteStream(plan.direct, { flags: 'w' })
    try {
      await pipeline(source(), sink)
    } catch (err) {
      throw cannotWrite(out, err, field)
    }
    return
  }
  try {
    await pipeline(source(), createWriteStream(plan.partial, { mode: PRIVATE_FILE_MODE }))
    renameSync(plan.partial, plan.target)
  } catch (err) {
    rmSync(plan.partial, { force: true })
    throw cannotWrite(out, err, field)
  }
}

/** The same for text in memory, synchronously (the CLI's --json files). */
export function writeOutputSync(out: string, text: string | Buffer, field = 'out'): void {
  const plan = planOf(out, field)
  const path = 'direct' in plan ? plan.direct : plan.partial
  let fd: number | null = null
  try {
    fd = typeof path === 'number' ? path : openSync(path, 'w', PRIVATE_FILE_MODE)
    const bytes = typeof text === 'string' ? Buffer.from(text) : text
    for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at)
    if (!('direct' in plan)) fsyncSync(fd)
    if (typeof path !== 'number') closeSync(fd)
    fd = null
    if (!('direct' in plan)) renameSync(plan.partial, plan.target)
  } catch (err) {
    if (fd !== null && typeof path !== 'number') closeSync(fd)
    if (!('direct' in plan)) rmSync(plan.partial, { force: true })
    throw cannotWrite(out, err, field)
  }
}

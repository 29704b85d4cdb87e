// Writing an export file without half-written results: text is streamed (with backpressure) into
// a temporary file next to the destination, which is renamed into place only once complete. The
// file is private (0600): exports hold a run's URLs, names and numbers (engine/paths.ts).
import { createWriteStream, renameSync, rmSync } from 'node:fs'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { ApiError } from '../api/errors.ts'
import { PRIVATE_FILE_MODE } from '../paths.ts'

export async function writeAtomically(outPath: string, text: Iterable<string>): Promise<void> {
  const partial = `${outPath}.partial-${process.pid}`
  try {
    await pipeline(
      Readable.from(text, { objectMode: false }),
      createWriteStream(partial, { mode: PRIVATE_FILE_MODE }),
    )
    renameSync(partial, outPath)
  } catch (err) {
    rmSync(partial, { force: true })
    if (err instanceof ApiError) throw err
    const e = err as NodeJS.ErrnoException
    if (e.code === 'ENOENT' || e.code === 'EACCES' || e.code === 'EISDIR' || e.code === 'EROFS') {
      throw new ApiError('bad-input', `cannot write ${outPath}: ${e.message}`, 'out')
    }
    throw err
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

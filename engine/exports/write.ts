// Export files are written by engine/output.ts: never over the database or the data folder's own
// files, through a temporary file renamed into place (0600), or straight to a device or pipe.
import { writeOutput } from '../output.ts'

export async function writeAtomically(outPath: string, text: Iterable<string>): Promise<void> {
  await writeOutput(outPath, text)
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

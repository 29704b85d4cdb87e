// `cannonade export pg ID... --url postgres://... | export csv ID --out FILE [--series] |
//  export json ID... --out FILE | export junit ID --out FILE` and `cannonade import json FILE`.
// Exit codes: 0 ok, 1 the destination failed (PostgreSQL unreachable, a lost connection), 2 bad
// input (unknown flag, missing or non-numeric ID, unknown run, wrong password, no permission).
import { exportCsv } from '../exports/csv.ts'
import { importJson } from '../exports/json-import.ts'
import { exportJson } from '../exports/json.ts'
import { exportJunit } from '../exports/junit.ts'
import { maskUrl } from '../exports/pg-errors.ts'
import { exportPg, type ExportProgress } from '../exports/pg.ts'
import { openDb } from '../store/db.ts'
import { parseFlags, UsageError } from './args.ts'
import type { CliContext } from './context.ts'
import { parseRunId, reportError } from './runs.ts'

export const EXPORT_USAGE = `usage: cannonade export pg ID... --url postgres://user:password@host:5432/db   (or CANNONADE_PG_URL)
       cannonade export csv ID --out FILE [--series]
       cannonade export json ID... --out FILE
       cannonade export junit ID --out FILE
       cannonade import json FILE
options: --db FILE  the history database (default: the desktop app's)`

const count = (n: number): string => n.toLocaleString('en-US')

function ids(positional: readonly string[], sub: string, many: boolean): number[] {
  if (positional.length === 0)
    throw new UsageError(`export ${sub}: missing ID (a run id; see "cannonade runs list")`)
  if (!many && positional.length > 1)
    throw new UsageError(`export ${sub} takes one ID, got ${positional.length}`)
  return positional.map((p) => parseRunId(p))
}

function requireOut(flags: Record<string, unknown>, sub: string): string {
  const out = flags.out
  if (typeof out !== 'string' || out === '') throw new UsageError(`export ${sub}: --out FILE is required`)
  return out
}

/** One self-rewriting line on a terminal, at most every 200 ms. */
function progressPrinter(ctx: CliContext): { update(p: ExportProgress): void; done(): void } {
  let last = 0
  let shown = false
  return {
    update(p) {
      const now = Date.now()
      if (!ctx.isTTY || (now - last < 200 && p.rowsDone < p.rowsTotal)) return
      last = now
      shown = true
      const pct = p.rowsTotal ? Math.floor((100 * p.rowsDone) / p.rowsTotal) : 100
      ctx.stderr.write(
        `\r\x1b[2Kexporting run ${p.runId} (${p.runsDone + 1 > p.runsTotal ? p.runsTotal : p.runsDone + 1}/${p.runsTotal}): ${count(p.rowsDone)} / ${count(p.rowsTotal)} rows (${pct} %)`,
      )
    },
    done() {
      if (shown) ctx.stderr.write('\r\x1b[2K')
    },
  }
}

async function exportPgCommand(argv: string[], ctx: CliContext): Promise<number> {
  const { flags, positional } = parseFlags(argv, { url: 'string', db: 'string' })
  const runIds = ids(positional, 'pg', true)
  const url = (flags.url as string | undefined) ?? process.env.CANNONADE_PG_URL
  if (!url)
    throw new UsageError(
      'export pg: --url postgres://user:password@host:5432/db is required (or set CANNONADE_PG_URL)',
    )
  const db = openDb((flags.db as string | undefined) ?? ctx.dbPath)
  const progress = progressPrinter(ctx)
  const started = performance.now()
  try {
    const res = await exportPg(db, runIds, url, (p) => progress.update(p))
    progress.done()
    const seconds = (performance.now() - started) / 1000
    ctx.stdout.write(
      `exported run${res.runIds.length > 1 ? 's' : ''} ${res.runIds.join(', ')} to ${maskUrl(url)} (schema cannonade): ` +
        `${count(res.rows)} rows in ${seconds.toFixed(1)} s (${count(Math.round(res.rows / Math.max(seconds, 0.001)))} rows/s)\n`,
    )
    return 0
  } finally {
    progress.done()
    db.close()
  }
}

async function fileExport(sub: string, argv: string[], ctx: CliContext): Promise<number> {
  const spec =
    sub === 'csv' ? { out: 'string', db: 'string', series: 'boolean' } : { out: 'string', db: 'string' }
  const { flags, positional } = parseFlags(argv, spec as Record<string, 'string' | 'boolean'>)
  const runIds = ids(positional, sub, sub === 'json')
  const out = requireOut(flags, sub)
  const db = openDb((flags.db as string | undefined) ?? ctx.dbPath)
  try {
    const id = runIds[0] ?? 0
    if (sub === 'csv') {
      const kind = flags.series ? 'series' : 'samples'
      const res = await exportCsv(db, id, { kind }, out)
      ctx.stdout.write(
        `wrote ${count(res.rows)} ${kind === 'series' ? 'per-second rows' : 'samples'} of run ${id} to ${out}\n`,
      )
    } else if (sub === 'json') {
      const res = await exportJson(db, runIds, out)
      ctx.stdout.write(
        `wrote run${runIds.length > 1 ? 's' : ''} ${res.runIds.join(', ')} (${count(res.rows)} samples) to ${out}\n`,
      )
    } else {
      const res = await exportJunit(db, id, out)
      ctx.stdout.write(
        `wrote ${res.rows} test case${res.rows === 1 ? '' : 's'} (${res.failures} failing) of run ${id} to ${out}\n`,
      )
    }
    return 0
  } finally {
    db.close()
  }
}

export async function exportCommand(argv: string[], ctx: CliContext): Promise<number> {
  try {
    const [sub, ...rest] = argv
    if (sub === 'pg') return await exportPgCommand(rest, ctx)
    if (sub === 'csv' || sub === 'json' || sub === 'junit') return await fileExport(sub, rest, ctx)
    throw new UsageError(
      sub === undefined
        ? 'export: missing kind (pg, csv, json or junit)'
        : `export: unknown kind "${sub}" (pg, csv, json or junit)`,
    )
  } catch (err) {
    return reportError(err, ctx, EXPORT_USAGE)
  }
}

export async function importCommand(argv: string[], ctx: CliContext): Promise<number> {
  try {
    const [sub, ...rest] = argv
    if (sub !== 'json')
      throw new UsageError(
        sub === undefined ? 'import: missing kind (json)' : `import: unknown kind "${sub}" (json)`,
      )
    const { flags, positional } = parseFlags(rest, { db: 'string' })
    const file = positional[0]
    if (file === undefined)
      throw new UsageError('import json: missing FILE (a file written by "cannonade export json")')
    if (positional.length > 1) throw new UsageError(`import json takes one FILE, got ${positional.length}`)
    const db = openDb((flags.db as string | undefined) ?? ctx.dbPath)
    try {
      const res = importJson(db, file)
      const pairs = res.runIds.map((id, i) => `run ${res.sourceRunIds[i]} as run ${id}`).join(', ')
      ctx.stdout.write(`imported ${pairs || 'no runs'} (${count(res.rows)} samples) from ${file}\n`)
      return 0
    } finally {
      db.close()
    }
  } catch (err) {
    return reportError(err, ctx, EXPORT_USAGE)
  }
}

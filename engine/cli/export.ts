// `cannonade export pg ID... --url postgres://... | export csv ID --out FILE [--series] |
//  export csv --study ID --out FILE | export json ID... --out FILE | export junit ID --out FILE`
// (`cannonade import json FILE` is in ./import.ts), through the engine: PostgreSQL through its Api, files at a path of the user's choosing through
// its local capabilities. Exit codes: 0 ok, 1 the destination failed (PostgreSQL unreachable, a
// lost connection), 2 bad input (unknown flag, missing or non-numeric ID, unknown run, wrong
// password, no permission).
import type { ExportProgressEvent, ExportResult } from '../api/types.ts'
import { maskUrl } from '../pg/errors.ts'
import { isStdout } from '../exports/write.ts'
import { DB_FLAG, helpText, parseFlags, UsageError } from './args.ts'
import { parseRunId, reportError, withEngine } from './common.ts'
import type { CliCommand, CliContext } from './context.ts'

const OUT_FLAG = { out: { type: 'string', value: 'FILE', help: 'the file to write' } } as const
const PG_FLAGS = {
  url: {
    type: 'string',
    value: 'postgres://…',
    help: 'the PostgreSQL database to export into (or CANNONADE_PG_URL)',
  },
  ...DB_FLAG,
} as const
const CSV_FLAGS = {
  ...OUT_FLAG,
  series: {
    type: 'boolean',
    help: "csv: the per-second series (with the targets' CPU, memory, database connections and app/db time; a target of several instances also a row per instance and second) instead of the raw samples",
  },
  study: {
    type: 'number',
    value: 'ID',
    help: 'csv: a whole study instead of a run, one row per swept value and target (see "cannonade run" of a sweep)',
  },
  ...DB_FLAG,
} as const
const FILE_FLAGS = { ...OUT_FLAG, ...DB_FLAG } as const

export const EXPORT_USAGE = helpText(
  `usage: cannonade export pg ID... --url postgres://user:password@host:5432/db   (or CANNONADE_PG_URL)
       cannonade export csv ID --out FILE [--series]
       cannonade export csv --study ID --out FILE
       cannonade export json ID... --out FILE
       cannonade export junit ID --out FILE`,
  PG_FLAGS,
  CSV_FLAGS,
)

const count = (n: number): string => n.toLocaleString('en-US')

function ids(positional: readonly string[], sub: string, many: boolean): number[] {
  if (positional.length === 0)
    throw new UsageError(`export ${sub}: missing ID (a run id; see "cannonade runs list")`)
  if (!many && positional.length > 1)
    throw new UsageError(`export ${sub} takes one ID, got ${positional.length}`)
  return positional.map((p) => parseRunId(p))
}

function requireOut(out: string | undefined, sub: string): string {
  if (out === undefined || out === '') throw new UsageError(`export ${sub}: --out FILE is required`)
  return out
}

/** One self-rewriting line on a terminal, at most every 200 ms. */
function progressPrinter(ctx: CliContext): { update(p: ExportProgressEvent): void; done(): void } {
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
  const { flags, positional } = parseFlags(argv, PG_FLAGS)
  const runIds = ids(positional, 'pg', true)
  const url = flags.url ?? process.env.CANNONADE_PG_URL
  if (!url)
    throw new UsageError(
      'export pg: --url postgres://user:password@host:5432/db is required (or set CANNONADE_PG_URL)',
    )
  const progress = progressPrinter(ctx)
  const started = performance.now()
  try {
    const res = await withEngine(
      flags.db ?? ctx.dbPath,
      async (host) => {
        const off = host.exports.onProgress((p) => progress.update(p))
        try {
          return await host.exports.pg(runIds, { url })
        } finally {
          off()
        }
      },
      { ctx },
    )
    progress.done()
    const seconds = (performance.now() - started) / 1000
    ctx.stdout.write(
      `exported run${res.runIds.length > 1 ? 's' : ''} ${res.runIds.join(', ')} to ${maskUrl(url)} (schema cannonade): ` +
        `${count(res.rows)} rows in ${seconds.toFixed(1)} s (${count(Math.round(res.rows / Math.max(seconds, 0.001)))} rows/s)\n`,
    )
    // What became of archived samples: a re-export never loses them, and says when it kept them.
    for (const a of res.archive ?? []) if (a.note) ctx.stdout.write(`${a.note}\n`)
    return sayMissing(res, ctx)
  } finally {
    progress.done()
  }
}

async function studyCsv(
  study: number,
  positional: readonly string[],
  out: string | undefined,
  dbPath: string,
  ctx: CliContext,
): Promise<number> {
  if (!Number.isInteger(study) || study <= 0) throw new UsageError(`--study: "${study}" is not a study id`)
  if (positional.length > 0) throw new UsageError('export csv --study takes no run ID')
  const file = requireOut(out, 'csv')
  const res = await withEngine(dbPath, ({ local }) => local.exportStudyCsv(study, file), { ctx })
  ;(isStdout(file) ? ctx.stderr : ctx.stdout).write(
    `wrote study ${study} (${count(res.rows)} rows: values × targets, runs ${res.runIds.join(', ')}) to ${file}\n`,
  )
  return 0
}

async function fileExport(sub: 'csv' | 'json' | 'junit', argv: string[], ctx: CliContext): Promise<number> {
  if (sub === 'csv') {
    const csv = parseFlags(argv, CSV_FLAGS)
    if (csv.flags.study !== undefined) {
      if (csv.flags.series) throw new UsageError('--study and --series do not go together')
      return studyCsv(csv.flags.study, csv.positional, csv.flags.out, csv.flags.db ?? ctx.dbPath, ctx)
    }
  }
  const { flags, positional } = sub === 'csv' ? parseFlags(argv, CSV_FLAGS) : parseFlags(argv, FILE_FLAGS)
  const runIds = ids(positional, sub, sub === 'json')
  const out = requireOut(flags.out, sub)
  const id = runIds[0] ?? 0
  const series = 'series' in flags && flags.series === true
  const { line, res } = await withEngine(
    flags.db ?? ctx.dbPath,
    async ({ local }) => {
      if (sub === 'csv') {
        const res = await local.exportCsv(id, { kind: series ? 'series' : 'samples', out })
        return {
          res,
          line: `wrote ${count(res.rows)} ${series ? 'per-second rows' : 'samples'} of run ${id} to ${out}`,
        }
      }
      if (sub === 'json') {
        const res = await local.exportJson(runIds, out)
        const samples = res.missing?.length ? 'samples it holds' : 'samples'
        return {
          res,
          line: `wrote run${runIds.length > 1 ? 's' : ''} ${res.runIds.join(', ')} (${count(res.rows)} ${samples}) to ${out}`,
        }
      }
      const res = await local.exportJunit(id, out)
      return {
        res,
        line: `wrote ${res.rows} test case${res.rows === 1 ? '' : 's'} (${res.failures} failing) of run ${id} to ${out}`,
      }
    },
    { ctx },
  )
  // With --out - the file is standard output: what was written is said on stderr.
  ;(isStdout(out) ? ctx.stderr : ctx.stdout).write(line + '\n')
  return sayMissing(res, ctx)
}

/**
 * Runs whose raw samples the export lacks, each with where they are; exit 1 when its load agents
 * kept them (the export is incomplete until they are brought in), 0 when they were pruned.
 */
function sayMissing(res: ExportResult, ctx: CliContext): number {
  for (const m of res.missing ?? []) ctx.stderr.write(`cannonade export: ${m.message}\n`)
  return (res.missing ?? []).some((m) => !m.pruned) ? 1 : 0
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

export const exportCli: CliCommand = { help: EXPORT_USAGE, run: exportCommand }

// `cannonade report ID... --out FILE.pdf [--baseline RUN:TARGET] [--min-effect PCT] [--pair A=B]
// [--html FILE.html] [--db FILE] [--title TEXT]`, through the engine (a report at a path of the
// user's choosing is one of its local capabilities). The comparison flags are `cannonade
// compare`'s (compare-choice.ts): page 1 compares as they say and states the baseline and margin.
// Exit codes (README.md, "The command line"): 0 written, 2 bad input (a missing or invalid ID, an
// unknown run, no --out: the message names the argument), 1 when the report could not be rendered
// (no Chromium).
import { existsSync } from 'node:fs'
import { ApiError } from '../api/errors.ts'
import { isStdout } from '../exports/write.ts'
import { DB_FLAG, helpText, parseFlags, UsageError } from './args.ts'
import { reportError, withEngine } from './common.ts'
import type { CliCommand, CliContext } from './context.ts'
import { checkMinEffect, COMPARE_CHOICE_FLAGS, compareChoice } from './compare-choice.ts'

const REPORT_FLAGS = {
  out: { type: 'string', value: 'FILE.pdf', help: 'the PDF to write' },
  ...COMPARE_CHOICE_FLAGS,
  html: { type: 'string', value: 'FILE.html', help: 'also write the report as HTML' },
  title: { type: 'string', value: 'TEXT', help: "the report's title (default: from the runs' names)" },
  ...DB_FLAG,
} as const

export const REPORT_USAGE = helpText(
  'usage: cannonade report ID... --out FILE.pdf [--baseline RUN:TARGET] [--min-effect PCT] [--pair A=B[,C=D]] [--html FILE.html] [--db FILE] [--title TEXT]',
  REPORT_FLAGS,
)

function parseIds(positional: readonly string[]): number[] {
  if (positional.length === 0)
    throw new UsageError('ID: missing; give one or more run ids (see `cannonade runs list`)')
  return positional.map((raw) => {
    if (!/^\d+$/.test(raw) || Number(raw) < 1 || !Number.isSafeInteger(Number(raw))) {
      throw new UsageError(`ID: "${raw}" is not a run id (a whole number ≥ 1)`)
    }
    return Number(raw)
  })
}

export async function reportCommand(argv: string[], ctx: CliContext): Promise<number> {
  try {
    const { flags, positional } = parseFlags(argv, REPORT_FLAGS)
    const ids = parseIds(positional)
    const { out, html, title } = flags
    if (!out) throw new UsageError('--out: missing; give the PDF file to write, e.g. --out report.pdf')
    checkMinEffect(flags['min-effect'])
    const dbPath = flags.db ?? ctx.dbPath
    // Opening the engine would create an empty database: a mistyped --db is bad input instead.
    if (!existsSync(dbPath)) throw new UsageError(`--db: there is no database at ${dbPath}`)
    const created = await withEngine(dbPath, async (host) => {
      for (const id of ids) {
        await host.runs.get(id).catch((err: unknown) => {
          if (err instanceof ApiError && err.code === 'not-found')
            throw new UsageError(`ID: run ${id} does not exist in ${dbPath}`)
          throw err
        })
      }
      const compare = await compareChoice(host, ids, flags)
      return host.local.report(ids, {
        out,
        html,
        title,
        compare,
        onProgress: (p) => ctx.stderr.write(`report: ${p.stage} (${(p.elapsedMs / 1000).toFixed(1)} s)\n`),
      })
    })
    // With --out - the PDF is standard output: the paths written are said on stderr.
    const said = isStdout(out) || isStdout(html) ? ctx.stderr : ctx.stdout
    if (created.htmlPath) said.write(`${created.htmlPath}\n`)
    said.write(`${created.path}\n`)
    return 0
  } catch (err) {
    return reportError(err, ctx, REPORT_USAGE, 'cannonade report')
  }
}

export const reportCli: CliCommand = { help: REPORT_USAGE, run: reportCommand }

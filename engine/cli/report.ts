// `cannonade report ID... --out FILE.pdf [--html FILE.html] [--db FILE]`
// Exit codes (DESIGN.md): 0 written, 2 bad input (a missing or invalid ID, an unknown run, no
// --out: the message names the argument), 1 when the report could not be rendered (no Chromium).
import { existsSync } from 'node:fs'
import { ApiError } from '../api/errors.ts'
import { createReport } from '../report/index.ts'
import { openDb } from '../store/db.ts'
import { HistoryStore } from '../store/queries.ts'
import { parseFlags, UsageError } from './args.ts'
import type { CliContext } from './context.ts'

export const REPORT_USAGE =
  'usage: cannonade report ID... --out FILE.pdf [--html FILE.html] [--db FILE] [--title TEXT]'

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
  let db: ReturnType<typeof openDb> | null = null
  try {
    const { flags, positional } = parseFlags(argv, {
      out: 'string',
      html: 'string',
      db: 'string',
      title: 'string',
    })
    const ids = parseIds(positional)
    const out = flags.out as string | undefined
    if (!out) throw new UsageError('--out: missing; give the PDF file to write, e.g. --out report.pdf')
    const html = flags.html as string | undefined
    const dbPath = (flags.db as string | undefined) ?? ctx.dbPath
    if (!existsSync(dbPath)) throw new UsageError(`--db: there is no database at ${dbPath}`)
    db = openDb(dbPath)
    const store = new HistoryStore(db)
    for (const id of ids) {
      if (!db.prepare('SELECT 1 FROM runs WHERE id = ?').get(id)) {
        throw new UsageError(`ID: run ${id} does not exist in ${dbPath}`)
      }
    }
    const created = await createReport(store, ids, {
      out,
      html,
      title: flags.title as string | undefined,
      onProgress: (p) => ctx.stderr.write(`report: ${p.stage} (${(p.elapsedMs / 1000).toFixed(1)} s)\n`),
    })
    if (created.htmlPath) ctx.stdout.write(`${created.htmlPath}\n`)
    ctx.stdout.write(`${created.path}\n`)
    return 0
  } catch (err) {
    if (err instanceof UsageError) {
      ctx.stderr.write(`cannonade report: ${err.message}\n${REPORT_USAGE}\n`)
      return 2
    }
    if (err instanceof ApiError) {
      ctx.stderr.write(`cannonade report: ${err.message}\n`)
      return err.code === 'bad-input' || err.code === 'not-found' ? 2 : 1
    }
    throw err
  } finally {
    db?.close()
  }
}

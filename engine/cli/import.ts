// `cannonade import json FILE` (runs another database exported) and `cannonade import ledger FILE
// --run ID` (the raw ledger a load agent kept, brought into its run), through the engine's local
// capabilities. Exit codes: 0 ok, 1 the database could not be used, 2 bad input (a missing or
// unreadable FILE, a file of another run, an unknown run, an agent already in).
import { DB_FLAG, helpText, parseFlags, UsageError } from './args.ts'
import { parseRunId, reportError, withEngine } from './common.ts'
import type { CliCommand, CliContext } from './context.ts'

const LEDGER_FLAGS = {
  run: {
    type: 'string',
    value: 'ID',
    help: 'ledger: the run the agent loaded for (its `runs show` says where each ledger is)',
  },
  ...DB_FLAG,
} as const

export const IMPORT_USAGE = helpText(
  `usage: cannonade import json FILE [--db FILE]
       cannonade import ledger FILE --run ID [--db FILE]   an agent's kept raw ledger (its ledger.db) into its run`,
  LEDGER_FLAGS,
)

const count = (n: number): string => n.toLocaleString('en-US')

function oneFile(positional: readonly string[], sub: string, what: string): string {
  const file = positional[0]
  if (file === undefined) throw new UsageError(`import ${sub}: missing FILE (${what})`)
  if (positional.length > 1) throw new UsageError(`import ${sub} takes one FILE, got ${positional.length}`)
  return file
}

async function importJson(rest: string[], ctx: CliContext): Promise<number> {
  const { flags, positional } = parseFlags(rest, DB_FLAG)
  const file = oneFile(positional, 'json', 'a file written by "cannonade export json"')
  const res = await withEngine(flags.db ?? ctx.dbPath, (host) => host.local.importJson(file), { ctx })
  const pairs = res.runIds.map((id, i) => `run ${res.sourceRunIds[i]} as run ${id}`).join(', ')
  ctx.stdout.write(`imported ${pairs || 'no runs'} (${count(res.rows)} samples) from ${file}\n`)
  return 0
}

async function importLedger(rest: string[], ctx: CliContext): Promise<number> {
  const { flags, positional } = parseFlags(rest, LEDGER_FLAGS)
  const file = oneFile(positional, 'ledger', "an agent's ledger.db, as `cannonade runs show ID` names it")
  if (flags.run === undefined)
    throw new UsageError('import ledger: --run ID is required (the run the agent loaded for)')
  const runId = parseRunId(flags.run, '--run')
  // The rows are written before the command returns (withEngine), like a run's own.
  const res = await withEngine(flags.db ?? ctx.dbPath, (host) => host.local.importLedger(file, runId), {
    ctx,
  })
  ctx.stdout.write(
    `imported agent ${res.agent}'s ${count(res.rows)} requests into run ${res.runId} from ${file}\n`,
  )
  return 0
}

export async function importCommand(argv: string[], ctx: CliContext): Promise<number> {
  try {
    const [sub, ...rest] = argv
    if (sub === 'json') return await importJson(rest, ctx)
    if (sub === 'ledger') return await importLedger(rest, ctx)
    throw new UsageError(
      sub === undefined
        ? 'import: missing kind (json or ledger)'
        : `import: unknown kind "${sub}" (json or ledger)`,
    )
  } catch (err) {
    return reportError(err, ctx, IMPORT_USAGE)
  }
}

export const importCli: CliCommand = { help: IMPORT_USAGE, run: importCommand }

// `cannonade import json FILE` (runs exported by `cannonade export json`, through the engine),
// `cannonade import ledger FILE --run ID` (the raw ledger a load agent kept, brought into its run) and
// `cannonade import har FILE | import curl 'curl …' | import openapi SPEC --base URL [--out
// CONFIG.yaml]`: a RunConfig with a scenario step per request (engine/import/). The config
// imports need no database: like `agents manifest`, they only render. Exit codes: 0 ok, 2 bad input
// (not a HAR, a command that is not curl, an OpenAPI 2 document, a file past the size an import reads;
// for a ledger: a missing or unreadable FILE, a file of another run, an unknown run, an agent
// already in), 1 the database could not be used.
import { ConfigError } from '../config/errors.ts'
import { isStdout, writeOutput } from '../exports/write.ts'
import { importScenario, MAX_IMPORT_BYTES, readImportFile, type ImportedScenario } from '../import/index.ts'
import { DB_FLAG, helpText, parseFlags, UsageError, type FlagSpec } from './args.ts'
import { parseRunId, reportError, withEngine } from './common.ts'
import type { CliCommand, CliContext } from './context.ts'

const OUT = {
  out: {
    type: 'string',
    value: 'CONFIG.yaml',
    help: 'har, curl, openapi: write the config there (default: print it)',
  },
  name: { type: 'string', value: 'TEXT', help: "har, curl, openapi: the config's name" },
} as const satisfies FlagSpec
const HAR_FLAGS = {
  'keep-static': {
    type: 'boolean',
    help: 'har: keep scripts, style sheets, images, fonts and media (left out by default)',
  },
  'keep-third-party': {
    type: 'boolean',
    help: "har: keep requests to other sites than the page's, a target per site (left out by default)",
  },
  'keep-conditional': {
    type: 'boolean',
    help: 'har: keep If-None-Match, If-Modified-Since… (dropped by default: the server would answer 304 to what the browser had cached)',
  },
  ...OUT,
} as const satisfies FlagSpec
const LEDGER_FLAGS = {
  run: {
    type: 'string',
    value: 'ID',
    help: 'ledger: the run the agent loaded for (its `runs show` says where each ledger is)',
  },
} as const satisfies FlagSpec
const OPENAPI_FLAGS = {
  base: {
    type: 'string',
    value: 'URL',
    help: "openapi: where the API runs; the document's paths are appended",
  },
  ...OUT,
} as const satisfies FlagSpec

export const IMPORT_USAGE = helpText(
  `usage: cannonade import json FILE [--db FILE]        runs written by "cannonade export json"
       cannonade import ledger FILE --run ID [--db FILE]   an agent's kept raw ledger (its ledger.db) into its run
       cannonade import har FILE [--keep-static] [--keep-third-party] [--keep-conditional] [--out CONFIG.yaml]
       cannonade import curl 'curl …' ['curl …'…] [--out CONFIG.yaml]   (or - to read them from stdin)
       cannonade import openapi SPEC --base URL [--out CONFIG.yaml]
har, curl and openapi write a run config with a scenario step per request; secrets (cookies,
tokens, passwords) become \${variables} a run reads from CANNONADE_SECRET_… environment variables.`,
  DB_FLAG,
  LEDGER_FLAGS,
  HAR_FLAGS,
  OPENAPI_FLAGS,
)

const count = (n: number): string => n.toLocaleString('en-US')

async function importJson(rest: string[], ctx: CliContext): Promise<number> {
  const { flags, positional } = parseFlags(rest, DB_FLAG)
  const file = positional[0]
  if (file === undefined)
    throw new UsageError('import json: missing FILE (a file written by "cannonade export json")')
  if (positional.length > 1) throw new UsageError(`import json takes one FILE, got ${positional.length}`)
  const res = await withEngine(flags.db ?? ctx.dbPath, (host) => host.local.importJson(file), {
    ctx,
  })
  const pairs = res.runIds.map((id, i) => `run ${res.sourceRunIds[i]} as run ${id}`).join(', ')
  ctx.stdout.write(`imported ${pairs || 'no runs'} (${count(res.rows)} samples) from ${file}\n`)
  return 0
}

async function importLedger(rest: string[], ctx: CliContext): Promise<number> {
  const { flags, positional } = parseFlags(rest, { ...LEDGER_FLAGS, ...DB_FLAG })
  const file = positional[0]
  if (file === undefined)
    throw new UsageError(
      "import ledger: missing FILE (an agent's ledger.db, as `cannonade runs show ID` names it)",
    )
  if (positional.length > 1) throw new UsageError(`import ledger takes one FILE, got ${positional.length}`)
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

/**
 * The config printed, or written to --out with its steps listed (on stderr when --out is standard
 * output). --out is written as exports are (engine/exports/write.ts): never over the database or
 * the data folder's files, a device or FIFO written directly, a file replaced whole.
 */
async function emit(
  made: ImportedScenario,
  out: string | undefined,
  ctx: CliContext,
  dbPath: string,
): Promise<number> {
  if (out === undefined) {
    ctx.stdout.write(made.yaml)
    return 0
  }
  await writeOutput(out, [made.yaml], { dbPath })
  const targets = made.config.targets
  const steps = targets.reduce((n, t) => n + (t.steps?.length ?? 0), 0)
  const lines = [
    `wrote ${out}: ${targets.length} target${targets.length === 1 ? '' : 's'}, ${steps} step${steps === 1 ? '' : 's'}`,
  ]
  for (const t of targets) {
    lines.push(`  ${t.name} (${t.url})`)
    for (const s of t.steps ?? [])
      lines.push(
        `    ${s.method.padEnd(7)} ${s.path}${s.name === `${s.method} ${s.path}` ? '' : `   "${s.name}"`}`,
      )
  }
  lines.push(...made.notes.map((n) => `note: ${n}`))
  const say = isStdout(out) ? ctx.stderr : ctx.stdout
  say.write(lines.join('\n') + '\n')
  return 0
}

function oneFile(kind: 'har' | 'openapi', positional: readonly string[]): string {
  const what = kind === 'har' ? 'FILE (a HAR file)' : 'SPEC (an OpenAPI 3 document, JSON or YAML)'
  if (positional.length === 0) throw new UsageError(`import ${kind}: missing ${what}`)
  if (positional.length > 1) throw new UsageError(`import ${kind} takes one file, got ${positional.length}`)
  return positional[0]!
}

async function stdinText(): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > MAX_IMPORT_BYTES)
      throw new ConfigError([
        {
          field: '',
          message: `stdin holds more than an import reads (${MAX_IMPORT_BYTES / 1024 / 1024} MB)`,
        },
      ])
    chunks.push(chunk)
  }
  return Buffer.concat(chunks).toString('utf8')
}

/**
 * `import curl`: quoted commands (`'curl …' 'curl …'`, a pasted block, or `-` for stdin), or one
 * command typed as words (`import curl --out x.yaml curl -H 'a: b' http://…`): after a bare
 * `curl`, every word is curl's, so import's own flags come before it.
 */
async function importCurl(rest: string[], ctx: CliContext): Promise<number> {
  const bare = rest.indexOf('curl')
  const { flags, positional } = parseFlags(bare >= 0 ? rest.slice(0, bare) : rest, OUT)
  if (bare >= 0 && positional.length > 0)
    throw new UsageError(`import curl: "${positional[0]}" before the curl command: give commands one way`)
  const sources: (string | string[])[] = bare >= 0 ? [rest.slice(bare)] : positional
  if (sources.length === 0)
    throw new UsageError(`import curl: missing 'curl …' (one or more commands, or - for stdin)`)
  const texts = await Promise.all(sources.map(async (s) => (s === '-' ? stdinText() : s)))
  const source =
    bare >= 0 ? 'the curl command' : `${texts.length === 1 ? 'a curl text' : `${texts.length} curl texts`}`
  const made = importScenario('curl', texts, { source, ...(flags.name ? { name: flags.name } : {}) })
  return emit(made, flags.out, ctx, ctx.dbPath)
}

async function importFile(kind: 'har' | 'openapi', rest: string[], ctx: CliContext): Promise<number> {
  const { flags, positional } = kind === 'har' ? parseFlags(rest, HAR_FLAGS) : parseFlags(rest, OPENAPI_FLAGS)
  const file = oneFile(kind, positional)
  const text = readImportFile(file, kind === 'har' ? 'HAR file' : 'OpenAPI document')
  const made = importScenario(kind, [text], {
    source: file,
    ...('base' in flags && flags.base !== undefined ? { base: flags.base } : {}),
    ...('keep-static' in flags ? { keepStatic: flags['keep-static'] } : {}),
    ...('keep-third-party' in flags ? { keepThirdParty: flags['keep-third-party'] } : {}),
    ...('keep-conditional' in flags ? { keepConditional: flags['keep-conditional'] } : {}),
    ...(flags.name ? { name: flags.name } : {}),
  })
  return emit(made, flags.out, ctx, ctx.dbPath)
}

export async function importCommand(argv: string[], ctx: CliContext): Promise<number> {
  const [sub, ...rest] = argv
  try {
    if (sub === 'json') return await importJson(rest, ctx)
    if (sub === 'ledger') return await importLedger(rest, ctx)
    if (sub === 'curl') return await importCurl(rest, ctx)
    if (sub === 'har' || sub === 'openapi') return await importFile(sub, rest, ctx)
    throw new UsageError(
      sub === undefined
        ? 'import: missing kind (json, ledger, har, curl or openapi)'
        : `import: unknown kind "${sub}" (json, ledger, har, curl or openapi)`,
    )
  } catch (err) {
    if (err instanceof ConfigError) {
      const what =
        sub === 'har' || sub === 'openapi'
          ? `${sub} ${rest.find((a) => !a.startsWith('-')) ?? ''}`.trim()
          : sub
      ctx.stderr.write(
        `cannonade import ${what}: ${err.issues.map((i) => (i.field ? `${i.field}: ${i.message}` : i.message)).join('\n  ')}\n`,
      )
      return 2
    }
    return reportError(err, ctx, IMPORT_USAGE)
  }
}

export const importCli: CliCommand = { help: IMPORT_USAGE, run: importCommand }

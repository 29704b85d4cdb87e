// `cannonade runs list [--json] | runs show ID [--json] | runs delete ID | runs prune ID`, through
// the engine's Api. Exit codes: 0 ok, 1 the database could not be used, 2 bad input (a message
// names the argument).
import {
  RUN_STATUSES,
  type LedgerInfo,
  type RunListItem,
  type RunStatus,
  type RunSummary,
} from '../api/types.ts'
import type { RunConfig } from '../config/schema.ts'
import { DB_FLAG, helpText, parseFlags, UsageError } from './args.ts'
import { parseRunId, reportError, withEngine } from './common.ts'
import { runsComplete } from './complete.ts'
import type { CliCommand, CliContext } from './context.ts'
import {
  agentLines,
  jsonSummary,
  resultsTable,
  thresholdLines,
  timingLines,
  tlsTargets,
  warningLines,
} from './summary.ts'
import { limitLines, steadyLines } from './findings.ts'
import { formatTable } from './table.ts'
import { noiseTable, roundsLines } from './rounds.ts'
import { printable } from './text.ts'
import { resourceLines, resourcesJson } from './resources.ts'
import { resourceSummary } from '../metrics/resource-summary.ts'

function ledgerLine(l: LedgerInfo): string {
  if (l.prunedAt) return `raw samples: pruned ${l.prunedAt} (summaries, series and histograms kept)\n`
  const n = (x: number) => x.toLocaleString('en-US')
  const lines = [
    `raw samples: ${n(l.rows)} requests, ≈ ${(l.bytes / 1048576).toFixed(1)} MB (cannonade runs prune ID drops them)`,
  ]
  // Counted before this command wrote them (it does before it exits, and says so).
  if (l.pending > 0) lines.push(`  ${n(l.pending)} of them were still in ledger blocks, not yet samples rows`)
  if (l.elsewhere)
    lines.push(
      `  ${n(l.elsewhere.requests)} more are not in this database: ${l.elsewhere.advice}`,
      ...l.elsewhere.where.map((line) => `    ${line}`),
    )
  return lines.join('\n') + '\n'
}

const JSON_FLAG = { json: { type: 'boolean', help: 'print JSON instead of a table' } } as const
const LIST_FLAGS = {
  ...JSON_FLAG,
  search: {
    type: 'string',
    value: 'TEXT',
    help: 'runs whose name, tag or target contains TEXT, or with this run or correlation id',
  },
  tag: { type: 'string', value: 'TAG[,TAG]', help: 'runs with all these tags' },
  status: { type: 'string', value: 'S', help: RUN_STATUSES.join(', ') },
  target: { type: 'string', value: 'NAME', help: 'runs with a target of this name' },
  limit: { type: 'number', value: 'N', help: 'at most N runs (1-1000, default 50)' },
  offset: { type: 'number', value: 'N', help: 'skip the first N runs (default 0)' },
  ...DB_FLAG,
} as const
const SHOW_FLAGS = { ...JSON_FLAG, ...DB_FLAG } as const

export const RUNS_USAGE = helpText(
  `usage: cannonade runs list [--json] [--search TEXT] [--tag TAG[,TAG]] [--status S] [--target NAME] [--limit N] [--offset N]
       cannonade runs show ID [--json]
       cannonade runs delete ID
       cannonade runs prune ID      drop the raw samples, keep summaries, series and histograms
       cannonade runs complete      write ended runs' requests still in ledger blocks as samples rows (every command does before it exits)`,
  LIST_FLAGS,
  SHOW_FLAGS,
)

export function duration(seconds: number | null): string {
  if (seconds === null) return '-'
  if (seconds < 60) return `${seconds.toFixed(1)}s`
  const s = Math.round(seconds)
  const h = Math.floor(s / 3600)
  const m = Math.floor((s % 3600) / 60)
  const rest = String(s % 60).padStart(2, '0')
  return h > 0 ? `${h}h ${String(m).padStart(2, '0')}m ${rest}s` : `${m}m ${rest}s`
}

const when = (iso: string): string => iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z')

function listTable(items: readonly RunListItem[], total: number, offset: number): string {
  if (items.length === 0)
    return total === 0
      ? 'no runs yet: start one with "cannonade run --demo"\n'
      : `no runs at offset ${offset} (of ${total})\n`
  const rows = items.map((r) => [
    String(r.runId),
    r.status,
    when(r.startedAt),
    duration(r.durationSeconds),
    r.requests.toLocaleString('en-US'),
    r.targets.join(', '),
    r.name,
    r.tags.join(', '),
  ])
  const table = formatTable(
    ['ID', 'STATUS', 'STARTED', 'DURATION', 'REQUESTS', 'TARGETS', 'NAME', 'TAGS'],
    rows,
    [0, 3, 4],
  )
  const more =
    offset + items.length < total
      ? `${total - offset - items.length} more: --offset ${offset + items.length}\n`
      : ''
  return table + more
}

function showRun(run: RunSummary & { config: RunConfig }): string {
  const out = [
    `run ${run.runId}  ${printable(run.name)}  (${run.status})`,
    `started ${when(run.startedAt)}${run.endedAt ? `, ended ${when(run.endedAt)}` : ''}, correlation ids ${run.correlationPrefix}-…`,
  ]
  if (run.tags.length) out.push(`tags: ${printable(run.tags.join(', '))}`)
  if (run.note) out.push(`note: ${printable(run.note)}`)
  if (run.error) out.push(`error: ${printable(run.error)}`)
  if (run.generator.message) out.push(`warning: ${printable(run.generator.message)}`)
  out.push(...warningLines(run))
  out.push('')
  if (run.results.length === 0) out.push('no results yet')
  else
    out.push(
      resultsTable(run.results, run.overRounds).trimEnd(),
      ...timingLines(run.results, tlsTargets(run.config)),
      ...steadyLines(run),
      ...limitLines(run),
    )
  out.push('', ...roundsLines(run, run.config.targets.length))
  const noise = noiseTable(run.results)
  if (noise) out.push(noise.trimEnd())
  if (run.distribution) out.push('', ...agentLines(run.distribution))
  if (run.thresholds.length)
    out.push('', `thresholds: ${run.thresholdsPassed ? 'all passed' : 'FAILED'}`, ...thresholdLines(run))
  return out.join('\n') + '\n'
}

const isStatus = (s: string): s is RunStatus => (RUN_STATUSES as readonly string[]).includes(s)

function wholeNumber(
  flag: string,
  value: number | undefined,
  min: number,
  max: number,
  fallback: number,
): number {
  if (value === undefined) return fallback
  if (!Number.isInteger(value) || value < min || value > max)
    throw new UsageError(`--${flag} must be a whole number ${min}-${max}, got ${value}`)
  return value
}

async function runs(argv: string[], ctx: CliContext): Promise<number> {
  const { dbPath, stdout: out } = ctx
  const [sub, ...rest] = argv
  if (sub === 'list') {
    const { flags, positional } = parseFlags(rest, LIST_FLAGS)
    if (positional.length) throw new UsageError(`runs list takes no argument "${positional[0]}"`)
    const { status } = flags
    if (status !== undefined && !isStatus(status)) {
      throw new UsageError(`--status must be one of ${RUN_STATUSES.join(', ')}; got "${status}"`)
    }
    const query = {
      search: flags.search,
      tags: flags.tag
        ?.split(',')
        .map((t) => t.trim())
        .filter(Boolean),
      status,
      target: flags.target,
      limit: wholeNumber('limit', flags.limit, 1, 1000, 50),
      offset: wholeNumber('offset', flags.offset, 0, Number.MAX_SAFE_INTEGER, 0),
    }
    const page = await withEngine(flags.db ?? dbPath, (host) => host.runs.list(query), { ctx })
    out.write(
      flags.json ? `${JSON.stringify(page, null, 2)}\n` : listTable(page.items, page.total, query.offset),
    )
    return 0
  }
  if (sub === 'show') {
    const { flags, positional } = parseFlags(rest, SHOW_FLAGS)
    if (positional.length > 1) throw new UsageError(`runs show takes one ID, got ${positional.length}`)
    const id = parseRunId(positional[0])
    const [run, ledger, resources, series] = await withEngine(
      flags.db ?? dbPath,
      (host) =>
        Promise.all([host.runs.get(id), host.runs.ledger(id), host.runs.resources(id), host.runs.series(id)]),
      { ctx },
    )
    const used = resourceSummary(resources, series)
    const json = {
      ...jsonSummary(run),
      tags: run.tags,
      note: run.note,
      config: run.config,
      ledger,
      resources: resourcesJson(used),
    }
    out.write(
      flags.json
        ? `${JSON.stringify(json, null, 2)}\n`
        : showRun(run) + `\n${resourceLines(used).join('\n')}\n` + ledgerLine(ledger),
    )
    return 0
  }
  if (sub === 'prune' || sub === 'delete') {
    const { flags, positional } = parseFlags(rest, DB_FLAG)
    if (positional.length > 1) throw new UsageError(`runs ${sub} takes one ID, got ${positional.length}`)
    const id = parseRunId(positional[0])
    await withEngine(
      flags.db ?? dbPath,
      async (host) => {
        if (sub === 'prune') await host.runs.prune(id)
        else await host.runs.delete(id)
      },
      { ctx },
    )
    out.write(
      sub === 'prune'
        ? `run ${id}: raw samples dropped; summaries, series and histograms kept\n`
        : `deleted run ${id}\n`,
    )
    return 0
  }
  if (sub === 'complete') {
    const { flags, positional } = parseFlags(rest, DB_FLAG)
    if (positional.length) throw new UsageError(`runs complete takes no argument "${positional[0]}"`)
    return withEngine(flags.db ?? dbPath, (host) => runsComplete(host, ctx), { ctx })
  }
  throw new UsageError(
    sub === undefined
      ? 'runs: missing subcommand (list, show, delete, prune or complete)'
      : `runs: unknown subcommand "${sub}"`,
  )
}

export async function runsCommand(argv: string[], ctx: CliContext): Promise<number> {
  try {
    return await runs(argv, ctx)
  } catch (err) {
    return reportError(err, ctx, RUNS_USAGE)
  }
}

export const runsCli: CliCommand = { help: RUNS_USAGE, run: runsCommand }

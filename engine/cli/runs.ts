// `cannonade runs list [--json] | runs show ID [--json] | runs delete ID | runs prune ID`.
// Exit codes: 0 ok, 1 the database could not be used, 2 bad input (a message names the argument).
import { ApiError } from '../api/errors.ts'
import type { RunListItem } from '../api/types.ts'
import { MigrationError, openDb, type Db } from '../store/db.ts'
import { HistoryStore, type RunDetail } from '../store/queries.ts'
import { parseFlags, UsageError, type FlagSpec } from './args.ts'
import type { CliContext } from './context.ts'
import { jsonSummary } from './summary.ts'
import { ledgerInfo, pruneLedger, type LedgerInfo } from '../store/ledger.ts'

function ledgerLine(l: LedgerInfo): string {
  if (l.prunedAt) return `raw samples: pruned ${l.prunedAt} (summaries, series and histograms kept)\n`
  return `raw samples: ${l.rows.toLocaleString('en-US')} requests, ≈ ${(l.bytes / 1048576).toFixed(1)} MB (cannonade runs prune ID drops them)\n`
}

export const RUNS_USAGE = `usage: cannonade runs list [--json] [--search TEXT] [--tag TAG[,TAG]] [--status S] [--target NAME] [--limit N] [--offset N]
       cannonade runs show ID [--json]
       cannonade runs delete ID
       cannonade runs prune ID      drop the raw samples, keep summaries, series and histograms
options: --db FILE  the history database (default: the desktop app's)`

/** A run id argument: a positive whole number, or a usage error naming the argument. */
export function parseRunId(text: string | undefined, what = 'ID'): number {
  if (text === undefined) throw new UsageError(`missing ${what} (a run id; see "cannonade runs list")`)
  const clean = text.replace(/^#/, '')
  if (!/^\d{1,15}$/.test(clean) || Number(clean) < 1)
    throw new UsageError(`${what} "${text}" is not a run id (a positive whole number)`)
  return Number(clean)
}

/** Exit code and message for anything a command throws; bad input is 2, the rest 1. */
export function reportError(err: unknown, ctx: CliContext, usage: string): number {
  if (err instanceof UsageError) {
    ctx.stderr.write(`cannonade: ${err.message}\n${usage}\n`)
    return 2
  }
  if (err instanceof ApiError) {
    ctx.stderr.write(`cannonade: ${err.message}\n`)
    return err.code === 'bad-input' || err.code === 'not-found' || err.code === 'conflict' ? 2 : 1
  }
  if (err instanceof MigrationError) {
    ctx.stderr.write(`cannonade: cannot open the history database: ${err.message}\n`)
    return 1
  }
  ctx.stderr.write(`cannonade: ${err instanceof Error ? err.message : String(err)}\n`)
  return 1
}

export function withDb<T>(dbPath: string, fn: (db: Db) => T): T {
  const db = openDb(dbPath)
  try {
    return fn(db)
  } finally {
    db.close()
  }
}

/** Columns padded to their widest cell; `right` lists the columns aligned right (numbers). */
export function formatTable(
  head: readonly string[],
  rows: readonly (readonly string[])[],
  right: readonly number[] = [],
): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)))
  const line = (cells: readonly string[]): string =>
    cells
      .map((c, i) => (right.includes(i) ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd()
  return [line(head), ...rows.map(line)].join('\n') + '\n'
}

export const ms = (us: number): string => (us / 1000).toFixed(2)

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

function showRun(run: RunDetail): string {
  const out = [
    `run ${run.runId}  ${run.name}  (${run.status})`,
    `started ${when(run.startedAt)}${run.endedAt ? `, ended ${when(run.endedAt)}` : ''}, correlation ids ${run.correlationPrefix}-…`,
  ]
  if (run.tags.length) out.push(`tags: ${run.tags.join(', ')}`)
  if (run.note) out.push(`note: ${run.note}`)
  if (run.error) out.push(`error: ${run.error}`)
  if (run.generator.message) out.push(`warning: ${run.generator.message}`)
  out.push('')
  if (run.results.length === 0) out.push('no results yet')
  else {
    const rows = run.results.map((r) => {
      const errors = Object.values(r.errors).reduce((s, n) => s + (n ?? 0), 0)
      const l = r.latency
      return [
        r.target,
        String(r.round),
        String(r.requests),
        String(errors),
        r.throughput.toFixed(1),
        ms(l.mean),
        ms(l.p50),
        ms(l.p90),
        ms(l.p95),
        ms(l.p99),
        ms(l.p999),
        ms(l.max),
      ]
    })
    const head = [
      'TARGET',
      'ROUND',
      'REQUESTS',
      'ERRORS',
      'REQ/S',
      'MEAN ms',
      'P50 ms',
      'P90 ms',
      'P95 ms',
      'P99 ms',
      'P99.9 ms',
      'MAX ms',
    ]
    out.push(formatTable(head, rows, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]).trimEnd())
  }
  if (run.thresholds.length) {
    out.push('', `thresholds: ${run.thresholdsPassed ? 'all passed' : 'FAILED'}`)
    const unit = (metric: string, v: number): string =>
      metric === 'throughput'
        ? `${v.toFixed(1)} req/s`
        : metric === 'errorRate'
          ? `${(v * 100).toFixed(2)} %`
          : `${ms(v)} ms`
    const rows = run.thresholds.map((t) => [
      t.passed ? 'pass' : 'FAIL',
      t.target,
      t.metric,
      [
        t.min !== undefined ? `≥ ${unit(t.metric, t.min)}` : '',
        t.max !== undefined ? `≤ ${unit(t.metric, t.max)}` : '',
      ]
        .filter(Boolean)
        .join(' and '),
      t.actual === null ? 'no data' : unit(t.metric, t.actual),
    ])
    out.push(formatTable(['', 'TARGET', 'METRIC', 'LIMIT', 'ACTUAL'], rows).trimEnd())
  }
  return out.join('\n') + '\n'
}

const LIST_FLAGS: FlagSpec = {
  json: 'boolean',
  db: 'string',
  search: 'string',
  tag: 'string',
  status: 'string',
  target: 'string',
  limit: 'number',
  offset: 'number',
}

export async function runsCommand(argv: string[], ctx: CliContext): Promise<number> {
  try {
    const [sub, ...rest] = argv
    if (sub === 'list') {
      const { flags, positional } = parseFlags(rest, LIST_FLAGS)
      if (positional.length) throw new UsageError(`runs list takes no argument "${positional[0]}"`)
      const status = flags.status as string | undefined
      if (status !== undefined && !['running', 'done', 'aborted', 'failed'].includes(status)) {
        throw new UsageError(`--status must be one of running, done, aborted, failed; got "${status}"`)
      }
      const query = {
        search: flags.search as string | undefined,
        tags:
          typeof flags.tag === 'string'
            ? flags.tag
                .split(',')
                .map((t) => t.trim())
                .filter(Boolean)
            : undefined,
        status: status as 'running' | 'done' | 'aborted' | 'failed' | undefined,
        target: flags.target as string | undefined,
        limit: (flags.limit as number | undefined) ?? 50,
        offset: (flags.offset as number | undefined) ?? 0,
      }
      const page = withDb((flags.db as string | undefined) ?? ctx.dbPath, (db) =>
        new HistoryStore(db).listRuns(query),
      )
      ctx.stdout.write(
        flags.json ? `${JSON.stringify(page, null, 2)}\n` : listTable(page.items, page.total, query.offset),
      )
      return 0
    }
    if (sub === 'show') {
      const { flags, positional } = parseFlags(rest, { json: 'boolean', db: 'string' })
      if (positional.length > 1) throw new UsageError(`runs show takes one ID, got ${positional.length}`)
      const id = parseRunId(positional[0])
      const [run, ledger] = withDb(
        (flags.db as string | undefined) ?? ctx.dbPath,
        (db) => [new HistoryStore(db).getRun(id), ledgerInfo(db, id)] as const,
      )
      const json = { ...jsonSummary(run), tags: run.tags, note: run.note, config: run.config, ledger }
      ctx.stdout.write(flags.json ? `${JSON.stringify(json, null, 2)}\n` : showRun(run) + ledgerLine(ledger))
      return 0
    }
    if (sub === 'prune') {
      const { flags, positional } = parseFlags(rest, { db: 'string' })
      if (positional.length > 1) throw new UsageError(`runs prune takes one ID, got ${positional.length}`)
      const id = parseRunId(positional[0])
      withDb((flags.db as string | undefined) ?? ctx.dbPath, (db) => pruneLedger(db, id))
      ctx.stdout.write(`run ${id}: raw samples dropped; summaries, series and histograms kept\n`)
      return 0
    }
    if (sub === 'delete') {
      const { flags, positional } = parseFlags(rest, { db: 'string' })
      if (positional.length > 1) throw new UsageError(`runs delete takes one ID, got ${positional.length}`)
      const id = parseRunId(positional[0])
      withDb((flags.db as string | undefined) ?? ctx.dbPath, (db) => new HistoryStore(db).deleteRun(id))
      ctx.stdout.write(`deleted run ${id}\n`)
      return 0
    }
    throw new UsageError(
      sub === undefined
        ? 'runs: missing subcommand (list, show, delete or prune)'
        : `runs: unknown subcommand "${sub}"`,
    )
  } catch (err) {
    return reportError(err, ctx, RUNS_USAGE)
  }
}

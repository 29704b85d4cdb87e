// `cannonade compare ID... [--baseline RUN:TARGET] [--pair A=B,...] [--min-effect PCT] [--series]
// [--json OUT] [--db FILE]`: the headline, a table of every pair, the method once. A client of the
// engine host (runs.compare). Exit 0 when compared (whatever the verdict), 2 on bad input.
import { writeFileSync } from 'node:fs'
import type { CompareMetric, CompareResult } from '../api/types.ts'
import {
  fmtAgreeCell,
  fmtEffectCell,
  fmtMetricValue,
  CENTRE_NAME,
  METRIC_LABEL,
  verdictName,
  verdictWord,
} from '../metrics/compare-words.ts'
import { DB_FLAG, helpText, parseFlags, UsageError } from './args.ts'
import { parseRunId, reportError, withEngine } from './common.ts'
import type { CliCommand, CliContext } from './context.ts'
import { formatTable } from './table.ts'

const COMPARE_FLAGS = {
  baseline: {
    type: 'string',
    value: 'RUN:TARGET',
    help: 'within a run: the target the others are held against; across runs: the baseline run (default: the first)',
  },
  pair: {
    type: 'string',
    value: 'A=B[,C=D]',
    help: 'explicit pairs baseline=other, each RUN:TARGET or a TARGET name found in one run only',
  },
  'min-effect': {
    type: 'number',
    value: 'PCT',
    help: 'the smallest difference that matters, ± % (default 5): inside it is "the same"',
  },
  series: {
    type: 'boolean',
    help: 'the entries are sizes of one thing: show a curve against the value, not a race',
  },
  json: { type: 'string', value: 'OUT', help: 'also write the comparison as JSON to OUT' },
  ...DB_FLAG,
} as const

export const COMPARE_USAGE = helpText(
  'usage: cannonade compare ID... [--baseline RUN:TARGET] [--pair A=B[,C=D]] [--min-effect PCT] [--series] [--json OUT] [--db FILE]',
  COMPARE_FLAGS,
)

interface Ref {
  runId: number
  target: string
}

/** "3:node-http", or "node-http" when exactly one compared run has a target of that name. */
function resolveRef(text: string, flag: string, targets: ReadonlyMap<number, readonly string[]>): Ref {
  const m = /^#?(\d+):(.+)$/.exec(text.trim())
  if (m) {
    const runId = parseRunId(m[1], flag)
    const target = m[2]!
    const names = targets.get(runId)
    if (!names) throw new UsageError(`${flag}: run ${runId} is not one of the compared runs`)
    if (!names.includes(target))
      throw new UsageError(`${flag}: run ${runId} has no target "${target}" (it has ${names.join(', ')})`)
    return { runId, target }
  }
  const name = text.trim()
  const runs = [...targets].filter(([, names]) => names.includes(name)).map(([id]) => id)
  if (runs.length === 1) return { runId: runs[0]!, target: name }
  if (runs.length === 0) throw new UsageError(`${flag}: no compared run has a target "${name}"`)
  throw new UsageError(`${flag}: "${name}" is in runs ${runs.join(' and ')}; write RUN:TARGET`)
}

function parsePairs(text: string, targets: ReadonlyMap<number, readonly string[]>) {
  return text.split(',').map((part, i) => {
    const [a, b, ...rest] = part.split('=')
    if (!a?.trim() || !b?.trim() || rest.length)
      throw new UsageError(`--pair: "${part}" is not BASELINE=OTHER (pair ${i + 1})`)
    return { baseline: resolveRef(a, '--pair', targets), other: resolveRef(b, '--pair', targets) }
  })
}

const JSON_METRIC: Record<CompareMetric['metric'], string> = {
  throughput: 'throughput',
  mean: 'mean',
  p50: 'p50',
  p95: 'p95',
  p99: 'p99',
  p999: 'p99.9',
  errorRate: 'errorRate',
}

const round = (x: number, digits: number): number => Math.round(x * 10 ** digits) / 10 ** digits

/** The `--json` document: headline, and per pair its metrics with change and interval. */
export function compareJson(r: CompareResult) {
  const value = (m: CompareMetric, v: number) =>
    m.metric === 'errorRate' ? round(v, 6) : m.metric === 'throughput' ? round(v, 2) : round(v, 1)
  return {
    headline: r.headline,
    method: r.method,
    minEffect: r.minEffect,
    // What `baseline` and `other` under each metric are: the comparison's own statistic.
    values: `${CENTRE_NAME} (error rate: mean of rounds)`,
    notes: r.notes,
    pairs: r.pairs.map((p) => ({
      baseline: { run: p.baseline.runId, target: p.baseline.target },
      other: { run: p.other.runId, target: p.other.target },
      design: p.design,
      metrics: Object.fromEntries(
        p.metrics.map((m) => [
          JSON_METRIC[m.metric],
          {
            baseline: value(m, m.baseline),
            other: value(m, m.other),
            change: m.change === null ? null : round(m.change, 4),
            ci: m.ci ? [round(m.ci[0], 4), round(m.ci[1], 4)] : null,
            excludesNoChange: m.excludesNoChange,
            verdict: m.verdict,
            // The word the table, the headline and the PDF show for this verdict.
            word: verdictName(m),
            agree: m.agree,
            sentence: m.sentence,
          },
        ]),
      ),
      notes: p.notes,
    })),
    series: r.series,
  }
}

/** Words wrapped at `width` columns. */
function wrap(text: string, width = 100): string {
  const out: string[] = []
  let line = ''
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > width) {
      out.push(line)
      line = word
    } else line = line ? `${line} ${word}` : word
  }
  if (line) out.push(line)
  return out.join('\n')
}

/** What the BASELINE and OTHER columns hold: the comparison's statistic, named apart from a target's figures. */
const CENTRE_NOTE = `BASELINE, OTHER: each side's ${CENTRE_NAME} (error rate: the mean of its rounds), not the target's figures over its rounds (runs show: the "all" rows).`

function pairsTable(r: CompareResult): string {
  const rows = r.pairs.flatMap((p) =>
    p.metrics.map((m, i) => [
      i === 0 ? `${p.other.label} / ${p.baseline.label}` : '',
      METRIC_LABEL[m.metric],
      fmtMetricValue(m.metric, m.baseline),
      fmtMetricValue(m.metric, m.other),
      fmtEffectCell(m),
      m.verdict === 'too-few-rounds' ? '–' : fmtAgreeCell(m.agree),
      verdictWord(m, r.minEffect),
    ]),
  )
  return formatTable(
    [
      'PAIR (OTHER / BASELINE)',
      'METRIC',
      'BASELINE',
      'OTHER',
      'RATIO (95 % CI)',
      'ROUNDS AGREEING',
      'VERDICT',
    ],
    rows,
    [2, 3, 4],
  )
}

function seriesTable(s: NonNullable<CompareResult['series']>): string {
  const rows = s.lines.flatMap((l) =>
    l.points.map((p, i) => [
      i === 0 ? l.name : '',
      String(p.value),
      `${p.target} (run ${p.runId})`,
      String(p.rounds),
      fmtMetricValue('throughput', p.throughput),
      fmtMetricValue('p50', p.p50),
      fmtMetricValue('p95', p.p95),
      fmtMetricValue('p99', p.p99),
      fmtMetricValue('errorRate', p.errorRate),
    ]),
  )
  return formatTable(
    ['LINE', s.name.toUpperCase(), 'ENTRY', 'ROUNDS', 'THROUGHPUT', 'P50', 'P95', 'P99', 'ERRORS'],
    rows,
    [1, 3, 4, 5, 6, 7, 8],
  )
}

/** What `cannonade compare` prints: the headline, the table, the method once. */
export function formatComparison(r: CompareResult): string {
  const parts = [wrap(r.headline), '']
  if (r.series) parts.push(seriesTable(r.series))
  else if (r.pairs.length) parts.push(pairsTable(r), wrap(CENTRE_NOTE), '', wrap(r.method))
  return parts.join('\n').trimEnd() + '\n'
}

async function compare(argv: string[], ctx: CliContext): Promise<number> {
  const { flags, positional } = parseFlags(argv, COMPARE_FLAGS)
  if (positional.length === 0)
    throw new UsageError(
      'ID: missing; give one run with several targets, or two or more runs (see `cannonade runs list`)',
    )
  const ids = positional.map((p) => parseRunId(p))
  const minEffect = flags['min-effect']
  if (minEffect !== undefined && !(minEffect > 0 && minEffect <= 100))
    throw new UsageError(`--min-effect must be a percentage above 0 and at most 100, got ${minEffect}`)
  const result = await withEngine(flags.db ?? ctx.dbPath, async (host) => {
    const targets = new Map<number, string[]>()
    for (const id of ids) {
      const run = await host.runs.get(id)
      targets.set(id, [...new Set(run.results.map((r) => r.target))])
    }
    return host.runs.compare({
      runIds: ids,
      ...(flags.baseline !== undefined
        ? { baseline: resolveRef(flags.baseline, '--baseline', targets) }
        : {}),
      ...(flags.pair !== undefined ? { pairs: parsePairs(flags.pair, targets) } : {}),
      ...(minEffect !== undefined ? { minEffect } : {}),
      ...(flags.series ? { asSeries: true } : {}),
    })
  })
  ctx.stdout.write(formatComparison(result))
  if (flags.json) {
    try {
      writeFileSync(flags.json, JSON.stringify(compareJson(result), null, 2) + '\n')
    } catch (err) {
      throw new UsageError(`--json: cannot write ${flags.json}: ${(err as Error).message}`)
    }
  }
  return 0
}

export async function compareCommand(argv: string[], ctx: CliContext): Promise<number> {
  try {
    return await compare(argv, ctx)
  } catch (err) {
    return reportError(err, ctx, COMPARE_USAGE, 'cannonade compare')
  }
}

export const compareCli: CliCommand = { help: COMPARE_USAGE, run: compareCommand }

// `cannonade compare ID... [--baseline RUN:TARGET] [--pair A=B,...] [--min-effect PCT] [--series]
// [--json OUT] [--db FILE]`: the headline, a table of every pair, the method once. A client of the
// engine host (runs.compare). Exit 0 when compared (whatever the verdict), 2 on bad input.
import { writeOutput } from '../exports/write.ts'
import type { CompareMetric, CompareResult } from '../api/types.ts'
import { CENTRE_NAME, fmtMetricValue, metricCells, verdictName } from '../metrics/compare-words.ts'
import { DB_FLAG, helpText, parseFlags, UsageError } from './args.ts'
import { parseRunId, reportError, withEngine } from './common.ts'
import { checkMinEffect, COMPARE_CHOICE_FLAGS, compareChoice } from './compare-choice.ts'
import type { CliCommand, CliContext } from './context.ts'
import { formatTable } from './table.ts'

const COMPARE_FLAGS = {
  ...COMPARE_CHOICE_FLAGS,
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
    // Each compared run's rounds: how many ran and why they stopped.
    rounds: r.rounds,
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
      ...metricCells(m, r.minEffect),
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
  if (r.rounds.length) parts.push(...r.rounds.map((x) => wrap(x.words)), '')
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
  checkMinEffect(flags['min-effect'])
  const result = await withEngine(flags.db ?? ctx.dbPath, async (host) =>
    host.runs.compare({
      runIds: ids,
      ...(await compareChoice(host, ids, flags)),
      ...(flags.series ? { asSeries: true } : {}),
    }),
  )
  ctx.stdout.write(formatComparison(result))
  if (flags.json) {
    await writeOutput(flags.json, [JSON.stringify(compareJson(result), null, 2) + '\n'], {
      dbPath: flags.db ?? ctx.dbPath,
      field: '--json',
    })
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

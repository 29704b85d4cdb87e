// The comparison as the report's first page shows it: the headline, a side-by-side table of every
// entry (throughput, p50, p95, p99, p99.9, errors, and CPU and memory where monitored), the pairs
// with ratio, interval and verdict, and the method once. Words come from engine/metrics/ (the CLI
// and the app say the same), so a sentence is never written twice with different numbers.
import type { CompareMetric, CompareResult } from '../api/types.ts'
import { figuresOf } from '../metrics/figures.ts'
import {
  CENTRE_NAME,
  fmtAgreeCell,
  fmtEffectCell,
  fmtMargin,
  fmtMetricValue,
  METRIC_LABEL,
  verdictWord,
} from '../metrics/compare-words.ts'
import type { ReportData, RunReportData } from './data.ts'
import { esc, fmtBytes, fmtInt, fmtMs, fmtRate } from './format.ts'
import { lineChart, PALETTE } from './svg.ts'
import { resultsByTarget } from './tables.ts'

/** One entry's figures: the target over its rounds (engine/metrics/over-rounds.ts), as every screen shows it. */
export interface EntryFigures {
  label: string
  runId: number
  target: string
  rounds: number
  requests: number
  throughput: number
  p50: number | null
  p95: number | null
  p99: number | null
  p999: number | null
  failed: number
  cpu: number | null
  memory: number | null
}

/** Every target of every run, with the run's id in the label where names repeat. */
export function entryFigures(data: ReportData): EntryFigures[] {
  const names = data.runs.flatMap((d) => resultsByTarget(d).map(([t]) => t))
  const unique = new Set(names).size === names.length
  return data.runs.flatMap((d: RunReportData) =>
    resultsByTarget(d).flatMap(([target]) => {
      const over = d.run.overRounds.find((o) => o.target === target)
      if (!over) return []
      const f = figuresOf(over)
      const stats = over.latency.count > 0 ? over.latency : null
      const used = d.resourceSummary.find((r) => r.target === target)
      return [
        {
          label: unique ? target : `${target} (run ${d.run.runId})`,
          runId: d.run.runId,
          target,
          rounds: over.rounds,
          requests: f.requests,
          throughput: f.throughput,
          p50: stats?.p50 ?? null,
          p95: stats?.p95 ?? null,
          p99: stats?.p99 ?? null,
          p999: stats?.p999 ?? null,
          failed: f.failed,
          cpu: used?.sum.cpu?.mean ?? null,
          memory: used?.sum.memory?.mean ?? null,
        },
      ]
    }),
  )
}

const ms = (v: number | null): string => (v === null ? '–' : fmtMs(v))

/** The side-by-side table: one row per entry; CPU and memory columns only where some were monitored. */
export function sideBySideTable(entries: readonly EntryFigures[]): string {
  const cpu = entries.some((e) => e.cpu !== null)
  const memory = entries.some((e) => e.memory !== null)
  const head = `<tr><th>Entry</th><th class="num">Rounds</th><th class="num">Throughput<br>req/s</th>
<th class="num">p50<br>ms</th><th class="num">p95<br>ms</th><th class="num">p99<br>ms</th><th class="num">p99.9<br>ms</th>
<th class="num">Errors</th>${cpu ? '<th class="num">CPU<br>% mean</th>' : ''}${memory ? '<th class="num">Memory<br>mean</th>' : ''}</tr>`
  const rows = entries.map(
    (
      e,
    ) => `<tr><td><b>${esc(e.label)}</b></td><td class="num">${e.rounds}</td><td class="num">${fmtRate(e.throughput)}</td>
<td class="num">${ms(e.p50)}</td><td class="num">${ms(e.p95)}</td><td class="num">${ms(e.p99)}</td><td class="num">${ms(e.p999)}</td>
<td class="num">${fmtInt(e.failed)}${e.requests > 0 ? ` <span class="muted">(${((100 * e.failed) / e.requests).toFixed(2)} %)</span>` : ''}</td>
${cpu ? `<td class="num">${e.cpu === null ? '–' : e.cpu.toFixed(0)}</td>` : ''}${memory ? `<td class="num">${fmtBytes(e.memory)}</td>` : ''}</tr>`,
  )
  return `<table class="figures side-by-side">${head}${rows.join('\n')}</table>
<p class="note">Each entry is the target over its rounds, the figure every table, the app and <code>runs show</code> give it (“all N” rows): throughput the mean of the rounds' throughputs, latency every answered request of every round (the rounds' histograms merged), errors the failed requests of all rounds (requests still in flight at the end are not counted). The pairs below compare another statistic, the ${CENTRE_NAME}.${cpu || memory ? ' CPU and memory: the monitored target (its instances summed), averaged over its seconds under load, as each run’s resources table gives them.' : ''}</p>`
}

function metricRow(m: CompareMetric, minEffect: number): string {
  return `<tr><td>${METRIC_LABEL[m.metric]}</td><td class="num">${fmtMetricValue(m.metric, m.baseline)}</td>
<td class="num">${fmtMetricValue(m.metric, m.other)}</td><td class="num effect">${esc(fmtEffectCell(m))}</td>
<td>${m.verdict === 'too-few-rounds' ? '–' : esc(fmtAgreeCell(m.agree))}</td><td class="verdict v-${m.verdict}">${esc(verdictWord(m, minEffect))}</td></tr>`
}

/** The pairs: one block per pair, the figures of both sides, the ratio with its interval, the verdict. */
export function pairsTable(result: CompareResult): string {
  if (result.pairs.length === 0) return ''
  const blocks = result.pairs.map((p) => {
    const rows = p.metrics.map((m) => metricRow(m, result.minEffect)).join('\n')
    const design = p.design === 'paired' ? 'rounds paired' : 'rounds unpaired'
    return `<table class="figures pairs"><colgroup><col style="width:13%"><col style="width:17%"><col style="width:17%"><col style="width:22%"><col style="width:13%"><col style="width:18%"></colgroup><tr class="pair-head"><th colspan="6">${esc(p.other.label)} <span class="muted">against</span> ${esc(p.baseline.label)}
<span class="muted">(${p.other.rounds} and ${p.baseline.rounds} round${p.baseline.rounds === 1 ? '' : 's'}, ${design}${p.corrected ? ', latency corrected for coordinated omission' : ''})</span></th></tr>
<tr><th>Metric</th><th class="num">${esc(p.baseline.label)}<br><span class="muted">${CENTRE_NAME}</span></th><th class="num">${esc(p.other.label)}<br><span class="muted">${CENTRE_NAME}</span></th><th class="num">Ratio (95 % CI)</th><th>Rounds agreeing</th><th>Verdict</th></tr>
${rows}</table>`
  })
  return blocks.join('\n')
}

/**
 * The comparison as the user made it, stated on page 1: the baseline (or the explicit pairs, or a
 * curve) and the smallest difference that matters, so a reader knows what "faster" was held to.
 */
export function choiceLine(c: CompareResult): string {
  const entry = (e: { label: string; runId: number }) =>
    `${esc(e.label)}${e.label.includes(`(run ${e.runId})`) ? '' : ` (run ${e.runId})`}`
  const how = c.series
    ? `as values of ${esc(c.series.name)}`
    : c.baseline
      ? `against the baseline ${entry(c.baseline)}`
      : `in the pairs ${c.pairs.map((p) => `${entry(p.other)} against ${entry(p.baseline)}`).join(', ')}`
  return `<p class="choice" data-choice="compare">Compared ${how}; smallest difference that matters ±${esc(fmtMargin(c.minEffect))}.</p>`
}

/** Each compared run's rounds: how many ran and why they stopped (rounds-words.ts). */
export function roundsNote(result: CompareResult): string {
  if (result.rounds.length === 0) return ''
  return `<p class="note rounds" data-rounds="compare">${result.rounds.map((r) => esc(r.words)).join('<br>')}</p>`
}

export function methodNote(result: CompareResult): string {
  return `<p class="note method">${esc(result.method)}</p>`
}

/** Entries that are values of one thing: p50 and throughput against the value, one line each. */
export function seriesCharts(series: NonNullable<CompareResult['series']>): string {
  const line = (key: 'throughput' | 'p50' | 'p99', title: string, label: string, scale = 1) =>
    lineChart(
      series.lines.map((l, i) => ({
        label: l.name,
        color: PALETTE[i % PALETTE.length]!,
        segments: [l.points.map((p) => [p.value, p[key] / scale] as [number, number])],
      })),
      { title, x: { label: series.name }, y: { label } },
    )
  return [
    line('p50', `p50 latency against ${series.name}`, 'ms', 1000),
    line('p99', `p99 latency against ${series.name}`, 'ms', 1000),
    line('throughput', `Throughput against ${series.name}`, 'responses/s'),
  ].join('\n')
}

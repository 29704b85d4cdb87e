// The comparison report as one self-contained HTML document: inline CSS, inline SVG charts, no
// script, no external fetch. Every string that came from a user (run, target and phase names,
// tags, notes, URLs) goes through esc().
import { COMPARE_METRICS, type CompareMetric, type CompareResult } from '../api/types.ts'
import { metricValues } from '../metrics/compare.ts'
import type { HistoryStore } from '../store/queries.ts'
import {
  colorFor,
  distributionChart,
  latencyOverTimeChart,
  resourceCharts,
  scheduleChart,
  throughputChart,
} from './charts.ts'
import { loadReportData, type LoadOptions, type ReportData, type RunReportData } from './data.ts'
import { esc, fmtDate } from './format.ts'
import { configurationTable, environmentSection } from './sections.ts'
import { REPORT_CSS } from './style.ts'
import { PALETTE } from './svg.ts'
import { studySection } from './study.ts'
import {
  comparisonTables,
  fmtMetric,
  metricLabel,
  phaseTables,
  resultsByTarget,
  summaryTable,
} from './tables.ts'

export interface ReportOptions extends LoadOptions {
  /** The report's title (default: the run's name, or "Comparison of N runs"). */
  title?: string
}

const HIGHER_IS_BETTER: Record<CompareMetric['metric'], boolean> = {
  throughput: true,
  mean: false,
  p50: false,
  p95: false,
  p99: false,
  p999: false,
  errorRate: false,
}

export function reportTitle(data: ReportData, title?: string): string {
  if (title) return title
  const first = data.runs[0]
  return data.runs.length === 1 && first ? first.run.name : `Comparison of ${data.runs.length} runs`
}

function warnings(d: RunReportData): string {
  const out: string[] = []
  if (d.run.generator.message)
    out.push(`<div class="warning bad"><b>Generator saturated.</b> ${esc(d.run.generator.message)}</div>`)
  if (d.run.status !== 'done') {
    out.push(
      `<div class="warning"><b>Run ${esc(d.run.status)}.</b> ${d.run.error ? esc(d.run.error) : 'The figures cover what was measured before it ended.'}</div>`,
    )
  }
  return out.join('')
}

/** Entries (run, target) with their mean-over-rounds value of a metric, as compare.ts computes it. */
function standings(data: ReportData, metric: CompareMetric['metric']): { label: string; value: number }[] {
  const names = data.runs.flatMap((d) => resultsByTarget(d).map(([t]) => t))
  const unique = new Set(names).size === names.length
  const out: { label: string; value: number }[] = []
  for (const d of data.runs) {
    for (const [target, rounds] of resultsByTarget(d)) {
      const values = metricValues(metric, rounds, false)
      if (values.length === 0) continue
      out.push({
        label: unique ? target : `${target} (run ${d.run.runId})`,
        value: values.reduce((s, v) => s + v, 0) / values.length,
      })
    }
  }
  return out
}

/**
 * The across-runs comparison without the baseline run's own targets: those pairs are the baseline
 * run's within-run comparison again (same baseline), shown in its section.
 */
function acrossOthers(data: ReportData): CompareResult | null {
  const across = data.across
  if (!across) return null
  const baseRun = data.runs.find((d) => d.run.runId === across.baseline.runId)
  if (!baseRun?.comparison) return across
  const others = across.others.filter((o) => o.entry.runId !== across.baseline.runId)
  return others.length ? { ...across, others } : null
}

/** A plain-language paragraph per metric: who leads, then every comparison sentence. */
function metricSummaries(data: ReportData): string {
  const results: CompareResult[] = [
    ...data.runs.map((d) => d.comparison).filter((c): c is CompareResult => c !== null),
  ]
  const across = acrossOthers(data)
  if (across) results.push(across)
  return COMPARE_METRICS.map((metric) => {
    const entries = standings(data, metric)
    if (entries.length === 0) return ''
    const sorted = [...entries].sort((a, b) =>
      HIGHER_IS_BETTER[metric] ? b.value - a.value : a.value - b.value,
    )
    const best = sorted[0]!
    const worst = sorted[sorted.length - 1]!
    const lead =
      entries.length === 1 || fmtMetric(metric, best.value) === fmtMetric(metric, worst.value)
        ? `${entries.length === 1 ? esc(best.label) : `All ${entries.length} entries`}: ${fmtMetric(metric, best.value)}.`
        : `Best: <b>${esc(best.label)}</b> with ${fmtMetric(metric, best.value)}; worst: ${esc(worst.label)} with ${fmtMetric(metric, worst.value)}.`
    const seen = new Set<string>()
    const sentences = results
      .flatMap((r) => r.others.flatMap((o) => o.metrics.filter((m) => m.metric === metric)))
      .map((m) => m.sentence)
      .filter((s) => (seen.has(s) ? false : (seen.add(s), true)))
    return `<div class="metric-summary"><h4>${metricLabel(metric)}</h4><p>${lead}</p>${
      sentences.length
        ? `<ul class="sentences">${sentences.map((s) => `<li>${esc(s)}</li>`).join('')}</ul>`
        : ''
    }</div>`
  }).join('\n')
}

function runList(data: ReportData): string {
  const rows = data.runs
    .map(
      (
        d,
      ) => `<tr><td class="num">${d.run.runId}</td><td><b>${esc(d.run.name)}</b>${d.run.tags.map((t) => ` <span class="tag">${esc(t)}</span>`).join('')}</td>
<td>${esc(d.run.status)}</td><td>${fmtDate(d.run.startedAt)}</td><td>${resultsByTarget(d)
        .map(([t]) => esc(t))
        .join(', ')}</td></tr>`,
    )
    .join('')
  return `<table class="figures run-list"><tr><th class="num">Run</th><th>Name</th><th>Status</th><th>Started</th><th>Targets</th></tr>${rows}</table>`
}

function runSection(d: RunReportData): string {
  const color = colorFor(d.run.config.targets.map((t) => t.name))
  const segments = d.run.config.targets.length * d.run.config.rounds
  const distribution = distributionChart(
    d.merged.map((m) => ({
      label: `${m.target}${m.rounds > 1 ? ` (${m.rounds} rounds)` : ''}`,
      color: color(m.target),
      curve: m.curve,
    })),
  )
  const comparison = d.comparison
    ? `<h3>Differences between targets</h3>${comparisonTables(d.comparison)}`
    : d.comparisonNote
      ? `<p class="muted">${esc(d.comparisonNote)}</p>`
      : ''
  return `<section class="run"><h2>Run ${d.run.runId}: ${esc(d.run.name)}</h2>
${warnings(d)}
<h3>Configuration</h3>${configurationTable(d)}
${d.plan ? scheduleChart(d.schedule, d.plan, segments) : ''}
<h3>Results per target</h3>${summaryTable(d)}
${phaseTables(d)}
${comparison}
<h3>Charts</h3>
${throughputChart(d.series, color)}
${latencyOverTimeChart(d.series, color)}
${distribution}
${resourceCharts(d.series, d.resources, color)}
</section>`
}

function acrossSection(data: ReportData): string {
  if (data.runs.length < 2) return ''
  const entries = data.runs.flatMap((d) =>
    d.merged.map((m) => ({ label: `${m.target} (run ${d.run.runId})`, curve: m.curve })),
  )
  const chart = distributionChart(
    entries.map((e, i) => ({ ...e, color: PALETTE[i % PALETTE.length]! })),
    'Latency distribution of every target in every run',
  )
  const across = acrossOthers(data)
  const body = across
    ? `<p>Every target of the other runs against ${esc(across.baseline.label)}; each round is one observation. Targets of the same run are compared in the run's section.</p>${comparisonTables(across)}`
    : `<p class="muted">${esc(data.acrossNote ?? 'Nothing to compare across runs.')}</p>`
  return `<section class="across"><h2>Across runs</h2>${body}${chart}</section>`
}

/** The report from already loaded data (pure: the same data gives the same HTML). */
export function renderReportHtml(data: ReportData, opts: Pick<ReportOptions, 'title'> = {}): string {
  const title = reportTitle(data, opts.title)
  const saturated = data.runs.filter((d) => d.run.generator.saturated || d.run.generator.message)
  const alerts = saturated.length
    ? `<div class="warning bad"><b>Generator saturation</b> in run ${saturated.map((d) => d.run.runId).join(', ')}: those figures may measure the load generator rather than the target (details in the run's section).</div>`
    : ''
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>${esc(title)}</title><style>${REPORT_CSS}</style></head>
<body>
<header><h1>${esc(title)}</h1>
<div class="subtitle">Cannonade comparison report · generated ${fmtDate(data.generatedAt)} · ${data.runs.length} run${data.runs.length === 1 ? '' : 's'}</div></header>
${runList(data)}
${alerts}
<h2>Summary</h2>
<p class="note">Each metric: the best and worst entry (mean over rounds), then every difference in words with its 95 % confidence interval from the rounds (bootstrap) and a Mann–Whitney test.</p>
${metricSummaries(data)}
<h2>Environment</h2>
${environmentSection(data)}
${data.studies.map(studySection).join('\n')}
${acrossSection(data)}
${data.runs.map(runSection).join('\n')}
</body></html>`
}

/** Load the runs from the history and build the report's HTML. */
export function buildReportHtml(
  store: HistoryStore,
  runIds: readonly number[],
  opts: ReportOptions = {},
): string {
  return renderReportHtml(loadReportData(store, runIds, opts), opts)
}

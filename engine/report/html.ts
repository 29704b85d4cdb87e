// The comparison report as one self-contained HTML document: inline CSS, inline SVG charts, no
// script, no external fetch. Every string that came from a user (run, target and phase names,
// tags, notes, URLs) goes through esc().
import { findingsSection } from './findings.ts'
import type { CompareResult } from '../api/types.ts'
import { warningLine, warningTitle } from '../monitor/warnings.ts'
import type { HistoryStore } from '../store/history-store.ts'
import {
  distributionChart,
  errorsChart,
  latencyOverTimeChart,
  resourceCharts,
  scheduleChart,
  throughputChart,
} from './charts.ts'
import {
  choiceLine,
  entryFigures,
  methodNote,
  roundsNote,
  pairsTable,
  seriesCharts,
  sideBySideTable,
} from './comparison.ts'
import { loadReportData, type LoadOptions, type ReportData, type RunReportData } from './data.ts'
import { esc, fmtDate } from './format.ts'
import { configurationTable, environmentSection } from './sections.ts'
import { REPORT_CSS } from './style.ts'
import { instanceCharts, resourcesTable } from './resources.ts'
import { colourFor, targetOrder, tint } from './palette.ts'
import { studySection } from './study.ts'
import { phaseTables, resultsByTarget, stepTables, summaryTable } from './tables.ts'

export interface ReportOptions extends LoadOptions {
  /** The report's title (default: the run's name, or "Comparison of N runs"). */
  title?: string
}

export function reportTitle(data: ReportData, title?: string): string {
  if (title) return title
  const first = data.runs[0]
  return data.runs.length === 1 && first ? first.run.name : `Comparison of ${data.runs.length} runs`
}

function warnings(d: RunReportData, printed: Set<string>): string {
  const out: string[] = []
  const noted = [...printed].some((n) =>
    n.startsWith(`The load generator was saturated in run ${d.run.runId} `),
  )
  if (d.run.generator.message && (d.run.generator.shared || !noted))
    out.push(
      `<div class="warning bad"><b>Generator ${d.run.generator.shared ? 'shared' : 'saturated'}.</b> ${esc(d.run.generator.message)}</div>`,
    )
  // A monitor that could not read its source: its CPU and memory charts are missing or have gaps.
  for (const w of d.run.warnings)
    out.push(
      `<div class="warning" data-warning="${w.kind}"><b>${warningTitle(w)}.</b> ${esc(warningLine(w))}</div>`,
    )
  if (d.run.status !== 'done') {
    out.push(
      `<div class="warning"><b>Run ${d.run.runId} ${esc(d.run.status)}.</b> ${d.run.error ? esc(d.run.error) : 'Its figures cover what was measured before it ended.'}</div>`,
    )
  }
  return out.join('')
}

/**
 * A comparison's headline without the caveats already printed elsewhere in the report (each
 * caveat is said once); the ones it prints are remembered.
 */
function headlineOnce(result: CompareResult, printed: Set<string>): string {
  let text = result.headline
  for (const note of result.notes) {
    if (printed.has(note)) text = text.replace(note, '')
    printed.add(note)
  }
  return `<p class="headline">${esc(text.replace(/\s+/g, ' ').trim())}</p>`
}

/** One colour per target name for the whole report, as the app keys them (engine/report/palette.ts). */
export function reportColours(data: ReportData): (name: string) => string {
  return colourFor(targetOrder(data.runs.flatMap((d) => d.run.config.targets.map((t) => t.name))))
}

/**
 * Page 1's chart: the latency distribution of every target of every run (the one place the report
 * draws it). A target keeps its colour; the same target in a later run is drawn lighter.
 */
export function distributionOverview(data: ReportData): string {
  const color = reportColours(data)
  const several = data.runs.length > 1
  const entries = data.runs.flatMap((d, runIndex) =>
    d.merged.map((m) => ({
      label: `${m.target}${m.corrected ? ' from intended send (corrected)' : ''}${several ? ` (run ${d.run.runId})` : ''}${m.rounds > 1 ? `, ${m.rounds} rounds` : ''}`,
      color: tint(color(m.target), Math.min(0.6, 0.3 * runIndex + (m.corrected ? 0.35 : 0))),
      points: m.points,
      band: m.band,
    })),
  )
  return distributionChart(
    entries,
    several ? 'Latency distribution of every target in every run' : 'Latency distribution of every target',
  )
}

/**
 * Page 1: the headline, every entry side by side, the latency distribution, the pairs with their
 * verdicts, the method.
 */
function firstPage(data: ReportData, printed: Set<string>): string {
  const c = data.comparison
  const parts = ['<section class="verdict">']
  if (c) parts.push(headlineOnce(c, printed), choiceLine(c), roundsNote(c))
  else parts.push(`<p class="headline">${esc(data.comparisonNote ?? 'Nothing to compare.')}</p>`)
  parts.push(sideBySideTable(entryFigures(data)))
  parts.push(distributionOverview(data))
  if (c?.series && data.studies.length === 0) parts.push(seriesCharts(c.series))
  if (c && c.pairs.length > 0) parts.push(pairsTable(c), methodNote(c))
  parts.push('</section>')
  return parts.join('\n')
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

// The latency distribution of every target is drawn once, on page 1 (distributionOverview).
function runSection(
  d: RunReportData,
  printed: Set<string>,
  several: boolean,
  color: (name: string) => string,
): string {
  const segments = d.run.config.targets.length * Math.max(1, d.run.rounds.round)
  // A one-run report compares its targets on page 1; in a report of several runs each run's own
  // targets are compared here.
  let comparison = ''
  if (several && d.comparison)
    comparison = `<h3>Its targets compared</h3>${headlineOnce(d.comparison, printed)}${pairsTable(d.comparison)}`
  else if (several && d.comparisonNote) comparison = `<p class="muted">${esc(d.comparisonNote)}</p>`
  return `<section class="run"><h2>Run ${d.run.runId}: ${esc(d.run.name)}</h2>
${warnings(d, printed)}
<h3>Configuration</h3>${configurationTable(d)}
${d.plan ? scheduleChart(d.schedule, d.plan, segments) : ''}
<h3>Results per target</h3>${summaryTable(d)}
${findingsSection(d)}
${phaseTables(d)}
${stepTables(d)}
${resourcesTable(d.resourceSummary)}
${comparison}
<h3>Charts</h3>
${throughputChart(d.series, color)}
${latencyOverTimeChart(d.series, color)}
${errorsChart(d.series)}
${resourceCharts(d.series, d.resources, color)}
${instanceCharts(
  d.resources,
  resultsByTarget(d).map(([t]) => t),
  color,
)}
</section>`
}

/**
 * Every sentence once: a note or remark (`<p class="note">`, `<p class="muted">`) already printed
 * earlier in the report (the same words under each run's table, say) is left out the next time.
 */
export function sayOnce(html: string): string {
  const seen = new Set<string>()
  return html.replace(/<p class="(?:note|muted)">([\s\S]*?)<\/p>/g, (whole: string, text: string) => {
    const key = text.replace(/\s+/g, ' ').trim()
    if (seen.has(key)) return ''
    seen.add(key)
    return whole
  })
}

/** The report from already loaded data (pure: the same data gives the same HTML). */
export function renderReportHtml(data: ReportData, opts: Pick<ReportOptions, 'title'> = {}): string {
  const title = reportTitle(data, opts.title)
  // Sentences already printed: a caveat is said once in the whole report.
  const printed = new Set<string>()
  const first = firstPage(data, printed)
  const several = data.runs.length > 1
  const colours = reportColours(data)
  return sayOnce(`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>${esc(title)}</title><style>${REPORT_CSS}</style></head>
<body>
<header><h1>${esc(title)}</h1>
<div class="subtitle">Cannonade comparison report · generated ${fmtDate(data.generatedAt)} · ${data.runs.length} run${data.runs.length === 1 ? '' : 's'}</div></header>
${runList(data)}
${first}
<h2>Environment</h2>
${environmentSection(data)}
${data.studies.map((st) => studySection(st, colours)).join('\n')}
${data.runs.map((d) => runSection(d, printed, several, colours)).join('\n')}
</body></html>`)
}

/** Load the runs from the history and build the report's HTML. */
export function buildReportHtml(
  store: HistoryStore,
  runIds: readonly number[],
  opts: ReportOptions = {},
): string {
  return renderReportHtml(loadReportData(store, runIds, opts), opts)
}

// A run's figure tables in the report: per target and round (and all rounds merged), corrected
// latency in rate mode, per phase (with each phase's wall time), per scenario step, and where the
// time went (the target's Server-Timing app and database time beside the client's latency).
// Counts and rates come from engine/metrics/figures.ts, as on every other screen. Latencies in ms;
// every name is escaped. Long tables may break across pages, with their header repeated. The
// comparison's tables are in comparison.ts.
import type { LatencyStats, StatsBlock, TargetRoundSummary } from '../api/types.ts'
import { figuresOf, type Figures } from '../metrics/figures.ts'
import { errorsText, serverTimingInvalidText } from '../metrics/units.ts'
import { skippedText } from '../metrics/skipped.ts'
import type { RunReportData } from './data.ts'
import { esc, fmtInt, fmtMs, fmtRate, fmtSeconds } from './format.ts'

/** Results grouped by target in the config's order, rounds ascending. */
export function resultsByTarget(d: RunReportData): [string, TargetRoundSummary[]][] {
  const order = d.run.config.targets.map((t) => t.name)
  const groups = new Map<string, TargetRoundSummary[]>()
  for (const r of d.run.results) groups.set(r.target, [...(groups.get(r.target) ?? []), r])
  const rank = (t: string) => (order.indexOf(t) < 0 ? order.length : order.indexOf(t))
  return [...groups]
    .sort((a, b) => rank(a[0]) - rank(b[0]))
    .map(([t, rs]) => [t, rs.sort((a, b) => a.round - b.round)])
}

/** Rows above which a table may break across pages (its header repeats on each). */
const LONG = 24

function head(first: string, second: string): string {
  return `<thead><tr><th rowspan="2" class="name">${first}</th><th rowspan="2">${second}</th><th rowspan="2" class="num">Time</th>
<th rowspan="2" class="num">Requests</th><th rowspan="2" class="num">Throughput<br>resp./s</th><th colspan="7" class="group">Latency of the responses (ms)</th>
<th rowspan="2">Errors</th><th rowspan="2" class="num">In flight<br>at end</th></tr>
<tr><th class="num">mean</th><th class="num">std dev</th><th class="num">p50</th><th class="num">p95</th><th class="num">p99</th><th class="num">p99.9</th><th class="num">max</th></tr></thead>`
}

export function latencyCells(l: LatencyStats): string {
  if (l.count === 0) return '<td class="num muted" colspan="7">no responses</td>'
  return [l.mean, l.stddev, l.p50, l.p95, l.p99, l.p999, l.max]
    .map((v) => `<td class="num">${fmtMs(v)}</td>`)
    .join('')
}

function row(first: string, second: string, f: Figures, l: LatencyStats, cls = ''): string {
  return `<tr${cls ? ` class="${cls}"` : ''}><td class="name">${first}</td><td>${second}</td><td class="num">${fmtSeconds(f.seconds)}</td>
<td class="num">${fmtInt(f.requests)}</td><td class="num">${fmtRate(f.throughput)}</td>${latencyCells(l)}
<td class="errors">${esc(errorsText(f.errors, fmtInt, f.unexpected))}</td><td class="num">${fmtInt(f.inflight)}</td></tr>`
}

function table(headHtml: string, rows: readonly string[]): string {
  return `<table class="figures${rows.length > LONG ? ' long' : ''}">${headHtml}<tbody>${rows.join('\n')}</tbody></table>`
}

/** The words under a figure table: what each column counts, once per report (html.ts drops repeats). */
const COLUMNS_NOTE =
  '<p class="note">Requests: requests with an outcome (answered, or failed without an answer). Throughput: responses per second of the window, any status; timeouts and other errors without an answer do not count. Latency: answered requests only. In flight at end: still waiting when the window closed; neither an error nor a latency.</p>'

/** What an "all N" row is: the target over its rounds (engine/metrics/over-rounds.ts), as on page 1. */
const ALL_ROUNDS_NOTE =
  '<p class="note">“all N” rows: the target over its rounds, as page 1, the app and <code>runs show</code> give it: time, requests and errors summed, throughput the mean of the rounds’ throughputs, latency every answered request of every round (the rounds’ HDR histograms merged).</p>'

/** The summary table: one row per target and round, plus all rounds merged when there are several. */
export function summaryTable(d: RunReportData): string {
  const groups = resultsByTarget(d)
  if (groups.length === 0) return `<p class="muted">Run ${d.run.runId} has no finished results.</p>`
  const rows: string[] = []
  for (const [target, rounds] of groups) {
    rounds.forEach((r, i) =>
      rows.push(row(i === 0 ? `<b>${esc(target)}</b>` : '', String(r.round), figuresOf(r), r.latency)),
    )
    const over = d.run.overRounds.find((o) => o.target === target)
    if (rounds.length > 1 && over)
      rows.push(row('', `all ${rounds.length}`, figuresOf(over), over.latency, 'merged'))
  }
  const notes = groups.some(([, rs]) => rs.length > 1) ? ALL_ROUNDS_NOTE : ''
  return `${table(head('Target', 'Round'), rows)}${COLUMNS_NOTE}${notes}${correctedTable(d, groups)}${scheduleTable(groups)}${serverTimingTable(groups)}`
}

/** Rate mode: latency from each request's intended send time (coordinated omission corrected). */
function correctedTable(d: RunReportData, groups: [string, TargetRoundSummary[]][]): string {
  const rows: string[] = []
  for (const [target, rounds] of groups) {
    rounds.forEach((r, i) => {
      if (r.corrected)
        rows.push(row(i === 0 ? `<b>${esc(target)}</b>` : '', String(r.round), figuresOf(r), r.corrected))
    })
    const over = d.run.overRounds.find((o) => o.target === target)
    if (rounds.length > 1 && over?.corrected)
      rows.push(row('', `all ${rounds.length}`, figuresOf(over), over.corrected, 'merged'))
  }
  if (rows.length === 0) return ''
  return `<h4>Corrected for coordinated omission (latency from the intended send time)</h4>${table(head('Target', 'Round'), rows)}`
}

/**
 * Rate mode: how the sends kept to the schedule, a row per target and round: scheduled, sent,
 * never sent, late by more than 1 ms, the lateness percentiles, the most connections busy at once.
 */
function scheduleTable(groups: [string, TargetRoundSummary[]][]): string {
  const rows: string[] = []
  for (const [target, rounds] of groups)
    rounds.forEach((r, i) => {
      const s = r.schedule
      if (!s) return
      const l = s.lateness
      rows.push(`<tr><td class="name">${i === 0 ? `<b>${esc(target)}</b>` : ''}</td><td>${r.round}</td>
${[s.scheduled, s.sent, s.unsent, s.late].map((n) => `<td class="num">${fmtInt(n)}</td>`).join('')}
${[l.p50, l.p90, l.p99, l.max].map((v) => `<td class="num">${fmtMs(v)}</td>`).join('')}<td class="num">${fmtInt(s.peakConnections)}</td></tr>`)
    })
  if (rows.length === 0) return ''
  const headHtml = `<thead><tr><th rowspan="2" class="name">Target</th><th rowspan="2">Round</th><th rowspan="2" class="num">Scheduled</th><th rowspan="2" class="num">Sent</th>
<th rowspan="2" class="num">Never sent</th><th rowspan="2" class="num">Late<br>&gt; 1 ms</th><th colspan="4" class="group">Lateness after the intended time (ms)</th><th rowspan="2" class="num">Peak<br>connections</th></tr>
<tr><th class="num">p50</th><th class="num">p90</th><th class="num">p99</th><th class="num">max</th></tr></thead>`
  return `<h4>The schedule: how the sends kept to it</h4>${table(headHtml, rows)}`
}

/** Per-phase figures, where the load profile had named phases; Time is the phase's own wall time. */
export function phaseTables(d: RunReportData): string {
  if (!d.plan || d.plan.phases.length < 2) return ''
  const rows: string[] = []
  for (const [target, rounds] of resultsByTarget(d)) {
    let first = true
    for (const r of rounds) {
      for (const p of r.phases) {
        rows.push(
          row(
            first ? `<b>${esc(target)}</b>` : '',
            `${r.round} · ${esc(p.phase)}${p.warmup ? ' (warm-up, not in the figures above)' : ''}`,
            figuresOf(p),
            p.latency,
          ),
        )
        first = false
      }
    }
  }
  if (rows.length === 0) return ''
  return `<h3>Per phase</h3>${table(head('Target', 'Round · phase'), rows)}`
}

/** Scenario targets: one row per step and round (the steps of one pass, in order). */
export function stepTables(d: RunReportData): string {
  const rows: string[] = []
  for (const [target, rounds] of resultsByTarget(d)) {
    let first = true
    for (const r of rounds) {
      for (const st of r.steps ?? []) {
        rows.push(
          row(
            first ? `<b>${esc(target)}</b>` : '',
            `${r.round} · ${esc(st.step)}`,
            figuresOf(st),
            st.latency,
          ),
        )
        first = false
      }
    }
  }
  if (rows.length === 0) return ''
  // The steps not sent because one before them failed, in the words the CLI and the app use.
  const skips = resultsByTarget(d).flatMap(([target, rounds]) =>
    rounds.flatMap((r) =>
      (r.steps ?? [])
        .filter((st) => st.skipped)
        .map(
          (st) =>
            `<p class="note" data-skipped>${esc(target)} #${r.round} step ${esc(st.step)}: ${esc(skippedText(st.skipped!, fmtInt))}</p>`,
        ),
    ),
  )
  return `<h3>Per scenario step</h3>${table(head('Target', 'Round · step'), rows)}${skips.join('')}`
}

function timingCells(l: LatencyStats | null): string {
  if (!l || l.count === 0) return '<td class="num muted" colspan="3">not sent</td>'
  return [l.mean, l.p50, l.p99].map((v) => `<td class="num">${fmtMs(v)}</td>`).join('')
}

/**
 * Where the time went, in the three places a request is measured: the client (end to end), the
 * target's application and its database, from the `Server-Timing` header (app;dur, db;dur).
 */
function serverTimingTable(groups: [string, TargetRoundSummary[]][]): string {
  const blocks: [string, string, StatsBlock][] = []
  for (const [target, rounds] of groups) {
    rounds.forEach((r, i) => {
      if (r.serverApp || r.serverDb) blocks.push([i === 0 ? `<b>${esc(target)}</b>` : '', String(r.round), r])
      for (const st of r.steps ?? [])
        if (st.serverApp || st.serverDb) blocks.push(['', `${r.round} · ${esc(st.step)}`, st])
    })
  }
  // Headers whose duration was not one are kept out of the figures: said under the table.
  const invalid = groups.flatMap(([target, rounds]) =>
    rounds
      .filter((r) => r.serverTimingInvalid > 0)
      .map(
        (r) =>
          `<p class="note">Server-Timing ${esc(target)} #${r.round}: ${serverTimingInvalidText(r.serverTimingInvalid, fmtInt)}</p>`,
      ),
  )
  if (blocks.length === 0 && invalid.length === 0) return ''
  const headHtml = `<thead><tr><th rowspan="2" class="name">Target</th><th rowspan="2">Round</th><th colspan="3" class="group">End to end (client)</th>
<th colspan="3" class="group">Application (Server-Timing app)</th><th colspan="3" class="group">Database (Server-Timing db)</th></tr>
<tr>${'<th class="num">mean</th><th class="num">p50</th><th class="num">p99</th>'.repeat(3)}</tr></thead>`
  const rows = blocks.map(
    ([first, second, b]) =>
      `<tr><td class="name">${first}</td><td>${second}</td>${timingCells(b.latency)}${timingCells(b.serverApp)}${timingCells(b.serverDb)}</tr>`,
  )
  const tableHtml = blocks.length > 0 ? table(headHtml, rows) : ''
  return `<h4>Where the time went (ms): client, application and database</h4>${tableHtml}${invalid.join('')}`
}

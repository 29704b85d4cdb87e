// The report's figure tables: per target and round (and all rounds merged) and per phase.
// Latencies in ms; every name is escaped. The comparison's tables are in comparison.ts.
import type { LatencyStats, StatsBlock, TargetRoundSummary } from '../api/types.ts'
import type { RunReportData } from './data.ts'
import { addErrors, esc, fmtErrors, fmtInt, fmtMs, fmtRate } from './format.ts'

const HEAD = `<tr><th rowspan="2">Target</th><th rowspan="2">Round</th><th rowspan="2" class="num">Requests</th>
<th rowspan="2" class="num">Throughput<br>req/s</th><th colspan="6" class="group">Latency (ms)</th><th rowspan="2">Errors</th></tr>
<tr><th class="num">mean</th><th class="num">p50</th><th class="num">p95</th><th class="num">p99</th><th class="num">p99.9</th><th class="num">max</th></tr>`

function latencyCells(l: LatencyStats): string {
  if (l.count === 0) return '<td class="num muted" colspan="6">no responses</td>'
  return [l.mean, l.p50, l.p95, l.p99, l.p999, l.max].map((v) => `<td class="num">${fmtMs(v)}</td>`).join('')
}

function row(
  first: string,
  second: string,
  b: Pick<StatsBlock, 'requests' | 'throughput' | 'errors'>,
  l: LatencyStats,
  cls = '',
): string {
  return `<tr${cls ? ` class="${cls}"` : ''}><td>${first}</td><td>${second}</td><td class="num">${fmtInt(b.requests)}</td>
<td class="num">${fmtRate(b.throughput)}</td>${latencyCells(l)}<td class="errors">${esc(fmtErrors(b.errors))}</td></tr>`
}

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

/** The summary table: one row per target and round, plus all rounds merged when there are several. */
export function summaryTable(d: RunReportData): string {
  const groups = resultsByTarget(d)
  if (groups.length === 0) return '<p class="muted">This run has no finished results.</p>'
  const rows: string[] = []
  for (const [target, rounds] of groups) {
    rounds.forEach((r, i) =>
      rows.push(row(i === 0 ? `<b>${esc(target)}</b>` : '', String(r.round), r, r.latency)),
    )
    const merged = d.merged.find((m) => m.target === target)
    if (rounds.length > 1 && merged) {
      const total = {
        requests: rounds.reduce((s, r) => s + r.requests, 0),
        throughput: rounds.reduce((s, r) => s + r.throughput, 0) / rounds.length,
        errors: rounds.reduce((e, r) => addErrors(e, r.errors), {}),
      }
      rows.push(row('', `all ${rounds.length}`, total, merged.stats, 'merged'))
    }
  }
  const notes = groups.some(([, rs]) => rs.length > 1)
    ? '<p class="note">“all N” rows: requests and errors summed, throughput the mean of the rounds (as compared below), latency from the rounds’ HDR histograms merged (every request counted once).</p>'
    : ''
  return `<table class="figures">${HEAD}${rows.join('\n')}</table>${notes}${correctedTable(groups)}`
}

/** Rate mode: latency from each request's intended send time (coordinated omission corrected). */
function correctedTable(groups: [string, TargetRoundSummary[]][]): string {
  const rows: string[] = []
  for (const [target, rounds] of groups) {
    rounds.forEach((r, i) => {
      if (r.corrected) rows.push(row(i === 0 ? `<b>${esc(target)}</b>` : '', String(r.round), r, r.corrected))
    })
  }
  if (rows.length === 0) return ''
  return `<h4>Corrected for coordinated omission (latency from the intended send time)</h4><table class="figures">${HEAD}${rows.join('\n')}</table>`
}

/** Per-phase figures, where the load profile had named phases. */
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
            p,
            p.latency,
          ),
        )
        first = false
      }
    }
  }
  if (rows.length === 0) return ''
  const head = HEAD.replace('>Round<', '>Round · phase<')
  return `<h3>Per phase</h3><table class="figures">${head}${rows.join('\n')}</table>`
}

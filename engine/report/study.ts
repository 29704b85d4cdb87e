// A sweep in the report: per target (and per value of a grid's second setting), throughput and
// latency against the swept value, the knee, and the sentence that says it
// (engine/study/results.ts). Shown when the reported runs belong to a study.
import type { HistoryStore } from '../store/history-store.ts'
import { studyIdsOfRuns } from '../store/studies.ts'
import { studyResults } from '../study/results.ts'
import type { StudyResults } from '../api/types.ts'
import { formatSeriesValue, msText, seriesUnit } from '../metrics/units.ts'
import { esc } from './format.ts'
import { lineChart, PALETTE, scatterChart } from './svg.ts'

/** The studies the runs belong to, each with its results. */
export function studiesOf(store: HistoryStore, runIds: readonly number[]): StudyResults[] {
  return studyIdsOfRuns(store.db, runIds).map((id) => studyResults(store.db, id))
}

export function studySection(s: StudyResults, color: (target: string) => string): string {
  const [axis, by] = s.axes
  const name = axis?.name ?? s.path
  const ms = (us: number) => msText(us)
  // A grid's lines are its targets at each value of the second setting.
  const lineName = (t: StudyResults['targets'][number]) =>
    t.by && by ? `${t.target}, ${by.name}=${t.by.label}` : t.target
  const tables = s.targets
    .map(
      (t) => `<h4>${esc(lineName(t))}</h4>
<table class="figures"><tr><th>${esc(name)}</th><th>run</th><th>req/s</th><th>p50 ms</th><th>p95 ms</th><th>p99 ms</th><th>errors</th></tr>
${t.points
  .map(
    (p) =>
      `<tr${p.value === t.knee ? ' class="knee"' : ''}><td>${esc(p.label)}${p.value === t.knee ? ' (knee)' : ''}</td><td>${p.runId}</td><td>${p.throughput.toFixed(1)}</td><td>${ms(p.p50)}</td><td>${ms(p.p95)}</td><td>${ms(p.p99)}</td><td>${(p.errorRate * 100).toFixed(2)} %</td></tr>`,
  )
  .join('')}</table>
<p>${esc(t.sentence)}</p>${t.capacity ? `\n<p class="capacity"><b>Capacity at the latency target:</b> ${esc(t.capacity.sentence)}</p>` : ''}`,
    )
    .join('\n')
  // Words (stack names, body kinds) are categories: evenly spaced, labelled as written.
  const x = axis?.numeric
    ? { label: name }
    : { label: name, ticks: (axis?.labels ?? []).map((label, value) => ({ value, label })) }
  const line = (key: 'throughput' | 'p99', title: string, label: string, scale = 1) =>
    lineChart(
      s.targets.map((t) => ({
        label: lineName(t),
        color: color(t.target),
        segments: [t.points.map((p) => [p.value, p[key] / scale] as [number, number])],
      })),
      { title, x, y: { label } },
    )
  const swept = s.axes
    .map((a) => `<code>${esc(a.path)}</code> (${a.labels.map(esc).join(', ')})`)
    .join(' against ')
  return `<section class="study"><h2>Study ${s.studyId}: ${esc(s.name)}</h2>
<p>One run per value of ${swept}${by ? ', every pair' : ''}. ${axis?.numeric ? esc(s.kneeRule) : `The values of ${esc(name)} are words, not a scale: no knee is looked for.`}${s.slo && s.capacityRule ? ` Latency target: ${esc(s.slo.metric)} ≤ ${s.slo.ms} ms. ${esc(s.capacityRule)}` : ''}</p>
${line('throughput', `Throughput against ${name}`, 'responses/s')}
${line('p99', `p99 latency against ${name}`, 'ms', 1000)}
${tables}
${s.targets.map((t) => scalingSection(t, name)).join('\n')}
${seriesSection(s, lineName, color)}</section>`
}

/**
 * Each figure of the targets' monitors (CPU, memory, a Prometheus monitor's named series) against
 * throughput, one point per value of the study, joined in the study's order: the study page's
 * "against throughput" chart for every series at once, and a table of the figures.
 */
export function seriesSection(
  s: StudyResults,
  lineName: (t: StudyResults['targets'][number]) => string,
  color: (target: string) => string,
): string {
  const metrics = [
    ...new Set(s.targets.flatMap((t) => t.points.flatMap((p) => (p.series ?? []).map((f) => f.metric)))),
  ]
  if (metrics.length === 0) return ''
  const of = (p: StudyResults['targets'][number]['points'][number], metric: string) =>
    p.series?.find((f) => f.metric === metric)
  const charts = metrics.map((metric) => {
    const { unit, scale } = seriesUnit(metric)
    return lineChart(
      s.targets.map((t) => ({
        label: lineName(t),
        color: color(t.target),
        segments: [
          t.points.flatMap((p) => {
            const f = of(p, metric)
            return f ? [[p.throughput, f.mean * scale] as [number, number]] : []
          }),
        ],
      })),
      { title: `${metric} against throughput`, x: { label: 'responses/s' }, y: { label: unit || metric } },
    )
  })
  const head = metrics.map((m) => `<th>${esc(m)}</th>`).join('')
  const rows = s.targets.flatMap((t) =>
    t.points.map(
      (p) =>
        `<tr><td>${esc(lineName(t))}</td><td>${esc(p.label)}</td><td>${p.throughput.toFixed(1)}</td>${metrics
          .map((m) => {
            const f = of(p, m)
            return `<td>${f ? esc(formatSeriesValue(m, f.mean)) : '–'}</td>`
          })
          .join('')}</tr>`,
    ),
  )
  return `<h4>The targets' monitored figures against throughput (means over each run's measured seconds)</h4>
${charts.join('\n')}
<table class="figures"><tr><th>target</th><th>${esc(s.axes[0]?.name ?? s.path)}</th><th>req/s</th>${head}</tr>
${rows.join('\n')}</table>`
}

/**
 * Throughput against the CPU of the target's instances, per value (the thesis' figure 7.3), and
 * how much of the CPU they had the instances used (its table 7.1): the study page's figures.
 */
export function scalingSection(t: StudyResults['targets'][number], name: string): string {
  const rows = t.points.filter((p) => p.scaling).sort((a, b) => a.value - b.value)
  if (!rows.length) return ''
  const pct = (x: number) => `${Math.round(x)} %`
  const chart = scatterChart(
    rows.map((p, i) => ({
      label: `${name} ${p.value} · ${p.scaling!.instances} inst.`,
      color: PALETTE[i % PALETTE.length]!,
      points: p.scaling!.seconds.map((x) => [x.throughput, x.cpu] as [number, number]),
    })),
    {
      title: `${t.target}: throughput against CPU of all instances, per second`,
      x: { label: 'responses/s' },
      y: { label: 'CPU %' },
    },
  )
  const table = `<table class="figures"><tr><th>${esc(name)}</th><th>instances</th><th>req/s (peak second)</th><th>CPU used (peak)</th><th>CPU available</th><th>utilized</th></tr>
${rows
  .map((p) => {
    const x = p.scaling!
    const available = x.capacityPerInstance !== null ? pct(x.instances * x.capacityPerInstance) : '–'
    const used = x.utilization !== null ? pct(x.utilization * 100) : '–'
    return `<tr><td>${p.value}</td><td>${x.instances}</td><td>${x.peakThroughput}</td><td>${pct(x.peakCpu)}</td><td>${available}</td><td>${used}</td></tr>`
  })
  .join('')}</table>`
  return `<h4>${esc(t.target)}: throughput and CPU per instance count</h4>
${chart}
${table}`
}

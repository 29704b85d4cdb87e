// Descriptive sections of the report: where the runs ran (environment, target images and limits)
// and how each was configured (targets, load, profile in words, thresholds).
import { isLatencyMetric, type RunConfig } from '../config/schema.ts'
import type { ReportData, RunReportData } from './data.ts'
import { esc, fmtBytes, fmtDate, fmtInt, fmtMs, fmtSeconds } from './format.ts'

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** A JSON value in short words: scalars as they are, objects as "key value · key value". */
export function describe(value: unknown): string {
  if (value === null || value === undefined) return '–'
  if (Array.isArray(value)) return value.map(describe).join(', ')
  if (isRecord(value)) {
    return Object.entries(value)
      .filter(([, v]) => v !== undefined && v !== null)
      .map(([k, v]) => `${k} ${describe(v)}`)
      .join(' · ')
  }
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? '')
}

export function profileWords(load: RunConfig['load']): string {
  const p = load.profile
  switch (p.kind) {
    case 'constant':
      return `constant (big bang): ${load.connections} connections for the whole window`
    case 'ramp': {
      const from = p.from ?? 1
      const to = p.to ?? load.connections
      const shape =
        p.stepSize !== undefined && p.stepSeconds !== undefined
          ? `stepped ramp ${from} → ${to} connections, +${p.stepSize} every ${fmtSeconds(p.stepSeconds)}${p.pauseSeconds > 0 ? `, ${fmtSeconds(p.pauseSeconds)} pause between steps` : ''}`
          : `ramp ${from} → ${to} connections over ${fmtSeconds(p.rampSeconds ?? 1)}`
      return `${shape}${p.holdSeconds > 0 ? `, then hold ${fmtSeconds(p.holdSeconds)}` : ''}`
    }
    case 'burst':
      return `bursts of ${p.connections ?? load.connections} connections: ${fmtSeconds(p.burstSeconds)} on, ${fmtSeconds(p.idleSeconds)} off`
    case 'phases':
      return `phases: ${p.phases
        .map(
          (ph) =>
            `${ph.name} ${Math.round(ph.share * 100)} % for ${ph.duration !== undefined ? fmtSeconds(ph.duration) : `${fmtInt(ph.requests ?? 0)} requests`}`,
        )
        .join(', ')}`
    case 'stages':
      return `stages: ${p.stages.map((s) => `${s.connections} connections at ${fmtSeconds(s.duration)}`).join(' → ')}`
  }
}

function thresholdWords(d: RunReportData): string {
  if (d.run.thresholds.length === 0) return 'none'
  return d.run.thresholds
    .map((t) => {
      const latency = isLatencyMetric(t.metric)
      const f = (v: number | null | undefined) =>
        v === null || v === undefined
          ? '–'
          : latency
            ? `${fmtMs(v)} ms`
            : t.metric === 'errorRate'
              ? `${(v * 100).toFixed(2)} %`
              : v.toFixed(1)
      const bound = [t.max !== undefined ? `≤ ${f(t.max)}` : '', t.min !== undefined ? `≥ ${f(t.min)}` : '']
        .filter(Boolean)
        .join(' and ')
      return `${esc(t.target)} ${esc(t.metric)} ${bound}: ${f(t.actual)} <b class="${t.passed ? 'pass' : 'fail'}">${t.passed ? 'passed' : 'FAILED'}</b>`
    })
    .join('<br>')
}

export function configurationTable(d: RunReportData): string {
  const c = d.run.config
  const load = c.load
  const window =
    load.duration !== undefined
      ? fmtSeconds(load.duration)
      : load.requests !== undefined
        ? `${fmtInt(load.requests)} requests`
        : 'set by the profile'
  const targets = c.targets
    .map((t) => `<b>${esc(t.name)}</b> ${esc(t.method)} <span class="url">${esc(t.url)}</span>`)
    .join('<br>')
  const rows: [string, string][] = [
    ['Targets', targets],
    ['Connections', String(load.connections)],
    ['Window', window],
    ['Load profile', esc(profileWords(load))],
    [
      'Schedule',
      `${esc(c.schedule)}, ${c.rounds} round${c.rounds === 1 ? '' : 's'}, ${fmtSeconds(c.cooldownSeconds)} cooldown`,
    ],
    [
      'Connection',
      `keep-alive ${load.keepAlive ? 'on' : 'off'}, pipelining ${load.pipelining}, timeout ${fmtInt(load.timeoutMs)} ms`,
    ],
    [
      'Rate',
      load.rate === null
        ? 'closed loop (as fast as answers come)'
        : `${load.rate} requests/s per target (open loop; latency corrected for coordinated omission)`,
    ],
    ['Thresholds', thresholdWords(d)],
  ]
  if (d.run.tags.length)
    rows.push(['Tags', d.run.tags.map((t) => `<span class="tag">${esc(t)}</span>`).join(' ')])
  if (d.run.note) rows.push(['Note', esc(d.run.note)])
  return `<table class="kv">${rows.map(([k, v]) => `<tr><th>${k}</th><td>${v}</td></tr>`).join('')}</table>`
}

function monitorWords(m: unknown): string {
  if (Array.isArray(m)) return m.length > 0 ? m.map(monitorWords).join('; ') : 'not monitored'
  if (!isRecord(m)) return 'not monitored'
  const { kind, ...rest } = m
  return `${String(kind)}${Object.keys(rest).length ? ` (${describe(rest)})` : ''}`
}

/** Limits as recorded in environment.details, else as the monitor saw them. */
function limitWords(t: Record<string, unknown>, d: RunReportData, name: string): string {
  if (t.limits !== undefined) return describe(t.limits)
  const seen = d.limits.find((l) => l.target === name)
  const parts: string[] = []
  if (seen?.cpuLimit) parts.push(`${seen.cpuLimit} CPUs`)
  if (seen?.memoryLimit) parts.push(`memory ${fmtBytes(seen.memoryLimit)}`)
  return parts.length ? parts.join(' · ') : 'none recorded'
}

export function environmentSection(data: ReportData): string {
  const runs = data.runs
  const fields: [string, (d: RunReportData) => string][] = [
    ['Host', (d) => d.environment?.host ?? '–'],
    ['CPU', (d) => d.environment?.cpu ?? '–'],
    ['Cores', (d) => String(d.environment?.cores ?? '–')],
    ['OS', (d) => d.environment?.os ?? '–'],
    ['Node.js', (d) => d.environment?.node ?? '–'],
    ['Cannonade', (d) => d.environment?.app ?? '–'],
    ['Started', (d) => fmtDate(d.run.startedAt)],
    ['Ended', (d) => fmtDate(d.run.endedAt)],
  ]
  const head = `<tr><th></th>${runs.map((d) => `<th>Run ${d.run.runId}</th>`).join('')}</tr>`
  const body = fields
    .map(([label, get]) => `<tr><th>${label}</th>${runs.map((d) => `<td>${esc(get(d))}</td>`).join('')}</tr>`)
    .join('')
  const targetRows: string[] = []
  const extras: string[] = []
  for (const d of runs) {
    const details = d.environment?.details ?? {}
    const listed = Array.isArray(details.targets) ? details.targets.filter(isRecord) : []
    const fromConfig = d.run.config.targets.map((t) => ({
      name: t.name,
      url: t.url,
      monitor: t.monitor ?? null,
    }))
    for (const t of listed.length ? listed : fromConfig) {
      const rec = t as Record<string, unknown>
      const name = describe(rec.name)
      const image = rec.image ?? rec.imageId ?? rec.version
      targetRows.push(`<tr><td>${d.run.runId}</td><td><b>${esc(name)}</b></td><td class="url">${esc(describe(rec.url))}</td>
<td>${esc(image === undefined ? '–' : describe(image))}</td><td>${esc(limitWords(rec, d, name))}</td><td>${esc(monitorWords(rec.monitor))}</td></tr>`)
    }
    for (const [k, v] of Object.entries(details)) {
      if (k !== 'targets') extras.push(`<li>Run ${d.run.runId}: ${esc(k)} ${esc(describe(v))}</li>`)
    }
  }
  return `<table class="kv env">${head}${body}</table>
<h3>Targets</h3>
<table class="figures"><tr><th>Run</th><th>Target</th><th>URL</th><th>Image / version</th><th>Limits</th><th>Monitor</th></tr>${targetRows.join('')}</table>
${extras.length ? `<ul class="extras">${extras.join('')}</ul>` : ''}`
}

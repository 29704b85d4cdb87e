// Descriptive sections of the report: where the runs ran (environment, target images and limits)
// and how each was configured (targets, load, profile in words, thresholds).
import { isAdaptive, maxRounds, roundsPlan, type RunConfig } from '../config/schema.ts'
import { orderWords, roundsSettingWords } from '../metrics/rounds-words.ts'
import { coresText, topWords } from '../metrics/noise.ts'
import type { MachineLoad } from '../api/types.ts'
import { formatMetricValue, protocolWords, thresholdLimit } from '../metrics/units.ts'
import type { ReportData, RunReportData } from './data.ts'
import { esc, fmtBytes, fmtDate, fmtInt, fmtSeconds } from './format.ts'

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
      const actual = t.actual === null ? 'no responses to measure' : formatMetricValue(t.metric, t.actual)
      return `${esc(t.target)} ${esc(t.metric)} ${esc(thresholdLimit(t))}: ${esc(actual)} <b class="${t.passed ? 'pass' : 'fail'}">${t.passed ? 'passed' : 'FAILED'}</b>`
    })
    .join('<br>')
}

/**
 * What a target sends, in words: `GET url`, or a scenario named by its steps in order
 * ("register POST /users → login POST /login → me GET /me") against its base URL; and over what
 * protocol (units.ts protocolWords: HTTP/1.1, h2 or h2c, its streams when more than one).
 */
export function targetWords(t: RunConfig['targets'][number]): string {
  const over = ` <span class="muted">·</span> ${esc(protocolWords(t))}`
  if (!t.steps?.length)
    return `<b>${esc(t.name)}</b> ${esc(t.method)} <span class="url">${esc(t.url)}</span>${over}`
  const steps = t.steps.map((s) => `${esc(s.name)} <span class="url">${esc(s.method)} ${esc(s.path)}</span>`)
  return `<b>${esc(t.name)}</b> scenario of ${t.steps.length} step${t.steps.length === 1 ? '' : 's'}: ${steps.join(' → ')} <span class="muted">on</span> <span class="url">${esc(t.url)}</span>${over}`
}

/** A target in plain words, as Review and the run page say it: "api: GET http://… · HTTP/1.1". */
export function targetLine(t: RunConfig['targets'][number]): string {
  const what = t.steps?.length
    ? `scenario of ${t.steps.length} step${t.steps.length === 1 ? '' : 's'} (${t.steps.map((s) => `${s.name} ${s.method} ${s.path}`).join(' → ')}) on ${t.url}`
    : `${t.method} ${t.url}`
  return `${t.name}: ${what} · ${protocolWords(t)}`
}

/** A config in plain words, row by row: the report's configuration table and the wizard's Review. */
export interface ConfigWords {
  targets: string[]
  connections: string
  window: string
  profile: string
  schedule: string
  connection: string
  rate: string
  /** The thresholds' limits with their units ("p99 ≤ 200 ms on every target"). */
  thresholds: string[]
}

/**
 * How targets and rounds follow each other. The order (randomized, interleaved or sequential) is
 * between targets: with one target there is none to speak of, only its rounds one after another.
 */
function scheduleWords(c: RunConfig): string {
  const plan = roundsPlan(c)
  const rounds = roundsSettingWords(plan)
  const segments = c.targets.length * plan.max
  const cooldown = segments > 1 ? `, ${fmtSeconds(c.cooldownSeconds)} cool-down between segments` : ''
  if (c.targets.length === 1) return `${rounds}${plan.max > 1 ? ', one after another' : ''}${cooldown}`
  const order =
    c.schedule === 'randomized'
      ? `randomized (each round in its own random order${c.scheduleSeed === undefined ? '' : `, seed ${c.scheduleSeed}`})`
      : c.schedule === 'interleaved'
        ? 'interleaved (A, B, A, B…)'
        : 'sequential (every round of A, then B)'
  return `${order}, ${rounds}${cooldown}`
}

export function configWords(c: RunConfig): ConfigWords {
  const load = c.load
  const segments = isAdaptive(c) ? 1 : c.targets.length * maxRounds(c)
  const window =
    load.duration !== undefined
      ? `${fmtSeconds(load.duration)} per target and round${segments > 1 ? `: ${segments} × ${fmtSeconds(load.duration)} of load, ${fmtSeconds((segments - 1) * c.cooldownSeconds)} of cool-downs` : ''}`
      : load.requests !== undefined
        ? `${fmtInt(load.requests)} requests per target and round`
        : 'set by the profile'
  return {
    targets: c.targets.map(targetLine),
    connections: String(load.connections),
    window,
    profile: profileWords(load),
    schedule: scheduleWords(c),
    connection: `keep-alive ${load.keepAlive ? 'on' : 'off'}, pipelining ${load.pipelining}, timeout ${fmtInt(load.timeoutMs)} ms`,
    rate:
      load.rate === null
        ? 'closed loop (as fast as answers come)'
        : `${load.rate} requests/s per target (open loop; latency corrected for coordinated omission)`,
    thresholds: c.thresholds.map(
      (t) => `${t.metric} ${thresholdLimit(t)} on ${t.target === '*' ? 'every target' : t.target}`,
    ),
  }
}

export function configurationTable(d: RunReportData): string {
  const w = configWords(d.run.config)
  const rows: [string, string][] = [
    ['Targets', d.run.config.targets.map(targetWords).join('<br>')],
    ['Connections', esc(w.connections)],
    ['Window', esc(w.window)],
    ['Load profile', esc(w.profile)],
    ['Schedule', esc(w.schedule)],
    ['Rounds', esc(`${d.run.rounds.stop}; ${orderWords(d.run.rounds)}`)],
    ['Connection', esc(w.connection)],
    ['Rate', esc(w.rate)],
    ['Thresholds', thresholdWords(d)],
  ]
  if (d.run.tags.length)
    rows.push(['Tags', d.run.tags.map((t) => `<span class="tag">${esc(t)}</span>`).join(' ')])
  if (d.run.note) rows.push(['Note', esc(d.run.note)])
  if (d.elsewhere)
    rows.push([
      'Raw requests',
      [
        `${fmtInt(d.elsewhere.requests)} requests of this run are not in the database this report was made from (its figures are whole: they came with the run): ${d.elsewhere.advice}`,
        ...d.elsewhere.where,
      ]
        .map(esc)
        .join('<br>'),
    ])
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

const ENV_RUNS_PER_TABLE = 4

/** How busy the machine was as the run started: load, CPU, what used it (the run's record). */
function machineAtStart(m: MachineLoad | null): string {
  if (!m) return 'not recorded'
  const load =
    m.loadAverage === null ? 'load unknown' : `load ${m.loadAverage.toFixed(1)} on ${m.cores} cores`
  const busy = m.busyPercent === null ? '' : `, ${coresText(m.busyPercent)} busy`
  const what = topWords(m.top)
  return `${load}${busy}${what ? ` (${what})` : ''}${m.busy ? ': busier than its cores' : ''}`
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
    ['Machine at start', (d) => machineAtStart(d.run.machine)],
    ['Rounds disturbed', (d) => d.run.rounds.noise ?? 'none'],
  ]
  // Four runs per table at most: a column per run, and A4 is only so wide.
  const envTables: string[] = []
  for (let i = 0; i < runs.length; i += ENV_RUNS_PER_TABLE) {
    const part = runs.slice(i, i + ENV_RUNS_PER_TABLE)
    const head = `<tr><th></th>${part.map((d) => `<th>Run ${d.run.runId}</th>`).join('')}</tr>`
    const body = fields
      .map(
        ([label, get]) => `<tr><th>${label}</th>${part.map((d) => `<td>${esc(get(d))}</td>`).join('')}</tr>`,
      )
      .join('')
    envTables.push(`<table class="kv env">${head}${body}</table>`)
  }
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
      if (k !== 'targets' && k !== 'machine')
        extras.push(`<li>Run ${d.run.runId}: ${esc(k)} ${esc(describe(v))}</li>`)
    }
  }
  return `${envTables.join('\n')}
<h3>Targets</h3>
<table class="figures"><tr><th>Run</th><th>Target</th><th>URL</th><th>Image / version</th><th>Limits</th><th>Monitor</th></tr>${targetRows.join('')}</table>
${extras.length ? `<ul class="extras">${extras.join('')}</ul>` : ''}`
}

// The run summary: the `--json` document (`cannonade run --json`, `runs show --json`, README.md)
// and the table `run` and `runs show` both print. Counts and rates are engine/metrics/figures.ts's,
// units engine/metrics/units.ts's, so the terminal shows what the app, the exports and the report
// show for the same run.
import { limitLines, steadyLines } from './findings.ts'
import type {
  Distribution,
  LatencyStats,
  RunSummary,
  ScheduleStats,
  StatsBlock,
  TargetOverRounds,
  TargetRoundSummary,
} from '../api/types.ts'
import type { RunConfig } from '../config/schema.ts'
import { figuresOf } from '../metrics/figures.ts'
import { errorsText, msText, serverTimingInvalidText, thresholdSentence } from '../metrics/units.ts'
import { skippedText } from '../metrics/skipped.ts'
import { formatTable } from './table.ts'
import { warningLine } from '../monitor/warnings.ts'
import { noiseJson, roundsLines } from './rounds.ts'

function latencyJson(l: LatencyStats) {
  return {
    mean: Math.round(l.mean),
    stddev: Math.round(l.stddev),
    p50: l.p50,
    p90: l.p90,
    p95: l.p95,
    p99: l.p99,
    'p99.9': l.p999,
    max: l.max,
  }
}

/**
 * One block's figures. `requests` has an outcome (answered or failed); `errors` are by kind,
 * without requests still in flight at the end (`inflight`, a count of its own); throughput is
 * responses per second; latencies are of answered requests, in µs.
 */
function blockJson(b: StatsBlock) {
  const f = figuresOf(b)
  return {
    seconds: Math.round(f.seconds * 1000) / 1000,
    sent: f.sent,
    requests: f.requests,
    answered: f.answered,
    ok: f.ok,
    failed: f.failed,
    errors: f.errors,
    // The `status` errors by the code they got.
    ...(Object.keys(f.unexpected).length ? { unexpected: f.unexpected } : {}),
    inflight: f.inflight,
    errorRate: f.errorRate,
    throughput: Math.round(f.throughput * 100) / 100,
    latency: latencyJson(b.latency),
    ...(b.corrected ? { correctedLatency: latencyJson(b.corrected) } : {}),
    // The target's own time from its Server-Timing header: application and database.
    ...(b.serverApp ? { serverApp: latencyJson(b.serverApp) } : {}),
    ...(b.serverDb ? { serverDb: latencyJson(b.serverDb) } : {}),
  }
}

/** A target over its rounds: its figure (engine/metrics/over-rounds.ts), as the "all" rows show it. */
function overRoundsJson(o: TargetOverRounds) {
  return { target: o.target, rounds: o.rounds, ...blockJson(o) }
}

/**
 * Latencies in microseconds; `targets` has one entry per target and round, `overRounds` one per
 * target over all its rounds (the figure the tables' "all" rows and the report's page 1 show).
 */
export function jsonSummary(s: RunSummary) {
  return {
    runId: s.runId,
    name: s.name,
    status: s.status,
    error: s.error,
    correlationPrefix: s.correlationPrefix,
    startedAt: s.startedAt,
    endedAt: s.endedAt,
    generator: s.generator,
    /** Load agents that made the run (1: one process); `distribution` breaks it down per agent. */
    agents: s.distribution?.agents ?? 1,
    ...(s.distribution ? { distribution: s.distribution } : {}),
    thresholdsPassed: s.thresholdsPassed,
    thresholds: s.thresholds,
    warnings: s.warnings,
    targets: s.results.map((r) => ({
      target: r.target,
      round: r.round,
      ...blockJson(r),
      // A warm-up phase is kept and said so: the target's figures above leave it out.
      phases: r.phases.map((p) => ({
        phase: p.phase,
        ...(p.warmup ? { warmup: true } : {}),
        ...blockJson(p),
      })),
      // Connections opened: TCP connect + TLS handshake, apart from request latency.
      ...(r.connect ? { connect: { count: r.connect.count, ...latencyJson(r.connect) } } : {}),
      ...(r.schedule
        ? {
            schedule: {
              scheduled: r.schedule.scheduled,
              sent: r.schedule.sent,
              unsent: r.schedule.unsent,
              late: r.schedule.late,
              lateness: latencyJson(r.schedule.lateness),
              peakConnections: r.schedule.peakConnections,
            },
          }
        : {}),
      ...(r.steps
        ? {
            steps: r.steps.map((st) => ({
              step: st.step,
              ...blockJson(st),
              // Passes in which the step was not sent, by the step that failed before it.
              ...(st.skipped ? { skipped: st.skipped } : {}),
            })),
          }
        : {}),
      // Server-Timing headers whose app or db duration was not one: kept out of serverApp/serverDb.
      serverTimingInvalid: r.serverTimingInvalid,
      // Its place in the order the run ran, and what shared the machine meanwhile.
      segment: r.segment ?? null,
      noise: noiseJson(r.noise),
      // load.warmup: auto: the warm-up found, and whether the window after it settled.
      ...(r.steady ? { steady: r.steady } : {}),
    })),
    // Each target over its rounds, with what limited it (engine/metrics/limiting.ts).
    overRounds: s.overRounds.map((o) => ({
      ...overRoundsJson(o),
      limitedBy: s.limitedBy.find((l) => l.target === o.target) ?? null,
    })),
    // How many rounds ran and why they stopped, their order, how busy the machine was as it started.
    rounds: s.rounds,
    machine: s.machine,
  }
}

const HEAD = [
  'TARGET',
  'ROUND',
  'TIME s',
  'REQUESTS',
  'REQ/S',
  'MEAN ms',
  'SD ms',
  'P50 ms',
  'P90 ms',
  'P95 ms',
  'P99 ms',
  'P99.9 ms',
  'MAX ms',
  'ERRORS',
  'IN FLIGHT',
]
const RIGHT = HEAD.map((_, i) => i).filter((i) => i >= 1)

function latencyCells(l: LatencyStats | null): string[] {
  if (!l || l.count === 0) return ['-', '-', '-', '-', '-', '-', '-', '-']
  return [l.mean, l.stddev, l.p50, l.p90, l.p95, l.p99, l.p999, l.max].map(msText)
}

function blockRow(name: string, round: string, b: StatsBlock): string[] {
  const f = figuresOf(b)
  return [
    name,
    round,
    f.seconds.toFixed(1),
    String(f.requests),
    f.throughput.toFixed(1),
    ...latencyCells(b.latency),
    String(f.failed),
    String(f.inflight),
  ]
}

/** Server-Timing durations under a target: how many responses carried one, then their latency. */
function timingRow(label: string, l: LatencyStats): string[] {
  return [label, '', '', String(l.count), '', ...latencyCells(l), '', '']
}

const ALL_ROUNDS_NOTE =
  'all: the target over its rounds: time, requests and errors summed, throughput the mean of the rounds, latency of every request of every round (their histograms merged)'

/** The rows under a target's round: phases, steps, corrected latency, Server-Timing. */
function subRows(r: TargetRoundSummary): string[][] {
  const rows: string[][] = []
  if (r.phases.length > 1)
    for (const p of r.phases)
      rows.push(blockRow(`  ↳ phase ${p.phase}${p.warmup ? ' (warm-up)' : ''}`, '', p))
  for (const st of r.steps ?? []) rows.push(blockRow(`  ↳ step ${st.step}`, '', st))
  // Rate mode: latency from each request's intended send time, beside latency from its send.
  if (r.corrected) rows.push(timingRow('  ↳ corrected (from intended send)', r.corrected))
  if (r.serverApp) rows.push(timingRow('  ↳ app time (Server-Timing)', r.serverApp))
  if (r.serverDb) rows.push(timingRow('  ↳ db time (Server-Timing)', r.serverDb))
  return rows
}

/**
 * One row per target and round; beneath it its phases (with each phase's own wall time; a
 * warm-up phase says so), its scenario steps, in rate mode its corrected latency, and the
 * application and database time the target reported (Server-Timing). With several rounds, an
 * "all" row per target: the target over its rounds. Then errors by kind, in words.
 */
export function resultsTable(
  results: readonly TargetRoundSummary[],
  over: readonly TargetOverRounds[] = [],
): string {
  const rows: string[][] = []
  const errorLines: string[] = []
  for (const r of results) {
    rows.push(blockRow(r.target, String(r.round), r), ...subRows(r))
    const f = figuresOf(r)
    if (f.failed > 0)
      errorLines.push(`errors ${r.target} #${r.round}: ${errorsText(f.errors, String, f.unexpected)}`)
    errorLines.push(...stepLines(r))
    const bad = r.serverTimingInvalid
    if (bad > 0) errorLines.push(`server-timing ${r.target} #${r.round}: ${serverTimingInvalidText(bad)}`)
  }
  const all = over.filter((o) => o.rounds > 1)
  for (const o of all) {
    rows.push(blockRow(o.target, 'all', o))
    if (o.corrected) rows.push(timingRow('  ↳ corrected (from intended send)', o.corrected))
  }
  const notes = [
    ...errorLines,
    ...(results.some((r) => (r.errors.inflight ?? 0) > 0)
      ? ['in flight: still waiting when the window closed (neither an error nor a latency)']
      : []),
    ...(results.some((r) => r.phases.some((p) => p.warmup))
      ? ["warm-up: a phase left out of its target's row, thresholds and comparisons"]
      : []),
    ...(all.length ? [ALL_ROUNDS_NOTE] : []),
  ]
  return formatTable(HEAD, rows, RIGHT) + notes.map((l) => `${l}\n`).join('')
}

/** A scenario's failures and skips per step: what failed, and what was not sent after it. */
function stepLines(r: TargetRoundSummary): string[] {
  const out: string[] = []
  for (const st of r.steps ?? []) {
    const f = figuresOf(st)
    const who = `step ${r.target} #${r.round} ${st.step}`
    if (f.failed > 0) out.push(`${who}: ${errorsText(f.errors, String, f.unexpected)}`)
    if (st.skipped) out.push(`${who}: ${skippedText(st.skipped)}`)
  }
  return out
}

/** One line per threshold, its limit and actual value in their units. */
export function thresholdLines(s: Pick<RunSummary, 'thresholds'>): string[] {
  return s.thresholds.map((t) => `threshold ${thresholdSentence(t)}`)
}

/** Targets whose URL is https: their connect time includes a TLS handshake. */
export function tlsTargets(
  config: { targets: readonly { name: string; url: string }[] } | undefined,
): Set<string> {
  return new Set((config?.targets ?? []).filter((t) => /^https:/i.test(t.url)).map((t) => t.name))
}

/**
 * Per target and round: connect times (not part of any latency above them; a TLS handshake only
 * for https) and, in rate mode, how the sends kept to the schedule. `runs show` prints the same.
 */
export function timingLines(
  results: readonly TargetRoundSummary[],
  tls: ReadonlySet<string> = new Set(),
): string[] {
  const out: string[] = []
  for (const r of results) {
    const who = `${r.target} #${r.round}`
    const c = r.connect
    if (c)
      out.push(
        `connect ${who}: ${c.count} connection${c.count === 1 ? '' : 's'} opened in p50 ${msText(c.p50)} / p99 ${msText(c.p99)} / max ${msText(c.max)} ms (${tls.has(r.target) ? 'TCP connect and TLS handshake' : 'TCP connect'}, not in latency)`,
      )
    const s = r.schedule
    if (s) out.push(`schedule ${who}: ${scheduleWords(s)}`)
  }
  return out
}

/** Rate mode's schedule in words: every count, the lateness percentiles, the peak connections. */
export function scheduleWords(s: ScheduleStats): string {
  const l = s.lateness
  return `${s.scheduled} scheduled, ${s.sent} sent, ${s.unsent} never sent${s.unsent ? ' (every connection busy)' : ''}, ${s.late} late > 1 ms, lateness p50 ${msText(l.p50)} / p90 ${msText(l.p90)} / p99 ${msText(l.p99)} / max ${msText(l.max)} ms, peak ${s.peakConnections} connections busy`
}

export function formatSummary(s: RunSummary & { config?: RunConfig }): string {
  const out = [
    `\nrun ${s.runId} "${s.name}": ${s.status}${s.error ? ` (${s.error})` : ''}`,
    resultsTable(s.results, s.overRounds).trimEnd(),
    ...timingLines(s.results, tlsTargets(s.config)),
    ...steadyLines(s),
    ...limitLines(s),
    ...thresholdLines(s),
  ]
  out.push(...roundsLines(s, s.config?.targets.length ?? new Set(s.results.map((r) => r.target)).size))
  if (s.distribution) out.push(...agentLines(s.distribution))
  if (s.generator.message) out.push(`warning: ${s.generator.message}`)
  out.push(...warningLines(s))
  return out.join('\n') + '\n'
}

/** The agents of a distributed run: each one's own figures, clock offset and start skew. */
export function agentLines(d: Distribution): string[] {
  const head = [
    'agent',
    'host',
    'state',
    'requests',
    'req/s',
    'errors',
    'p50',
    'p99 (ms)',
    'offset',
    'skew (ms)',
    'cpu %',
  ]
  const rows = d.perAgent.map((a) => {
    const skews = a.startSkewMs.filter((x): x is number => x !== null)
    const p = (k: 'p50' | 'p99') =>
      a.results.length === 1 ? msText(a.results[0]![k]) : a.results.length ? 'per round' : '-'
    return [
      String(a.index),
      a.host,
      a.state,
      String(a.requests),
      a.throughput.toFixed(1),
      String(a.errors),
      p('p50'),
      p('p99'),
      a.offsetMs === null ? '-' : `${a.offsetMs.toFixed(2)}±${(a.offsetErrorMs ?? 0).toFixed(2)}`,
      skews.length ? Math.max(...skews.map(Math.abs)).toFixed(2) : '-',
      a.generator.seconds ? a.generator.peakCpu.toFixed(0) : '-',
    ]
  })
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)))
  const line = (cells: string[]) =>
    cells.map((c, i) => (i < 3 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ')
  return [
    `${d.agents} agents (${d.on}, ${d.store} store): start skew ${d.skewMs.toFixed(2)} ms, largest clock offset ${d.maxOffsetMs.toFixed(2)} ms`,
    line(head),
    ...rows.map(line),
    ...d.warnings.map((w) => `warning: ${w}`),
  ]
}

/** The run's warnings (monitors that could not read their source), one `warning:` line each. */
export function warningLines(s: Pick<RunSummary, 'warnings'>): string[] {
  return s.warnings.map((w) => `warning: ${warningLine(w)}`)
}

// The run summary: the `--json` document (`cannonade run --json`, README.md) and the table printed
// after a run.
import {
  failedRequests,
  type Distribution,
  type LatencyStats,
  type RunSummary,
  type StatsBlock,
  type TargetRoundSummary,
} from '../api/types.ts'
import { warningLine } from '../monitor/warnings.ts'

function latencyJson(l: LatencyStats) {
  return {
    mean: Math.round(l.mean),
    p50: l.p50,
    p90: l.p90,
    p95: l.p95,
    p99: l.p99,
    'p99.9': l.p999,
    max: l.max,
  }
}

function blockJson(b: StatsBlock) {
  return {
    requests: b.requests,
    errors: b.errors,
    throughput: Math.round(b.throughput * 100) / 100,
    latency: latencyJson(b.latency),
    ...(b.corrected ? { correctedLatency: latencyJson(b.corrected) } : {}),
  }
}

/** Latencies in microseconds; one entry per target and round (rounds are never merged). */
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
    })),
  }
}

const ms = (us: number) => (us / 1000).toFixed(2)

/**
 * Per target and round: connect times (not part of any latency above them) and, in rate mode,
 * how the sends kept to the schedule. `runs show` prints the same lines.
 */
export function timingLines(results: readonly TargetRoundSummary[]): string[] {
  const out: string[] = []
  for (const r of results) {
    const who = `${r.target} #${r.round}`
    const c = r.connect
    if (c)
      out.push(
        `connect ${who}: ${c.count} connection${c.count === 1 ? '' : 's'} opened in p50 ${ms(c.p50)} / p99 ${ms(c.p99)} / max ${ms(c.max)} ms (TCP connect and TLS handshake, not in latency)`,
      )
    const s = r.schedule
    if (s)
      out.push(
        `schedule ${who}: ${s.sent} of ${s.scheduled} sent${s.unsent ? ` (${s.unsent} never sent: every connection busy)` : ''}, ${s.late} late > 1 ms, lateness p99 ${ms(s.lateness.p99)} / max ${ms(s.lateness.max)} ms, up to ${s.peakConnections} connections busy`,
      )
  }
  return out
}

export function formatSummary(s: RunSummary): string {
  const head = [
    'target',
    'round',
    'requests',
    'req/s',
    'errors',
    'mean',
    'p50',
    'p95',
    'p99',
    'p99.9',
    'max (ms)',
  ]
  const rows = s.results.map((r) => {
    const errors = failedRequests(r.errors)
    const l = r.latency
    return [
      r.target,
      String(r.round),
      String(r.requests),
      r.throughput.toFixed(1),
      String(errors),
      ms(l.mean),
      ms(l.p50),
      ms(l.p95),
      ms(l.p99),
      ms(l.p999),
      ms(l.max),
    ]
  })
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)))
  const line = (cells: string[]) =>
    cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ')
  const out = [
    `\nrun ${s.runId} "${s.name}": ${s.status}${s.error ? ` (${s.error})` : ''}`,
    line(head),
    ...rows.map(line),
    ...timingLines(s.results),
  ]
  for (const t of s.thresholds) {
    const limit = t.max !== undefined ? `≤ ${t.max}` : `≥ ${t.min}`
    out.push(
      `threshold ${t.metric} ${limit} on ${t.target}: ${t.passed ? 'passed' : 'FAILED'} (actual ${t.actual === null ? 'none' : Math.round(t.actual * 1000) / 1000})`,
    )
  }
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
      a.results.length === 1 ? ms(a.results[0]![k]) : a.results.length ? 'per round' : '-'
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

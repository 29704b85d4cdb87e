// The end of a run made by load agents: everything the agents reported is read again from the
// store and merged (series, segment summaries), so the stored run is a function of the agents'
// rows alone, late rows included. Then its distribution block (agents, clocks, start skew, their
// own figures), thresholds on the merged results, and exactly one end: done, partial (an agent
// lost or failed, named with when), aborted (stopped) or failed (the run could not start).
import {
  failedRequests,
  type AgentReport,
  type Distribution,
  type GeneratorHealth,
  type RunStatus,
  type TargetRoundSummary,
} from '../../api/types.ts'
import { compilePlan } from '../../config/compile.ts'
import type { RunConfig } from '../../config/schema.ts'
import { orderSegments, type Segment } from '../../config/segments.ts'
import { evaluateThresholds } from '../../metrics/thresholds.ts'
import { generatorBusyWords } from '../../metrics/units.ts'
import type { Db } from '../../db/db.ts'
import { LedgerWriter } from '../../store/ledger-writer.ts'
import { recordLedgerRows } from '../../store/retention.ts'
import { HistoryStore } from '../../store/history-store.ts'
import { finishRun, generatorHealth } from '../../store/runs.ts'
import type { Outcome } from '../coordination/coordinator.ts'
import { mergeSecond, mergeSegment } from './merge.ts'
import type { AgentSecondRow, AgentSegmentRow, CoordinatorStore } from '../coordination/protocol.ts'

/** Agents whose segment starts spread wider than this (ms) get a warning. */
export const SKEW_WARN_MS = 10
/** A clock offset known less precisely than this (ms, half the best round trip) gets a warning. */
export const OFFSET_WARN_MS = 10

export interface FinishInput {
  db: Db
  runId: number
  config: RunConfig
  agents: number
  store: CoordinatorStore
  outcome: Outcome
  launcher: string
  heartbeatMs: number
  lostAfterMs: number
  raw: 'keep' | 'upload'
}

export async function finishDistributed(
  i: FinishInput,
): Promise<{ status: Exclude<RunStatus, 'running'>; error: string | null }> {
  const { db, runId, config, store } = i
  const segments = orderSegments(config)
  const phases = compilePlan(config.load).phases
  const writer = new LedgerWriter(db, runId)
  const segRows = await store.allSegments()
  const perAgent = new Map<number, { seg: Segment; summary: TargetRoundSummary }[]>()
  const cpuFromSeconds = new Map<number, number[]>()
  for (const seg of segments) {
    const seconds = await store.allSeconds(seg.index)
    const byT = new Map<number, AgentSecondRow[]>()
    for (const r of seconds) {
      const list = byT.get(r.second.t) ?? []
      list.push(r)
      byT.set(r.second.t, list)
      if (r.second.generatorCpu !== null) {
        const cpu = cpuFromSeconds.get(r.index) ?? []
        cpu.push(r.second.generatorCpu)
        cpuFromSeconds.set(r.index, cpu)
      }
    }
    for (const rows of byT.values()) {
      rows.sort((a, b) => a.index - b.index)
      const m = mergeSecond(seg, phases, rows)
      writer.insertSeries(m.point, seg.targetIndex, m.phase, m.statusJson, rows.length)
    }
    const rows = segRows.filter((r) => r.segment.segment === seg.index)
    const done = new Set(rows.map((r) => r.index))
    // An agent lost inside the segment counts with the seconds it reported.
    const partial = seconds.filter((r) => !done.has(r.index))
    if (rows.length === 0 && partial.length === 0) continue
    const steps = config.targets[seg.targetIndex]?.steps?.map((s) => s.name) ?? []
    writer.writeSummary(seg.targetIndex, mergeSegment(seg, phases, steps, rows, partial))
    for (const index of new Set([...done, ...partial.map((r) => r.index)])) {
      const own: AgentSegmentRow[] = rows.filter((r) => r.index === index)
      const summary =
        own[0]?.summary ??
        mergeSegment(
          seg,
          phases,
          steps,
          [],
          partial.filter((r) => r.index === index),
        )
      const list = perAgent.get(index) ?? []
      list.push({ seg, summary })
      perAgent.set(index, list)
    }
  }
  recordLedgerRows(db, runId)

  const reports = agentReports(i, perAgent, cpuFromSeconds)
  const distribution = distributionBlock(i, reports)
  const { status, error } = endOf(i, reports)
  const results = new HistoryStore(db).getRun(runId).results
  finishRun(db, runId, status, {
    error,
    generator: combinedGenerator(reports),
    thresholds: evaluateThresholds(config.thresholds, results),
    distribution,
  })
  return { status, error }
}

function agentReports(
  i: FinishInput,
  perAgent: Map<number, { seg: Segment; summary: TargetRoundSummary }[]>,
  cpuFromSeconds: Map<number, number[]>,
): AgentReport[] {
  const { outcome } = i
  const t0 = outcome.t0StoreMs
  return Array.from({ length: i.agents }, (_, index): AgentReport => {
    const row = outcome.agents.find((a) => a.index === index)
    const lost = outcome.lost.get(index)
    const state: AgentReport['state'] =
      outcome.missing.includes(index) || !row ? 'missing' : lost ? 'lost' : (row.end?.state ?? 'lost')
    const error = lost
      ? lost.why
      : state === 'missing'
        ? (outcome.missingWhy.get(index) ?? (row ? 'joined but did not reach the barrier' : 'never joined'))
        : (row?.end?.error ?? null)
    const own = perAgent.get(index) ?? []
    const completed = own.reduce((a, x) => a + x.summary.latency.count, 0)
    const seconds = own.reduce((a, x) => a + x.summary.seconds, 0)
    return {
      index,
      host: row?.host ?? 'unknown',
      pid: row?.pid ?? null,
      state,
      error,
      offsetMs: row?.clock ? round2(row.clock.offsetMs) : null,
      offsetErrorMs: row?.clock ? round2(row.clock.delayMs / 2) : null,
      startSkewMs: outcome.releases.map((r) => {
        const at = row?.starts[r.segment]
        return at === undefined ? null : round2(at - r.atMs)
      }),
      lostAtSecond: lost && t0 !== null ? Math.floor((lost.atMs - t0) / 1000) : null,
      requests: own.reduce((a, x) => a + x.summary.requests, 0),
      errors: own.reduce((a, x) => a + failedRequests(x.summary.errors), 0),
      throughput: seconds > 0 ? round2(completed / seconds) : 0,
      results: own.map(({ seg, summary }) => ({
        target: seg.target,
        round: seg.round,
        requests: summary.requests,
        errors: failedRequests(summary.errors),
        throughput: round2(summary.throughput),
        p50: summary.latency.p50,
        p99: summary.latency.p99,
      })),
      generator: generatorHealth(row?.end?.generatorCpu ?? cpuFromSeconds.get(index) ?? []),
      ledger: {
        path: row ? `${row.host}:${row.ledger}` : '',
        // Lost before it said: its ledger holds at least what its seconds counted.
        rows: row?.end?.rows ?? (state === 'lost' ? own.reduce((a, x) => a + x.summary.requests, 0) : 0),
        uploaded: i.raw === 'upload' && (row?.end?.state === 'done' || row?.end?.state === 'stopped'),
      },
    }
  })
}

const round2 = (x: number) => Math.round(x * 100) / 100

function distributionBlock(i: FinishInput, reports: AgentReport[]): Distribution {
  const { outcome } = i
  const warnings: string[] = []
  let skewMs = 0
  for (const r of outcome.releases) {
    const starts = outcome.agents.map((a) => a.starts[r.segment]).filter((x): x is number => x !== undefined)
    if (starts.length < 2) continue
    const spread = Math.max(...starts) - Math.min(...starts)
    skewMs = Math.max(skewMs, spread)
    if (spread > SKEW_WARN_MS) {
      warnings.push(
        `the agents started segment ${r.segment}'s load up to ${spread.toFixed(1)} ms apart (more than ${SKEW_WARN_MS} ms; a busy machine woke one late): its seconds still line up with the others', but its first second carried less load`,
      )
    }
  }
  for (const a of reports) {
    if (a.offsetErrorMs !== null && a.offsetErrorMs > OFFSET_WARN_MS) {
      warnings.push(
        `agent ${a.index}'s clock offset is known only to ± ${a.offsetErrorMs} ms (slow round trips to the store): its starts may be that far off`,
      )
    }
    if (a.generator.saturated)
      warnings.push(`agent ${a.index}: ${a.generator.message ?? 'generator saturated'}`)
  }
  const offsets = reports.map((a) => Math.abs(a.offsetMs ?? 0))
  return {
    agents: i.agents,
    on: i.launcher,
    store: i.store.kind,
    skewMs: round2(skewMs),
    maxOffsetMs: round2(Math.max(0, ...offsets)),
    heartbeatMs: i.heartbeatMs,
    lostAfterMs: i.lostAfterMs,
    warnings,
    perAgent: reports,
  }
}

function endOf(
  i: FinishInput,
  reports: AgentReport[],
): { status: Exclude<RunStatus, 'running'>; error: string | null } {
  const describe = (a: AgentReport) => {
    const where = a.lostAtSecond !== null ? ` at run second ${a.lostAtSecond}` : ''
    return `agent ${a.index}${a.host !== 'unknown' ? ` (${a.host})` : ''} ${a.state}${where}${a.error ? `: ${a.error}` : ''}`
  }
  const missing = reports.filter((a) => a.state === 'missing')
  if (i.outcome.missing.length > 0) {
    return { status: 'failed', error: `the run did not start: ${missing.map(describe).join('; ')}` }
  }
  const short = reports.filter((a) => a.state === 'lost' || a.state === 'failed' || a.state === 'missing')
  const text = short.map(describe).join('; ')
  if (i.outcome.stopped) {
    return { status: 'aborted', error: `stopped before the end of its window${text ? `; ${text}` : ''}` }
  }
  if (i.outcome.releases.length === 0) {
    return { status: 'failed', error: `the run did not start${text ? `: ${text}` : ''}` }
  }
  if (short.length === reports.length) return { status: 'failed', error: text }
  if (short.length > 0)
    return { status: 'partial', error: `${short.length} of ${reports.length} agents did not finish: ${text}` }
  return { status: 'done', error: null }
}

/** The run's generator: each agent judged on its own, the run saturated if any agent was. */
function combinedGenerator(reports: AgentReport[]): GeneratorHealth {
  const saturated = reports.filter((a) => a.generator.saturated)
  return {
    saturatedSeconds: Math.max(0, ...reports.map((a) => a.generator.saturatedSeconds)),
    seconds: Math.max(0, ...reports.map((a) => a.generator.seconds)),
    saturated: saturated.length > 0,
    peakCpu: Math.max(0, ...reports.map((a) => a.generator.peakCpu)),
    message: saturated.length
      ? `${saturated
          .map((a) => `agent ${a.index} was ${generatorBusyWords(a.generator)}`)
          .join(
            '; ',
          )}: its numbers measure the generator, not the target. Use more agents, fewer connections per agent, or a faster machine.`
      : null,
  }
}

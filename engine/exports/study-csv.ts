// `cannonade export csv --study ID` and the study page's CSV: a whole study as one table, one row
// per swept value (or pair of values) and target, with what the studies plot against the value:
// throughput and latency (the study page's figures: rounds' throughput averaged, their histograms
// merged), errors, the target's app and database time (Server-Timing), and its own CPU, memory and
// database connections while it was measured (its monitors, warm-up seconds left out).
import type {
  ExportResult,
  LatencyStats,
  StudyResults,
  SweepValue,
  TargetRoundSummary,
} from '../api/types.ts'
import { failedRequests } from '../api/types.ts'
import { compilePlan } from '../config/compile.ts'
import { valueLabel } from '../config/sweep.ts'
import { latencyStats, mergeEncoded } from '../metrics/hdr.ts'
import type { Db } from '../db/db.ts'
import { HistoryStore } from '../store/history-store.ts'
import { targetSeconds, type TargetSecond } from '../store/resource-samples.ts'
import { readStudy } from '../store/studies.ts'
import { studyResults } from '../study/results.ts'
import { csvLine, LATENCY_US_COLUMNS, writeOutput } from './write.ts'

export const STUDY_CSV_HEADER = [
  'study_id',
  'study',
  'setting',
  'value',
  'by_setting',
  'by_value',
  'run_id',
  'run_status',
  'target',
  'rounds',
  'requests',
  'errors',
  'error_rate',
  'throughput',
  ...LATENCY_US_COLUMNS,
  'server_app_mean_us',
  'server_db_mean_us',
  'target_cpu_mean_percent',
  'target_cpu_max_percent',
  'target_memory_mean_bytes',
  'target_memory_max_bytes',
  'db_connections_max',
  'knee',
  // With the sweep's latency target (slo): its percentile met here, and the capacity under it.
  'slo_met',
  'capacity',
  // What limited the target in this run (engine/metrics/limiting.ts).
  'limited_by',
]

/** The rounds' Server-Timing means, weighted by how many responses carried one. */
function serverMean(rounds: readonly TargetRoundSummary[], key: 'serverApp' | 'serverDb'): number | null {
  let n = 0
  let sum = 0
  for (const r of rounds) {
    const l: LatencyStats | null = r[key]
    if (!l || l.count === 0) continue
    n += l.count
    sum += l.mean * l.count
  }
  return n > 0 ? Math.round(sum / n) : null
}

/** Mean and max over the seconds the target was measured, of one of its own figures. */
function over(
  seconds: readonly (TargetSecond | undefined)[],
  key: keyof TargetSecond,
): [number | null, number | null] {
  const xs = seconds.map((s) => s?.[key]).filter((v): v is number => typeof v === 'number')
  if (xs.length === 0) return [null, null]
  return [xs.reduce((a, b) => a + b, 0) / xs.length, Math.max(...xs)]
}

type Line = StudyResults['targets'][number]

/** The study's line a run's target is on: the target, at the run's value of a grid's second setting. */
function lineOf(results: StudyResults, target: string, point: readonly SweepValue[]): Line | undefined {
  return results.targets.find(
    (t) => t.target === target && (t.by === null || valueLabel(t.by.value) === valueLabel(point[1] ?? '')),
  )
}

/** slo_met and capacity: empty without a latency target. */
function sloCells(line: Line | undefined, runId: number): [string, string] {
  const point = line?.points.find((p) => p.runId === runId)
  if (!point?.slo) return ['', '']
  return [point.slo.met ? 'yes' : 'no', line?.capacity?.runId === runId ? 'yes' : '']
}

const round = (v: number | null, digits = 0): number | null =>
  v === null ? null : Math.round(v * 10 ** digits) / 10 ** digits

function* studyLines(db: Db, studyId: number, count: () => void): Generator<string> {
  yield csvLine(STUDY_CSV_HEADER)
  const study = readStudy(db, studyId)
  const results = studyResults(db, studyId)
  const [axis, by] = study.axes
  const history = new HistoryStore(db)
  const isKnee = (runId: number, target: string, point: SweepValue[]) => {
    const line = lineOf(results, target, point)
    return line?.points.some((p) => p.runId === runId && p.value === line.knee) ?? false
  }
  for (const run of study.runs) {
    const summary = history.getRun(run.runId)
    const plan = compilePlan(summary.config.load)
    const warmups = new Set(plan.phases.filter((_, i) => plan.warmup[i]))
    const series = history.series(run.runId)
    const own = targetSeconds(db, run.runId)
    for (const target of [...new Set(summary.results.map((r) => r.target))]) {
      const rounds = summary.results.filter((r) => r.target === target)
      const merged = mergeEncoded(rounds.map((r) => r.histogram).filter(Boolean))
      const lat = latencyStats(merged)
      merged.destroy()
      const requests = rounds.reduce((s, r) => s + r.requests, 0)
      const errors = rounds.reduce((s, r) => s + failedRequests(r.errors), 0)
      // The seconds this target was under measured load: its own CPU then, not while others ran.
      const measured = series.filter((p) => p.target === target && !warmups.has(p.phase)).map((p) => p.t)
      const seconds = measured.map((t) => own.get(target)?.get(t))
      const [cpuMean, cpuMax] = over(seconds, 'cpuPercent')
      const [memMean, memMax] = over(seconds, 'memoryBytes')
      const [, dbMax] = over(seconds, 'dbConnections')
      yield csvLine([
        studyId,
        study.name,
        axis?.path ?? study.path,
        valueLabel(run.point[0] ?? run.value),
        by?.path ?? null,
        by ? valueLabel(run.point[1] ?? '') : null,
        run.runId,
        summary.status,
        target,
        rounds.length,
        requests,
        errors,
        requests ? round(errors / requests, 6) : 0,
        round(rounds.reduce((s, r) => s + r.throughput, 0) / rounds.length, 2),
        round(lat.mean),
        lat.p50,
        lat.p90,
        lat.p95,
        lat.p99,
        lat.p999,
        lat.max,
        serverMean(rounds, 'serverApp'),
        serverMean(rounds, 'serverDb'),
        round(cpuMean, 1),
        round(cpuMax, 1),
        round(memMean),
        memMax,
        dbMax,
        isKnee(run.runId, target, run.point) ? 'yes' : '',
        ...sloCells(lineOf(results, target, run.point), run.runId),
        summary.limitedBy.find((l) => l.target === target)?.kind ?? null,
      ])
      count()
    }
  }
}

/** Write a study's rows to `outPath` as CSV; rows counts data lines. */
export async function exportStudyCsv(db: Db, studyId: number, outPath: string): Promise<ExportResult> {
  const study = readStudy(db, studyId)
  let rows = 0
  await writeOutput(
    outPath,
    studyLines(db, studyId, () => rows++),
    { dbPath: db.name },
  )
  return { runIds: study.runs.map((r) => r.runId), rows, path: outPath }
}

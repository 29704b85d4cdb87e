// `cannonade export csv`: a run's raw per-request samples, or its per-second series, as CSV for a
// spreadsheet or pandas. Streamed chunk by chunk from one snapshot of the database (a delete or
// prune meanwhile does not cut it short); names (target, phase, error kind) spelled out.
// As on every screen (engine/metrics/figures.ts): a request without a response has no latency (an
// empty cell, never 0 or -1); a second without a response has no latency percentiles; `responses`
// is the second's throughput, `requests` also counts errors without an answer, and `errors`
// leaves out `errors_inflight` (still waiting when the window closed: not an error).
//
// The series carries what studies plot against throughput, second by second: the target's own CPU
// and memory (its monitors), its database's connections, and its app and database time
// (Server-Timing) of the responses of that second. A target's row sums its instances (`instance`
// empty); a target with several instances (a process tree's processes, a replicated stack's
// containers) gets after it a row per instance and second: `instance` named, only its own CPU and
// memory filled, so they add up to the target's row.
import { ApiError } from '../api/errors.ts'
import { ERROR_KINDS, type ExportResult } from '../api/types.ts'
import { answeredInSecond } from '../metrics/figures.ts'
import { SEQ_DIGITS } from '../store/correlation.ts'
import type { Db } from '../db/db.ts'
import { HistoryStore } from '../store/history-store.ts'
import { ErrorCountsSchema, parseColumnOr, StatusCountsSchema } from '../store/schemas.ts'
import { errorKind, phaseName, targetName, type RunNames } from '../store/history-rows.ts'
import {
  chunks,
  finishedRun,
  S,
  sampleChunks,
  serverSeconds,
  TABLES,
  type ServerSecond,
} from '../store/export-read.ts'
import {
  instanceSeconds,
  metricSeconds,
  targetSeconds,
  type InstanceSecond,
  type TargetSecond,
} from '../store/resource-samples.ts'
import { missingSamples } from '../store/ledger-elsewhere.ts'
import { LEDGER, plainColumns } from '../ledger/derive.ts'
import { withSnapshot } from '../store/snapshot.ts'
import { csvField, csvLine, LATENCY_US_COLUMNS, writeOutput } from './write.ts'

export interface CsvOptions {
  kind?: 'samples' | 'series'
  /** Rows formatted so far, after each chunk (progress for a long export). */
  onRows?: (rows: number) => void
}

const ERROR_COLUMNS = ERROR_KINDS.filter((k) => k !== 'none')
const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'] as const

/** The request record's CSV headers (engine/ledger/record.ts), after the correlation id. */
export const SAMPLE_CSV_HEADER = LEDGER.csvHeader

export const SERIES_CSV_HEADER = [
  'target',
  'round',
  't',
  'phase',
  'connections',
  'requests',
  'responses',
  'errors',
  ...ERROR_COLUMNS.map((k) => `errors_${k}`),
  ...STATUS_CLASSES.map((c) => `status_${c}`),
  'bytes',
  ...LATENCY_US_COLUMNS,
  'generator_cpu',
  'target_cpu_percent',
  'target_memory_bytes',
  'db_connections',
  'db_active_connections',
  'server_app_mean_us',
  'server_db_mean_us',
  'instance',
]

/** The record's columns the sample line above does not format by name (none today). */
const PLAIN = plainColumns()

function* sampleLines(db: Db, runId: number, names: RunNames, count: (n: number) => void): Generator<string> {
  yield csvLine(SAMPLE_CSV_HEADER)
  // Names quoted once per run, not per row: this loop runs a million times (bench/history.ts).
  const targets = new Map([...names.targets].map(([i, n]) => [i, csvField(n)]))
  const phases = names.phases.map((p) => csvField(p))
  const prefix = `${names.prefix}-`
  // Scenario targets: the step's name, quoted once (samples store its index).
  const steps = new Map(names.steps.map(([i, list]) => [i, list.map((s) => csvField(s))]))
  for (const rows of sampleChunks(db, runId)) {
    let text = ''
    for (const r of rows) {
      const seq = Number(r[S.seq])
      const target = targets.get(Number(r[S.target])) ?? csvField(targetName(names, Number(r[S.target])))
      const phase = phases[Number(r[S.phase])] ?? csvField(phaseName(names, Number(r[S.phase])))
      const latency = Number(r[S.latency]) < 0 ? '' : r[S.latency]
      const corrected = r[S.corrected] === null || Number(r[S.corrected]) < 0 ? '' : r[S.corrected]
      text += `${prefix}${String(seq).padStart(SEQ_DIGITS, '0')},${seq},${target},${r[S.round]},${phase},${r[S.start]},${latency},${corrected},${r[S.status]},${r[S.bytes]},${errorKind(Number(r[S.error]))},${r[S.app] ?? ''},${r[S.db] ?? ''},${r[S.step] === null ? '' : (steps.get(Number(r[S.target]))?.[Number(r[S.step])] ?? r[S.step])}`
      // Columns of the record this line does not name: their values as stored, empty for null.
      for (const k of PLAIN) text += `,${r[k] ?? ''}`
      text += '\n'
    }
    count(rows.length)
    yield text
  }
}

const rounded = (v: number | null | undefined, digits = 0): number | null =>
  v === null || v === undefined ? null : Math.round(v * 10 ** digits) / 10 ** digits

/** A second's own figures of the target (its monitors, its Server-Timing); empty where unknown. */
function ownFigures(own: TargetSecond | undefined, timing: ServerSecond | undefined): (number | null)[] {
  return [
    rounded(own?.cpuPercent, 1),
    own?.memoryBytes ?? null,
    own?.dbConnections ?? null,
    own?.dbActive ?? null,
    rounded(timing?.appMean),
    rounded(timing?.dbMean),
  ]
}

/** A target's instances in one second: their own CPU and memory, nothing else of the row. */
function instanceLines(
  head: readonly (string | number)[],
  instances: readonly InstanceSecond[] | undefined,
  metrics: readonly null[],
): string {
  const blank = SERIES_CSV_HEADER.length - head.length - 7
  return (instances ?? [])
    .map((i) =>
      csvLine([
        ...head,
        ...Array<null>(blank).fill(null),
        rounded(i.cpuPercent, 1),
        i.memoryBytes,
        ...Array<null>(4).fill(null),
        i.instance,
        ...metrics,
      ]),
    )
    .join('')
}

function* seriesLines(db: Db, runId: number, names: RunNames, count: (n: number) => void): Generator<string> {
  // A monitor's named series (a Prometheus query's, a preset's heap_bytes…): a column each, after
  // the fixed ones, `metric_<name>`, the target's value in the second (its instances summed or
  // averaged as the series' unit says: engine/metrics/units.ts seriesAggregate).
  const metrics = metricSeconds(db, runId)
  const metricNames = [...new Set([...metrics.values()].flatMap((m) => [...m.keys()]))].sort()
  yield csvLine([...SERIES_CSV_HEADER, ...metricNames.map((m) => `metric_${m}`)])
  const blankMetrics = metricNames.map(() => null)
  const resources = targetSeconds(db, runId)
  const instances = instanceSeconds(db, runId)
  const server = serverSeconds(db, runId)
  for (const rows of chunks(db, TABLES.series, runId)) {
    let text = ''
    let lines = rows.length
    for (const row of rows) {
      const [target, round, t, phase, connections, requests, errors, errorsJson, statusJson, ...rest] =
        row.slice(0, TABLES.series.columns.length)
      const kinds = parseColumnOr(String(errorsJson), ErrorCountsSchema, {})
      const status: Record<string, number> = parseColumnOr(String(statusJson), StatusCountsSchema, {})
      const responses = answeredInSecond(status)
      // bytes, then the latency columns (stored 0 when nothing was answered), then generator_cpu.
      const [bytes, ...tail] = rest
      const cpu = tail.pop()
      const name = targetName(names, Number(target))
      const head = [name, Number(round), Number(t), phaseName(names, Number(phase))]
      text += csvLine([
        ...head,
        Number(connections),
        Number(requests),
        responses,
        Number(errors),
        ...ERROR_COLUMNS.map((k) => kinds[k as keyof typeof kinds] ?? 0),
        ...STATUS_CLASSES.map((c) => status[c] ?? 0),
        Number(bytes),
        ...tail.map((v) => (responses > 0 && v !== null ? Number(v) : null)),
        cpu === null || cpu === undefined ? null : Number(cpu),
        ...ownFigures(
          resources.get(name)?.get(Number(t)),
          server.get(`${Number(target)}:${Number(round)}:${Number(t)}`),
        ),
        '',
        ...metricNames.map((m) => metrics.get(name)?.get(m)?.get(Number(t)) ?? null),
      ])
      const own = instances.get(name)?.get(Number(t))
      text += instanceLines(head, own, blankMetrics)
      lines += own?.length ?? 0
    }
    count(lines)
    yield text
  }
}

/** Write a run's samples (default) or series to `outPath` as CSV; rows counts data lines. */
export async function exportCsv(
  db: Db,
  runId: number,
  opts: CsvOptions,
  outPath: string,
): Promise<ExportResult> {
  return withSnapshot(db, async (snap) => {
    finishedRun(snap, runId)
    // A samples file without the run's requests would read as a run without requests.
    const missing = opts.kind === 'series' ? null : missingSamples(snap, runId)
    if (missing) throw new ApiError('unavailable', `${missing.message}; nothing was written`)
    const names = new HistoryStore(snap).names(runId)
    let rows = 0
    const count = (n: number): void => {
      rows += n
      opts.onRows?.(rows)
    }
    const lines =
      opts.kind === 'series' ? seriesLines(snap, runId, names, count) : sampleLines(snap, runId, names, count)
    await writeOutput(outPath, lines, { dbPath: db.name })
    return { runIds: [runId], rows, path: outPath }
  })
}

// Writing the run rows the runner owns: creation before the worker starts, the end state after it
// stops, and summaries rebuilt from samples for a segment a killed runner did not finish.
import { randomBytes } from 'node:crypto'
import { redactConfig, redactText } from '../config/redact.ts'
import type { RunConfig } from '../config/schema.ts'
import { firstSegments } from '../config/segments.ts'
import { StatsAccumulator } from '../metrics/accumulate.ts'
import { encodeHistogram, initHdr } from '../metrics/hdr.ts'
import { generatorBusyWords } from '../metrics/units.ts'
import { ApiError } from '../api/errors.ts'
import type { Distribution, GeneratorHealth, RunStatus, ThresholdResult } from '../api/types.ts'
import { compilePlan } from '../config/compile.ts'
import type { Db } from '../db/db.ts'
import { configOrNull } from './history-rows.ts'
import { insertEnvironment, type EnvironmentInfo } from './environment.ts'
import { runIsLive, type ProcessRef } from './owner.ts'
import type { RunRow } from './history-rows.ts'
import { segmentValues } from '../ledger/samples-read.ts'
import { insertRoundRows } from './rounds.ts'

export const APP_VERSION = '0.1.0'

export function newCorrelationPrefix(): string {
  return randomBytes(4).toString('hex')
}

export interface CreateRunOptions {
  /** The process that supervises the run (the engine host): recorded so a crash is detected. */
  owner: ProcessRef
  /** Start even while another run is going on this database (both then say they shared it). */
  allowConcurrent?: boolean
  /** A load agent records under its run's prefix (engine/agents/); a run of its own gets a new one. */
  correlationPrefix?: string
}

/** Runs of this database that are going: 'running' and their process alive. */
export function liveRuns(db: Db): { id: number; name: string; owner_pid: number | null }[] {
  const rows = db.prepare("SELECT * FROM runs WHERE status = 'running' ORDER BY id").all() as RunRow[]
  return rows.filter(runIsLive).map((r) => ({ id: r.id, name: r.name, owner_pid: r.owner_pid }))
}

/**
 * The run row, one run_targets row per segment it starts with and its environment, in one transaction. The
 * environment is gathered by the caller beforehand (it asks docker, which must never happen while
 * a transaction holds the database). A password in a target URL is never stored (the runner got
 * the config itself). The database is the lock between runs: while another run is
 * going here (this process, another CLI, the app), a second one would share the load generator's
 * CPU and skew both, so it is refused unless `allowConcurrent`; then both runs record it.
 */
export function createRun(
  db: Db,
  config: RunConfig,
  phases: string[],
  environment: EnvironmentInfo,
  opts: CreateRunOptions,
): { runId: number; prefix: string; sharedWith: number[] } {
  const prefix = opts.correlationPrefix ?? newCorrelationPrefix()
  return db
    .transaction(() => {
      const live = liveRuns(db)
      if (live.length > 0 && !opts.allowConcurrent) {
        const names = live.map(
          (r) => `run ${r.id} "${r.name}"${r.owner_pid ? ` (process ${r.owner_pid})` : ''}`,
        )
        throw new ApiError(
          'conflict',
          `${names.join(', ')} is still going on this database: a second run at the same time would share the load generator and skew both. ` +
            'Wait for it to end, or start anyway with --allow-concurrent (allowConcurrent in the Api); both runs will then say they shared the generator.',
        )
      }
      const sharedWith = live.map((r) => r.id)
      const info = db
        .prepare(
          `INSERT INTO runs (name, status, config, correlation_prefix, started_at, tags, owner_pid, owner_start, shared_with)
         VALUES (?, 'running', ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          config.name,
          JSON.stringify({ ...redactConfig(config, 'stored'), phases }),
          prefix,
          new Date().toISOString(),
          JSON.stringify(config.tags),
          opts.owner.pid,
          opts.owner.start,
          sharedWith.length ? JSON.stringify(sharedWith) : null,
        )
      const runId = Number(info.lastInsertRowid)
      const share = db.prepare('SELECT shared_with FROM runs WHERE id = ?').pluck()
      const setShare = db.prepare('UPDATE runs SET shared_with = ? WHERE id = ?')
      for (const other of sharedWith) {
        const ids = sharedIds(share.get(other) as string | null)
        setShare.run(JSON.stringify([...ids, runId]), other)
      }
      // Every segment of a fixed number of rounds; rounds until precise add each round as it starts.
      insertRoundRows(db, runId, config, firstSegments(config))
      insertEnvironment(db, runId, {
        ...environment,
        details: redactText(JSON.stringify(environment.details)),
      })
      return { runId, prefix, sharedWith }
    })
    .immediate()
}

/** A run's runs.shared_with as stored (JSON of run ids, or null): for sharedHealth. */
export function runSharedWith(db: Db, runId: number): string | null {
  return (db.prepare('SELECT shared_with FROM runs WHERE id = ?').pluck().get(runId) as string | null) ?? null
}

/** The runs a run shared the generator with (runs.shared_with), tolerant of a broken column. */
export function sharedIds(text: string | null): number[] {
  if (!text) return []
  try {
    const v: unknown = JSON.parse(text)
    return Array.isArray(v) ? v.filter((x): x is number => Number.isInteger(x)) : []
  } catch {
    return []
  }
}

export function setWorkerPid(db: Db, runId: number, worker: ProcessRef): void {
  db.prepare('UPDATE runs SET worker_pid = ?, worker_start = ? WHERE id = ?').run(
    worker.pid,
    worker.start,
    runId,
  )
}

export function finishRun(
  db: Db,
  runId: number,
  status: Exclude<RunStatus, 'running'>,
  fields: {
    error?: string | null
    generator?: GeneratorHealth
    thresholds?: ThresholdResult[]
    /** A run of load agents: who they were, their clocks and their own totals. */
    distribution?: Distribution
    /** When it ended, if not now (a recovered run: its last stored second). */
    endedAt?: string
  },
): void {
  db.prepare(
    'UPDATE runs SET status = ?, ended_at = ?, error = ?, generator = ?, thresholds = ?, distribution = coalesce(?, distribution) WHERE id = ?',
  ).run(
    status,
    fields.endedAt ?? new Date().toISOString(),
    // Free text: an error (an agent's, say) may quote a URL with its password.
    fields.error ? redactText(fields.error) : null,
    fields.generator ? JSON.stringify(fields.generator) : null,
    fields.thresholds ? JSON.stringify(fields.thresholds) : null,
    fields.distribution ? redactText(JSON.stringify(fields.distribution)) : null,
    runId,
  )
}

/**
 * A segment the runner did not finish (it was killed, or the disk filled up) has requests but no
 * summary: compute it from what was stored (rows and blocks alike), so an aborted run still shows
 * what it measured. Read in one read transaction, written in a short one.
 */
export async function summarizeMissingSegments(db: Db, runId: number): Promise<number> {
  await initHdr()
  // Warm-up phases stay out of the figures here too, as the writer leaves them out.
  const stored = configOrNull(db.prepare('SELECT config FROM runs WHERE id = ?').pluck().get(runId) as string)
  const warmup = stored ? compilePlan(stored.config.load).warmup : []
  const computed = db.transaction(() => {
    const missing = db
      .prepare('SELECT target_index, round FROM run_targets WHERE run_id = ? AND summary IS NULL')
      .all(runId) as { target_index: number; round: number }[]
    const out: { target_index: number; round: number; summary: string; histogram: string }[] = []
    for (const m of missing) {
      const acc = new StatsAccumulator()
      let first = Infinity
      let last = -Infinity
      let n = 0
      for (const [start, lat, cor, status, bytes, err, app, dbUs, phase] of segmentValues(
        db,
        runId,
        m.target_index,
        m.round,
      )) {
        if (warmup[phase] === true) continue
        acc.add(lat, cor ?? -1, status, bytes, err, app ?? -1, dbUs ?? -1)
        n++
        first = Math.min(first, start)
        last = Math.max(last, start + Math.max(0, lat))
      }
      if (n > 0) {
        const block = acc.toBlock(Math.max(0.001, (last - first) / 1e6))
        out.push({
          target_index: m.target_index,
          round: m.round,
          summary: JSON.stringify({ ...block, phases: [] }),
          histogram: encodeHistogram(acc.latency),
        })
      }
      acc.destroy()
    }
    return out
  })()
  const write = db.prepare(
    'UPDATE run_targets SET summary = ?, histogram = ? WHERE run_id = ? AND target_index = ? AND round = ? AND summary IS NULL',
  )
  db.transaction(() => {
    for (const c of computed) write.run(c.summary, c.histogram, runId, c.target_index, c.round)
  })()
  return computed.length
}

/**
 * The generator's health from its seconds: CPU % each, and where measured the % it waited for a
 * CPU (runner/cpu.ts). A second counts as saturated when the load thread was above 90 % CPU, or
 * ready to run for more than 90 % of it: one that waits for a CPU other processes hold is as much
 * the limit as one that is busy, though its own CPU reads low.
 */
export function generatorHealth(cpu: readonly number[], wait: readonly number[] = []): GeneratorHealth {
  let saturatedSeconds = 0
  let waitedSeconds = 0
  cpu.forEach((c, i) => {
    if (c > 90) saturatedSeconds++
    else if (c + (wait[i] ?? 0) > 90) {
      saturatedSeconds++
      waitedSeconds++
    }
  })
  const seconds = cpu.length
  const saturated = seconds > 0 && saturatedSeconds / seconds > 0.1
  const health = { saturatedSeconds, seconds, ...(waitedSeconds ? { waitedSeconds } : {}) }
  const remedy = waitedSeconds
    ? 'Stop what else runs on this machine, or run the generator on one of its own.'
    : 'Use fewer connections, a rate, or a faster machine for the generator.'
  return {
    ...health,
    saturated,
    peakCpu: cpu.length ? Math.max(...cpu) : 0,
    shared: false,
    sharedWith: [],
    message: saturated
      ? `The load generator was ${generatorBusyWords(health)}: these numbers measure the generator, not the target. ${remedy}`
      : null,
  }
}

/** The generator health of a run that ran alongside others (runs.shared_with), saying so. */
export function sharedHealth(health: GeneratorHealth, sharedWith: string | null): GeneratorHealth {
  const ids = sharedIds(sharedWith)
  if (ids.length === 0) return health
  const list = ids.map((id) => `#${id}`).join(', ')
  const warning = `This run shared the load generator with run${ids.length > 1 ? 's' : ''} ${list}, started at the same time on this machine (allowed explicitly): both measured each other's load too, so compare its figures with care.`
  return {
    ...health,
    shared: true,
    sharedWith: ids,
    message: health.message ? `${warning} ${health.message}` : warning,
  }
}

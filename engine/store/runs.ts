// Writing the run rows the runner owns: creation before the worker starts, the end state after it
// stops, and summaries rebuilt from samples for a segment a killed runner did not finish.
import { randomBytes } from 'node:crypto'
import { redactConfig, redactText, redactUrl } from '../config/redact.ts'
import type { RunConfig } from '../config/schema.ts'
import { orderSegments } from '../config/segments.ts'
import { StatsAccumulator } from '../metrics/accumulate.ts'
import { encodeHistogram, initHdr } from '../metrics/hdr.ts'
import type { GeneratorHealth, RunStatus, ThresholdResult } from '../api/types.ts'
import type { Db } from './db.ts'
import { insertEnvironment, type EnvironmentInfo } from './environment.ts'

export const APP_VERSION = '0.1.0'

export function newCorrelationPrefix(): string {
  return randomBytes(4).toString('hex')
}

/**
 * The run row, one run_targets row per segment and its environment, in one transaction. The
 * environment is gathered by the caller beforehand (it asks docker, which must never happen while
 * a transaction holds the database). A password in a target URL is never stored (the runner got
 * the config itself).
 */
export function createRun(
  db: Db,
  config: RunConfig,
  phases: string[],
  environment: EnvironmentInfo,
): { runId: number; prefix: string } {
  const prefix = newCorrelationPrefix()
  return db.transaction(() => {
    const info = db
      .prepare(
        `INSERT INTO runs (name, status, config, correlation_prefix, started_at, tags) VALUES (?, 'running', ?, ?, ?, ?)`,
      )
      .run(
        config.name,
        JSON.stringify({ ...redactConfig(config, 'stored'), phases }),
        prefix,
        new Date().toISOString(),
        JSON.stringify(config.tags),
      )
    const runId = Number(info.lastInsertRowid)
    const insertTarget = db.prepare(
      'INSERT INTO run_targets (run_id, target_index, round, target, url) VALUES (?, ?, ?, ?, ?)',
    )
    for (const seg of orderSegments(config)) {
      insertTarget.run(
        runId,
        seg.targetIndex,
        seg.round,
        seg.target,
        redactUrl(config.targets[seg.targetIndex]!.url),
      )
    }
    insertEnvironment(db, runId, { ...environment, details: redactText(JSON.stringify(environment.details)) })
    return { runId, prefix }
  })()
}

export function setWorkerPid(db: Db, runId: number, pid: number): void {
  db.prepare('UPDATE runs SET worker_pid = ? WHERE id = ?').run(pid, runId)
}

export function finishRun(
  db: Db,
  runId: number,
  status: Exclude<RunStatus, 'running'>,
  fields: { error?: string | null; generator?: GeneratorHealth; thresholds?: ThresholdResult[] },
): void {
  db.prepare(
    'UPDATE runs SET status = ?, ended_at = ?, error = ?, generator = ?, thresholds = ? WHERE id = ?',
  ).run(
    status,
    new Date().toISOString(),
    fields.error ?? null,
    fields.generator ? JSON.stringify(fields.generator) : null,
    fields.thresholds ? JSON.stringify(fields.thresholds) : null,
    runId,
  )
}

/**
 * A segment the runner did not finish (it was killed) has samples but no summary: compute it from
 * the samples, so an aborted run still shows what it measured.
 */
export async function summarizeMissingSegments(db: Db, runId: number): Promise<number> {
  await initHdr()
  const missing = db
    .prepare('SELECT target_index, round, target FROM run_targets WHERE run_id = ? AND summary IS NULL')
    .all(runId) as { target_index: number; round: number; target: string }[]
  let fixed = 0
  for (const m of missing) {
    const acc = new StatsAccumulator()
    let first = Infinity
    let last = -Infinity
    const rows = db
      .prepare(
        'SELECT start_us, latency_us, corrected_us, status, bytes, error, app_us, db_us FROM samples WHERE run_id = ? AND target_index = ? AND round = ?',
      )
      .raw()
      .iterate(runId, m.target_index, m.round) as IterableIterator<(number | null)[]>
    for (const [start, lat, cor, status, bytes, err, app, dbUs] of rows) {
      acc.add(lat ?? -1, cor ?? -1, status ?? 0, bytes ?? 0, err ?? 0, app ?? -1, dbUs ?? -1)
      first = Math.min(first, start ?? 0)
      last = Math.max(last, (start ?? 0) + Math.max(0, lat ?? 0))
    }
    if (acc.requests === 0 && acc.latency.totalCount === 0) {
      acc.destroy()
      continue
    }
    const block = acc.toBlock(Math.max(0.001, (last - first) / 1e6))
    db.prepare(
      'UPDATE run_targets SET summary = ?, histogram = ? WHERE run_id = ? AND target_index = ? AND round = ?',
    ).run(
      JSON.stringify({ ...block, phases: [] }),
      encodeHistogram(acc.latency),
      runId,
      m.target_index,
      m.round,
    )
    acc.destroy()
    fixed++
  }
  return fixed
}

export function generatorHealth(cpu: readonly number[]): GeneratorHealth {
  const saturatedSeconds = cpu.filter((c) => c > 90).length
  const seconds = cpu.length
  const saturated = seconds > 0 && saturatedSeconds / seconds > 0.1
  return {
    saturatedSeconds,
    seconds,
    saturated,
    peakCpu: cpu.length ? Math.max(...cpu) : 0,
    message: saturated
      ? `The load generator was above 90 % CPU in ${saturatedSeconds} of ${seconds} seconds: these numbers measure the generator, not the target. Use fewer connections, a rate, or a faster machine for the generator.`
      : null,
  }
}

// The run history over the local database: what the `runs` part of the Api and `cannonade runs`
// read and change. Everything is synchronous (better-sqlite3); transports wrap it in promises.
import { z } from 'zod'
import { ApiError } from '../api/errors.ts'
import { RunListQuerySchema, SampleQuerySchema } from '../api/schemas.ts'
import {
  ERROR_KINDS,
  type GeneratorHealth,
  type MachineLoad,
  type ResourcePoint,
  type RunListItem,
  type RunSummary,
  type SampleRow,
  type SeriesPoint,
  type TargetRoundSummary,
} from '../api/types.ts'
import { issueMessage } from '../config/issue-words.ts'
import type { RunConfig } from '../config/schema.ts'
import type { RunRounds } from '../metrics/compare.ts'
import { overRounds } from '../metrics/over-rounds.ts'
import { parseCorrelationId } from './correlation.ts'
import type { Db } from '../db/db.ts'
import { downsampleSeries } from './downsample.ts'
import { readEnvironment, type EnvironmentInfo } from './environment.ts'
import { sweepOf } from './studies.ts'
import { listRuns } from './run-list.ts'
import { runIsLive } from './owner.ts'
import { hasBlocks, MAX_PENDING_WINDOW, pendingSamplesPage } from '../ledger/samples-read.ts'
import { runWarnings } from './warnings.ts'
import { runLimits } from './limiting.ts'
import { resourceLimits, resourcePoints, type TargetLimits } from './resource-samples.ts'
import {
  configOrNull,
  readConfig,
  toSampleRow,
  toSeriesPoint,
  type RunNames,
  type RunRow,
  type RunTargetRow,
  type SampleDbRow,
  type SeriesRow,
} from './history-rows.ts'
import { MachineLoadSchema, RoundNoiseSchema } from './rounds-schemas.ts'
import { roundsOutcome, roundsStop } from './rounds.ts'
import {
  DistributionSchema,
  GeneratorHealthSchema,
  parseColumn,
  parseColumnOr,
  TagsSchema,
  TargetSummarySchema,
  ThresholdResultsSchema,
} from './schemas.ts'

export type RunDetail = RunSummary & { config: RunConfig }
export type RunListQuery = z.input<typeof RunListQuerySchema>
export type SampleQuery = z.input<typeof SampleQuerySchema>

const NO_GENERATOR: GeneratorHealth = {
  saturatedSeconds: 0,
  seconds: 0,
  saturated: false,
  peakCpu: 0,
  shared: false,
  sharedWith: [],
  message: null,
}

/** Parse a query with its schema; a bad one is the caller's input error, naming the field. */
function parseQuery<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const result = schema.safeParse(value ?? {})
  if (result.success) return result.data
  const issue = result.error.issues[0]
  const field = issue?.path.map(String).join('.') ?? ''
  throw new ApiError(
    'bad-input',
    `${what}: ${field || '(query)'} ${issue ? issueMessage(issue) : 'is invalid'}`,
    field,
  )
}

/** How busy the machine was as the run started, from its environment (runs before 015 have none). */
function machineOf(env: EnvironmentInfo | null): MachineLoad | null {
  const parsed = MachineLoadSchema.safeParse(env?.details.machine)
  return parsed.success ? parsed.data : null
}

export class HistoryStore {
  readonly db: Db

  constructor(db: Db) {
    this.db = db
  }

  listRuns(query?: RunListQuery): { items: RunListItem[]; total: number } {
    return listRuns(this.db, parseQuery(RunListQuerySchema, query, 'runs list'))
  }

  /** The run row; ApiError('not-found') when there is none. */
  runRow(runId: number): RunRow {
    const row = this.db.prepare('SELECT * FROM runs WHERE id = ?').get(runId) as RunRow | undefined
    if (!row) throw new ApiError('not-found', `run ${runId} does not exist`)
    return row
  }

  getRun(runId: number): RunDetail {
    const row = this.runRow(runId)
    const where = `run ${runId}`
    parseColumn(where, 'runs.config', row.config, z.unknown())
    let config: RunConfig
    try {
      config = readConfig(row.config).config
    } catch (err) {
      throw new ApiError(
        'internal',
        `${where}: column runs.config is not a valid run config (${(err as Error).message})`,
      )
    }
    const thresholds =
      row.thresholds === null
        ? []
        : parseColumn(where, 'runs.thresholds', row.thresholds, ThresholdResultsSchema)
    const tags = parseColumn(where, 'runs.tags', row.tags, TagsSchema)
    const results = this.results(runId)
    return {
      rounds: roundsOutcome(config, results, roundsStop(this.db, runId), row.status),
      machine: machineOf(this.environment(runId)),
      runId: row.id,
      correlationPrefix: row.correlation_prefix,
      name: row.name,
      status: row.status,
      error: row.error,
      startedAt: row.started_at,
      endedAt: row.ended_at,
      tags,
      note: row.note,
      results,
      overRounds: overRounds(results),
      thresholds,
      thresholdsPassed: thresholds.every((t) => t.passed),
      generator:
        row.generator === null
          ? NO_GENERATOR
          : parseColumn(where, 'runs.generator', row.generator, GeneratorHealthSchema),
      distribution:
        row.distribution === null || row.distribution === undefined
          ? null
          : parseColumn(where, 'runs.distribution', row.distribution, DistributionSchema),
      warnings: runWarnings(this.db, runId),
      limitedBy: runLimits(this.db, runId, config, results),
      config,
    }
  }

  /** Finished (target, round) results; rows whose summary is not written yet (running) are left out. */
  private results(runId: number): TargetRoundSummary[] {
    return this.resultRows(runId).map((r) => r.result)
  }

  private resultRows(runId: number): { targetIndex: number; result: TargetRoundSummary }[] {
    const rows = this.db
      .prepare(
        'SELECT * FROM run_targets WHERE run_id = ? AND summary IS NOT NULL ORDER BY round, target_index',
      )
      .all(runId) as RunTargetRow[]
    return rows.map((r) => {
      const where = `run ${runId} (target ${r.target}, round ${r.round})`
      const summary = parseColumn(where, 'run_targets.summary', r.summary ?? 'null', TargetSummarySchema)
      const result = {
        ...summary,
        target: r.target,
        round: r.round,
        histogram: r.histogram ?? '',
        correctedHistogram: r.corrected_histogram,
        noise: parseColumnOr(r.noise ?? null, RoundNoiseSchema, null),
        segment: r.segment ?? null,
      }
      return { targetIndex: r.target_index, result }
    })
  }

  /**
   * Per run (duplicates dropped, order kept): its status, config, environment, generator health,
   * the study it is a value of, and per target its finished rounds' statistics: what a comparison
   * (metrics/compare.ts) works on. ApiError('not-found') names a missing run.
   */
  compareRounds(runIds: readonly number[]): RunRounds[] {
    return [...new Set(runIds)].map((runId) => {
      const run = this.runRow(runId)
      const byTarget = new Map<number, RunRounds['targets'][number]>()
      const rows = this.resultRows(runId)
      for (const { targetIndex, result } of rows) {
        const entry = byTarget.get(targetIndex) ?? { target: result.target, rounds: [] }
        entry.rounds.push(result)
        byTarget.set(targetIndex, entry)
      }
      const config = configOrNull(run.config)?.config ?? null
      const limits = config
        ? runLimits(
            this.db,
            runId,
            config,
            rows.map((r) => r.result),
          )
        : []
      const targets = [...byTarget]
        .sort(([a], [b]) => a - b)
        .map(([, t]) => ({ ...t, limitedBy: limits.find((l) => l.target === t.target) ?? null }))
      const where = `run ${runId}`
      const generator =
        run.generator === null
          ? null
          : parseColumn(where, 'runs.generator', run.generator, GeneratorHealthSchema)
      const results = rows.map((r) => r.result)
      return {
        runId,
        status: run.status,
        config,
        rounds: config ? roundsOutcome(config, results, roundsStop(this.db, runId), run.status) : null,
        environment: this.environment(runId),
        generator,
        sweep: sweepOf(this.db, runId),
        targets,
      }
    })
  }

  /** Integer ↔ name mapping of targets and phases, for series and sample rows. */
  names(runId: number): RunNames {
    const run = this.runRow(runId)
    const stored = configOrNull(run.config)
    const targets = new Map<number, string>()
    stored?.config.targets.forEach((t, i) => targets.set(i, t.name))
    const rows = this.db
      .prepare('SELECT DISTINCT target_index, target FROM run_targets WHERE run_id = ?')
      .all(runId) as {
      target_index: number
      target: string
    }[]
    for (const r of rows) targets.set(r.target_index, r.target)
    const steps: [number, string[]][] = []
    stored?.config.targets.forEach((t, i) => {
      if (t.steps) steps.push([i, t.steps.map((s) => s.name)])
    })
    return { prefix: run.correlation_prefix, targets, phases: stored?.phases ?? [], steps }
  }

  private targetIndex(runId: number, target: string, names = this.names(runId)): number {
    for (const [index, name] of names.targets) if (name === target) return index
    throw new ApiError('bad-input', `target "${target}" is not part of run ${runId}`, 'target')
  }

  series(runId: number, opts: { maxPoints?: number } = {}): SeriesPoint[] {
    const names = this.names(runId)
    const rows = this.db
      .prepare('SELECT * FROM series WHERE run_id = ? ORDER BY target_index, round, t')
      .all(runId) as SeriesRow[]
    const points = rows.map((r) => toSeriesPoint(r, names))
    return opts.maxPoints === undefined ? points : downsampleSeries(points, opts.maxPoints)
  }

  resources(runId: number): ResourcePoint[] {
    this.runRow(runId)
    return resourcePoints(this.db, runId)
  }

  /** Where the run was measured (host, versions, the targets' images and limits); null if unrecorded. */
  environment(runId: number): EnvironmentInfo | null {
    return readEnvironment(this.db, runId)
  }

  /** Each monitored target's CPU and memory limits, as its monitor saw them. */
  limits(runId: number): TargetLimits[] {
    return resourceLimits(this.db, runId)
  }

  /**
   * Raw samples, paged. `correlationId` finds one request through the (run_id, seq) index; the
   * other filters scan the run's samples (no extra index on samples: it would slow the runner's
   * inserts, 001_initial.sql), which takes well under a second for a million rows.
   */
  samples(runId: number, query?: SampleQuery): { rows: SampleRow[]; total: number } {
    const q = parseQuery(SampleQuerySchema, query, 'runs samples')
    const names = this.names(runId)
    const where = ['run_id = @runId']
    const params: Record<string, number> = { runId, limit: q.limit, offset: q.offset }
    if (q.correlationId !== undefined) {
      const id = parseCorrelationId(q.correlationId)
      if (!id) {
        throw new ApiError(
          'bad-input',
          `correlationId "${q.correlationId}" is not a correlation id (<prefix>-<number>)`,
          'correlationId',
        )
      }
      if (id.prefix !== names.prefix) return { rows: [], total: 0 }
      where.push('seq = @seq')
      params.seq = id.seq
    }
    if (q.target !== undefined) {
      where.push('target_index = @target')
      params.target = this.targetIndex(runId, q.target, names)
    }
    // Failed requests: in flight at the end is not a failure (engine/metrics/figures.ts).
    if (q.errorsOnly) where.push(`error NOT IN (0, ${ERROR_KINDS.indexOf('inflight')})`)
    // A run that ended moments ago may still have requests in blocks (ledger/expander.ts).
    if (hasBlocks(this.db, runId)) {
      const page = pendingSamplesPage(this.db, runId, {
        ...(params.seq !== undefined ? { seq: params.seq } : {}),
        ...(params.target !== undefined ? { targetIndex: params.target } : {}),
        errorsOnly: q.errorsOnly,
        order: q.order,
        limit: q.limit,
        offset: q.offset,
      })
      if (!page)
        throw new ApiError(
          'unavailable',
          `run ${runId}'s samples are still being stored; pages past the first ${MAX_PENDING_WINDOW.toLocaleString('en-US')} rows are available once they are (in a minute or so)`,
          'offset',
        )
      return { rows: page.rows.map((r) => toSampleRow(r, names)), total: page.total }
    }
    const clause = where.join(' AND ')
    const order = q.order === 'slowest' ? 'latency_us DESC, seq' : 'seq'
    // One read transaction: count and page agree even while another process writes.
    return this.db.transaction(() => {
      const total = (
        this.db.prepare(`SELECT count(*) AS n FROM samples WHERE ${clause}`).get(params) as { n: number }
      ).n
      const rows = this.db
        .prepare(`SELECT * FROM samples WHERE ${clause} ORDER BY ${order} LIMIT @limit OFFSET @offset`)
        .all(params) as SampleDbRow[]
      return { rows: rows.map((r) => toSampleRow(r, names)), total }
    })()
  }

  /** Delete a run and everything it owns. Samples have no foreign key: they go explicitly, in the same transaction. */
  deleteRun(runId: number): void {
    // A 'running' row whose processes are gone (a crash, a reboot) is stale and may go.
    this.db
      .transaction(() => {
        const run = this.runRow(runId)
        if (run.status === 'running' && runIsLive(run)) {
          throw new ApiError('conflict', `run ${runId} is still running; stop it before deleting it`)
        }
        this.db.prepare('DELETE FROM samples WHERE run_id = ?').run(runId)
        this.db.prepare('DELETE FROM sample_blocks WHERE run_id = ?').run(runId)
        for (const table of ['series', 'run_targets', 'resource_samples', 'environment', 'imports']) {
          this.db.prepare(`DELETE FROM ${table} WHERE run_id = ?`).run(runId)
        }
        this.db.prepare('DELETE FROM runs WHERE id = ?').run(runId)
      })
      .immediate()
  }

  /** Replace a run's tags (trimmed, duplicates dropped, order kept). */
  tag(runId: number, tags: readonly string[]): string[] {
    this.runRow(runId)
    const clean = [...new Set(tags.map((t) => t.trim()).filter((t) => t.length > 0))]
    this.db.prepare('UPDATE runs SET tags = ? WHERE id = ?').run(JSON.stringify(clean), runId)
    return clean
  }

  note(runId: number, note: string): void {
    this.runRow(runId)
    this.db.prepare('UPDATE runs SET note = ? WHERE id = ?').run(note, runId)
  }
}

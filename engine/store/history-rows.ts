// Raw rows of the history tables and their mapping to the shapes of engine/api/types.ts.
import { compilePlan } from '../config/compile.ts'
import { parseStoredConfig } from '../config/load.ts'
import { redactConfig } from '../config/redact.ts'
import type { RunConfig } from '../config/schema.ts'
import { ERROR_KINDS, type RunStatus, type SampleRow, type SeriesPoint } from '../api/types.ts'
import { formatCorrelationId } from './correlation.ts'
import type { SampleDbRow } from '../ledger/derive.ts'
import { answeredInSecond } from '../metrics/figures.ts'
import { ErrorCountsSchema, parseColumnOr, StatusCountsSchema } from './schemas.ts'

export interface RunRow {
  id: number
  name: string
  status: RunStatus
  config: string
  correlation_prefix: string
  started_at: string
  ended_at: string | null
  error: string | null
  tags: string
  note: string
  generator: string | null
  thresholds: string | null
  worker_pid: number | null
  worker_start: string | null
  owner_pid: number | null
  owner_start: string | null
  shared_with: string | null
  ledger_pruned_at: string | null
  /** Distribution JSON: the load agents of a run made by several (010_agents.sql). */
  distribution: string | null
  /** How its rounds ended, StoredStop JSON (015_rounds_noise.sql). */
  rounds?: string | null
}

export interface RunTargetRow {
  run_id: number
  target_index: number
  round: number
  target: string
  url: string
  summary: string | null
  histogram: string | null
  corrected_histogram: string | null
  /** The segment's place in the run, and its RoundNoise JSON (015_rounds_noise.sql). */
  segment?: number | null
  noise?: string | null
}

export interface SeriesRow {
  target_index: number
  round: number
  t: number
  phase: number
  connections: number
  requests: number
  errors: number
  errors_json: string
  status_json: string
  bytes: number
  mean: number
  p50: number
  p90: number
  p95: number
  p99: number
  p999: number
  max: number
  generator_cpu: number | null
  /** How many load agents reported this second (NULL: a run of one process). */
  agents: number | null
}

export type { SampleDbRow }

/** Names for the integer target and phase columns of one run, with fallbacks for broken rows. */
export interface RunNames {
  prefix: string
  targets: Map<number, string>
  phases: string[]
  /** Scenario targets' step names, by target index. */
  steps: [number, string[]][]
}

export function targetName(names: RunNames, index: number): string {
  return names.targets.get(index) ?? `target ${index}`
}

export function phaseName(names: RunNames, index: number): string {
  return names.phases[index] ?? `phase ${index}`
}

export interface StoredConfig {
  config: RunConfig
  /** Phase names by index, as the runner numbered them (samples.phase, series.phase). */
  phases: string[]
}

/**
 * The runner stores the validated config plus the compiled plan's phase names (`phases`, an extra
 * key the config schema does not know), so read them apart. Throws what parseStoredConfig throws.
 */
export function readConfig(text: string): StoredConfig {
  const raw: unknown = JSON.parse(text)
  if (typeof raw === 'object' && raw !== null && !Array.isArray(raw) && 'phases' in raw) {
    const { phases, ...rest } = raw as Record<string, unknown>
    const config = storedConfig(rest)
    const names = Array.isArray(phases) && phases.every((p) => typeof p === 'string') ? phases : null
    return { config, phases: names ?? compilePlan(config.load).phases }
  }
  const config = storedConfig(raw)
  return { config, phases: compilePlan(config.load).phases }
}

/** A run stored before passwords were masked still shows none. */
function storedConfig(raw: unknown) {
  return redactConfig(parseStoredConfig(raw), 'stored')
}

/** A run's config, or null when the stored JSON no longer parses (lists and series go on without it). */
export function configOrNull(text: string): StoredConfig | null {
  try {
    return readConfig(text)
  } catch {
    return null
  }
}

export function toSeriesPoint(row: SeriesRow, names: RunNames): SeriesPoint {
  const responses = answeredInSecond(parseColumnOr(row.status_json, StatusCountsSchema, {}))
  // A second without a response has no latency: the stored zeros are "nothing measured".
  const lat = (v: number): number | null => (responses > 0 ? v : null)
  return {
    target: targetName(names, row.target_index),
    round: row.round,
    t: row.t,
    phase: phaseName(names, row.phase),
    connections: row.connections,
    requests: row.requests,
    responses,
    errors: row.errors,
    errorsByKind: parseColumnOr(row.errors_json, ErrorCountsSchema, {}),
    bytes: row.bytes,
    mean: lat(row.mean),
    p50: lat(row.p50),
    p90: lat(row.p90),
    p95: lat(row.p95),
    p99: lat(row.p99),
    p999: lat(row.p999),
    max: lat(row.max),
    generatorCpu: row.generator_cpu,
    ...(row.agents !== null && row.agents !== undefined ? { agents: row.agents } : {}),
  }
}

export function errorKind(code: number): SampleRow['error'] {
  return ERROR_KINDS[code] ?? 'other'
}

export function toSampleRow(row: SampleDbRow, names: RunNames): SampleRow {
  return {
    correlationId: formatCorrelationId(names.prefix, row.seq),
    seq: row.seq,
    target: targetName(names, row.target_index),
    round: row.round,
    phase: phaseName(names, row.phase),
    startUs: row.start_us,
    // The ledger stores -1 for "no response"; a latency of 0 or below would be a lie.
    latencyUs: row.latency_us < 0 ? null : row.latency_us,
    correctedUs: row.corrected_us === null || row.corrected_us < 0 ? null : row.corrected_us,
    status: row.status,
    bytes: row.bytes,
    error: errorKind(row.error),
    serverAppUs: row.app_us,
    serverDbUs: row.db_us,
  }
}

/** `%` and `_` typed by a user are literal characters, not wildcards. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}

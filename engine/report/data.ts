// Everything a report shows, read once from the history: runs, environment, per-second series,
// resources, the compiled load schedule, merged latency histograms and the comparisons. Building
// the HTML afterwards is pure string work on this.
import { LIMITS } from '../config/limits.ts'
import { ApiError } from '../api/errors.ts'
import type {
  CompareResult,
  LedgerElsewhere,
  ResourcePoint,
  SeriesPoint,
  StudyResults,
} from '../api/types.ts'
import { compilePlan, previewSchedule, type Plan, type PreviewPoint } from '../config/compile.ts'
import { compareRuns, type CompareOptions } from '../metrics/compare.ts'
import { distributions, type TargetDistribution } from '../metrics/distribution.ts'
import { resourceSummary, type TargetResources } from '../metrics/resource-summary.ts'
import type { EnvironmentInfo } from '../store/environment.ts'
import { keptElsewhere, runDistribution } from '../store/ledger-elsewhere.ts'
import type { HistoryStore, RunDetail } from '../store/history-store.ts'
import type { TargetLimits } from '../store/resource-samples.ts'
import { studiesOf } from './study.ts'
import { redactConfig } from '../config/redact.ts'

/** All rounds of one target merged from their HDR histograms (exact over every request), its
 * percentile curve and the band over rounds (engine/metrics/distribution.ts). */
export type MergedLatency = TargetDistribution

export interface RunReportData {
  run: RunDetail
  environment: EnvironmentInfo | null
  series: SeriesPoint[]
  resources: ResourcePoint[]
  /** CPU, memory and connections per target and instance (engine/metrics/resource-summary.ts), as `runs show` gives them. */
  resourceSummary: TargetResources[]
  limits: TargetLimits[]
  plan: Plan | null
  schedule: PreviewPoint[]
  merged: MergedLatency[]
  /** The run's targets compared with its first (null: fewer than two targets with results). */
  comparison: CompareResult | null
  comparisonNote: string | null
  /**
   * The run's requests its load agents kept (`--raw keep`): where they are and what brings them in,
   * in the words `runs show` and the exports use. The report's figures are whole without them
   * (the summaries and histograms came in with the run); a query of the samples table is not.
   */
  elsewhere: LedgerElsewhere | null
}

export interface ReportData {
  runs: RunReportData[]
  /**
   * The report's comparison (page 1): across the runs when there are several (targets paired by
   * name), else the one run's targets; null when there is nothing to compare (comparisonNote says why).
   */
  comparison: CompareResult | null
  comparisonNote: string | null
  generatedAt: Date
  /** Sweeps the runs belong to (engine/study/): results against the swept value and the knee. */
  studies: StudyResults[]
}

export interface LoadOptions {
  /** Chart points per (target, round) series (default: pointsPerRound). */
  maxPoints?: number
  now?: Date
  /**
   * The comparison the user made (the Compare page's, or `cannonade report --baseline --min-effect
   * --pair`): page 1 compares as it says and states the baseline and margin.
   */
  compare?: CompareOptions
}

/** compareRuns, with "nothing to compare" turned into a note instead of an error. */
function tryCompare(
  store: HistoryStore,
  runIds: number[],
  opts: CompareOptions = {},
): { result: CompareResult | null; note: string | null } {
  try {
    return { result: compareRuns(store.compareRounds(runIds), opts), note: null }
  } catch (err) {
    // Nothing to compare is a note; a baseline or pair the runs do not have is the caller's error.
    if (err instanceof ApiError && err.code === 'bad-input' && err.field === 'runIds')
      return { result: null, note: err.message }
    throw err
  }
}

function planOf(run: RunDetail): { plan: Plan | null; schedule: PreviewPoint[] } {
  try {
    const plan = compilePlan(run.config.load)
    return { plan, schedule: previewSchedule(plan) }
  } catch {
    return { plan: null, schedule: [] } // an imported run with a config this version cannot compile
  }
}

/**
 * Chart points per (target, round): about 480 per target over all its rounds, more than a chart's
 * width in print; beyond that the PDF only grows (and Chromium takes longer to print it).
 */
export function pointsPerRound(rounds: number): number {
  return Math.max(30, Math.ceil(480 / Math.max(1, rounds)))
}

/**
 * A run's own targets compared as the user's comparison says where it applies to this run: its
 * margin, and its baseline when that is one of this run's targets.
 */
function ownCompare(runId: number, c: CompareOptions = {}): CompareOptions {
  return {
    ...(c.minEffect !== undefined ? { minEffect: c.minEffect } : {}),
    ...(c.baseline?.runId === runId ? { baseline: c.baseline } : {}),
    ...(c.asSeries ? { asSeries: true } : {}),
  }
}

/** `text` cut to `max` characters, an ellipsis saying so. */
function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text
}

/**
 * A run's name, tags and note as the input bounds them (LIMITS; issue 20, item 7), for a run stored
 * before the bounds: the report's size and time do not grow with them.
 */
export function boundedText<R extends { name: string; tags: string[]; note: string }>(run: R): R {
  const tags = run.tags.slice(0, LIMITS.tags).map((t) => cut(t, LIMITS.tagLength))
  if (run.tags.length > LIMITS.tags)
    tags.push(`… ${(run.tags.length - LIMITS.tags).toLocaleString('en-US')} more`)
  return { ...run, name: cut(run.name, LIMITS.nameLength), tags, note: cut(run.note, LIMITS.noteLength) }
}

export function loadRunData(store: HistoryStore, runId: number, opts: LoadOptions = {}): RunReportData {
  // A report is made to be shared: no secret header or password in anything it prints.
  const detail = store.getRun(runId)
  const run = { ...boundedText(detail), config: redactConfig(detail.config, 'shared') }
  const targets = new Set(run.results.map((r) => r.target))
  const own =
    targets.size >= 2
      ? tryCompare(store, [runId], ownCompare(runId, opts.compare))
      : { result: null, note: null }
  const resources = store.resources(runId)
  return {
    run,
    environment: store.environment(runId),
    series: store.series(runId, {
      maxPoints: opts.maxPoints ?? pointsPerRound(Math.max(1, run.rounds.round)),
    }),
    resources,
    // Over every second under load (the full series, not the charts' downsampled one).
    resourceSummary: resourceSummary(resources, store.series(runId)),
    limits: store.limits(runId),
    ...planOf(run),
    merged: distributions(run.results),
    elsewhere: keptElsewhere(runId, runDistribution(store.db, runId)),
    comparison: own.result,
    comparisonNote:
      own.note ??
      (targets.size === 1
        ? 'One target in this run: its figures stand alone (nothing to compare within the run).'
        : null),
  }
}

/** Load every run (in the given order, duplicates dropped); ApiError('not-found') names a missing run. */
export function loadReportData(
  store: HistoryStore,
  runIds: readonly number[],
  opts: LoadOptions = {},
): ReportData {
  const ids = [...new Set(runIds)]
  if (ids.length === 0) throw new ApiError('bad-input', 'a report needs at least one run id', 'runIds')
  for (const id of ids) store.runRow(id) // fail on a missing run before any work
  const runs = ids.map((id) => loadRunData(store, id, opts))
  const first = runs[0]!
  // One run: its own comparison is page 1's, with every choice of the user's (pairs too).
  const main =
    ids.length >= 2 || opts.compare?.pairs?.length
      ? tryCompare(store, ids, opts.compare)
      : { result: first.comparison, note: first.comparisonNote }
  return {
    runs,
    comparison: main.result,
    comparisonNote: main.note,
    generatedAt: opts.now ?? new Date(),
    studies: studiesOf(store, ids),
  }
}

// Comparing runs or targets, and saying how sure we are: a verdict like "Java is twice as fast"
// drawn from one run each is noise as often as not, so the uncertainty is stated in the same sentence.
//
// The unit of replication is a round: each (run, target, round) result is one observation per
// metric. A metric's value for an entry is the mean over its rounds, and the difference is
// relative: (other - baseline) / baseline in %.
// - Confidence interval (3+ rounds per side): percentile bootstrap of that relative difference,
//   resampling rounds with replacement on each side independently, 2 000 resamples, from a seeded
//   PRNG so the same data always gives the same interval.
// - Significance: two-sided Mann-Whitney U test on the round values at alpha = 0.05. Exact
//   distribution when there are no ties and both sides have at most 20 rounds; otherwise the
//   normal approximation with tie correction and continuity correction. With 3 rounds per side the
//   smallest possible exact p is 0.10, so significance needs 4+ rounds per side; the sentence
//   says so instead of pretending.
import type { z } from 'zod'
import { ApiError } from '../api/errors.ts'
import type { CompareQuerySchema } from '../api/schemas.ts'
import {
  COMPARE_METRICS,
  failedRequests,
  type CompareEntry,
  type CompareMetric,
  type CompareResult,
  type LatencyStats,
  type StatsBlock,
} from '../api/types.ts'
import { bootstrapRelativeDiff, mannWhitneyU, smallestExactP } from './compare-stats.ts'

export {
  bootstrapRelativeDiff,
  mannWhitneyU,
  smallestExactP,
  seededRandom,
  type MannWhitney,
} from './compare-stats.ts'

export type CompareQuery = z.input<typeof CompareQuerySchema>
export type MetricName = CompareMetric['metric']
export interface EntryRounds {
  entry: CompareEntry
  rounds: StatsBlock[]
}

/**
 * One run as a comparison reads it (the caller loads it from the history): its status, for the
 * message when it has nothing to compare, and per target, in target order, the statistics of its
 * finished rounds.
 */
export interface RunRounds {
  runId: number
  status: string
  targets: { target: string; rounds: StatsBlock[] }[]
}

export const ALPHA = 0.05
export const MIN_ROUNDS_FOR_CI = 3
const LABEL: Record<MetricName, string> = {
  throughput: 'throughput',
  mean: 'mean latency',
  p50: 'median latency (p50)',
  p95: 'p95 latency',
  p99: 'p99 latency',
  p999: 'p99.9 latency',
  errorRate: 'error rate',
}

const mean = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length

/** The round values of one metric; rounds without responses have no latency and are left out. */
export function metricValues(
  metric: MetricName,
  rounds: readonly StatsBlock[],
  corrected: boolean,
): number[] {
  if (metric === 'throughput') return rounds.map((r) => r.throughput)
  if (metric === 'errorRate') {
    // Counted as thresholds count it (failedRequests): requests in flight at the end are not errors.
    return rounds.filter((r) => r.requests > 0).map((r) => failedRequests(r.errors) / r.requests)
  }
  const stats = (r: StatsBlock): LatencyStats => (corrected && r.corrected ? r.corrected : r.latency)
  return rounds.filter((r) => stats(r).count > 0).map((r) => stats(r)[metric])
}

function fmtPct(x: number): string {
  const a = Math.abs(x)
  return a >= 10 ? a.toFixed(0) : a >= 1 ? a.toFixed(1) : a.toFixed(2)
}

function fmtValue(metric: MetricName, v: number): string {
  if (metric === 'throughput') return `${v.toFixed(v >= 100 ? 0 : 1)} req/s`
  if (metric === 'errorRate') return `${(v * 100).toFixed(2)} %`
  return `${(v / 1000).toFixed(2)} ms`
}

function ciWords(ci: [number, number], diff: number): string {
  const [lo, hi] = ci
  if ((lo > 0 && hi > 0 && diff > 0) || (lo < 0 && hi < 0 && diff < 0)) {
    const [a, b] = [Math.abs(lo), Math.abs(hi)].sort((x, y) => x - y) as [number, number]
    return `95 % CI ${fmtPct(a)}–${fmtPct(b)} %`
  }
  const signed = (x: number): string => `${x < 0 ? '−' : '+'}${fmtPct(x)}`
  return `95 % CI ${signed(lo)} % to ${signed(hi)} %`
}

export function compareMetric(
  metric: MetricName,
  base: EntryRounds,
  other: EntryRounds,
  corrected: boolean,
): CompareMetric | null {
  const a = metricValues(metric, base.rounds, corrected)
  const b = metricValues(metric, other.rounds, corrected)
  if (a.length === 0 || b.length === 0) return null
  const baseline = mean(a)
  const value = mean(b)
  const diffPercent = baseline === 0 ? (value === 0 ? 0 : null) : 100 * (value / baseline - 1)
  const enough = a.length >= MIN_ROUNDS_FOR_CI && b.length >= MIN_ROUNDS_FOR_CI
  const ci = enough && diffPercent !== null ? bootstrapRelativeDiff(a, b) : null
  const test = enough ? mannWhitneyU(b, a) : null
  const significant = test ? test.p < ALPHA : null

  const who = other.entry.label
  const than = base.entry.label
  const values = `${fmtValue(metric, value)} vs ${fmtValue(metric, baseline)}`
  let claim: string
  if (diffPercent === null) {
    claim =
      metric === 'errorRate'
        ? `${than} had no errors; ${who} failed ${fmtValue(metric, value)} of requests`
        : `${than}'s ${LABEL[metric]} was 0; ${who}'s was ${fmtValue(metric, value)}`
  } else if (Math.abs(diffPercent) < 0.05) claim = `${who} and ${than} had the same ${LABEL[metric]}`
  else if (metric === 'throughput') {
    claim = `${who} served ${fmtPct(diffPercent)} % ${diffPercent > 0 ? 'more' : 'fewer'} requests/s than ${than}`
  } else {
    const label = `${LABEL[metric]}${corrected && metric !== 'errorRate' ? ' (corrected for coordinated omission)' : ''}`
    claim = `${who}'s ${label} was ${fmtPct(diffPercent)} % ${diffPercent > 0 ? 'higher' : 'lower'} than ${than}'s`
  }
  let uncertainty: string
  if (!enough) {
    uncertainty =
      a.length === 1 && b.length === 1
        ? 'single round each: no confidence interval; repeat with rounds ≥ 3'
        : `${b.length} and ${a.length} rounds: no confidence interval; repeat with rounds ≥ 3`
  } else {
    const parts = ci && diffPercent !== null ? [ciWords(ci, diffPercent)] : []
    const p = `Mann–Whitney p = ${test && test.p < 0.001 ? '< 0.001' : (test?.p ?? 1).toFixed(3)}`
    parts.push(significant ? 'significant' : 'not significant', p)
    if (!significant && test?.method === 'exact' && smallestExactP(a.length, b.length) >= ALPHA) {
      parts.push(`; ${b.length} and ${a.length} rounds can never reach p < ${ALPHA}; use ≥ 4 rounds per side`)
    }
    uncertainty = parts.join(', ').replace(', ;', ';')
  }
  return {
    metric,
    baseline,
    other: value,
    diffPercent,
    ci95: ci,
    significant,
    sentence: `${claim} (${uncertainty}; ${values})`,
  }
}

/** Compare every entry with the baseline (pure: entries carry their round statistics). */
export function compareEntries(entries: readonly EntryRounds[], baselineIndex = 0): CompareResult {
  const base = entries[baselineIndex]
  if (!base) throw new ApiError('bad-input', 'nothing to compare', 'baseline')
  const others = entries.filter((_, i) => i !== baselineIndex)
  return {
    baseline: base.entry,
    others: others.map((other) => {
      // Rate mode keeps corrected latency; compare it when both sides have it in every round.
      const corrected = [...base.rounds, ...other.rounds].every(
        (r) => r.corrected !== null && r.corrected.count > 0,
      )
      const metrics = COMPARE_METRICS.map((m) => compareMetric(m, base, other, corrected)).filter(
        (m): m is CompareMetric => m !== null,
      )
      return { entry: other.entry, metrics }
    }),
  }
}

/**
 * Two or more runs (every target of each), or one run whose targets are compared with each other.
 * The baseline is the given (run, target) or the first entry.
 */
export function compareRuns(runs: readonly RunRounds[], baseline?: CompareQuery['baseline']): CompareResult {
  const found = runs.flatMap((run) => {
    const targets = run.targets.filter((t) => t.rounds.length > 0)
    if (targets.length === 0) {
      throw new ApiError(
        'bad-input',
        `run ${run.runId} has no finished results to compare (status ${run.status})`,
        'runIds',
      )
    }
    return targets.map((t) => ({ runId: run.runId, ...t }))
  })
  if (found.length < 2) {
    throw new ApiError(
      'bad-input',
      `nothing to compare: run ${runs[0]?.runId} has a single target; give two or more runs, or a run with several targets`,
      'runIds',
    )
  }
  const unique = new Set(found.map((t) => t.target)).size === found.length
  const entries: EntryRounds[] = found.map((t) => ({
    entry: {
      runId: t.runId,
      target: t.target,
      label: unique ? t.target : `${t.target} (run ${t.runId})`,
      rounds: t.rounds.length,
    },
    rounds: t.rounds,
  }))
  let baselineIndex = 0
  if (baseline) {
    const { runId, target } = baseline
    baselineIndex = entries.findIndex((e) => e.entry.runId === runId && e.entry.target === target)
    if (baselineIndex < 0)
      throw new ApiError(
        'bad-input',
        `baseline: run ${runId} has no target "${target}" among the compared runs`,
        'baseline',
      )
  }
  return compareEntries(entries, baselineIndex)
}

export { compareRuns as compare }

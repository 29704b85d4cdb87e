// Comparing runs or targets, and saying how sure we are. A verdict like "Java is twice as fast"
// drawn from one run each is noise as often as not, so every difference carries its interval and
// a verdict that takes the smallest difference that matters into account.
//
// - Pairs (compare-pairs.ts): within a run each target against the chosen baseline; across runs a
//   target against the target of the same name, or explicit pairs.
// - Per metric (compare-metric.ts): rounds are the observations. Rounds interleaved in one run are
//   paired (t-interval on the mean per-round log-ratio); otherwise Welch's interval on the log
//   values. Significant iff the interval excludes ratio 1. The verdict uses a practical-equivalence
//   margin (± minEffect %): higher/lower beyond it, same inside it, inconclusive across it.
// - What makes a pair unfair (compare-config.ts) and the headline (compare-headline.ts), each
//   caveat once; entries that are values of one thing become a curve (compare-series.ts).
import type { z } from 'zod'
import { ApiError } from '../api/errors.ts'
import type { CompareQuerySchema } from '../api/schemas.ts'
import { COMPARE_METRICS, type CompareMetric, type ComparePair, type CompareResult } from '../api/types.ts'
import { runCaveats, runDifferences, targetDifferences, type RunRounds } from './compare-config.ts'
import { methodText, notEnoughRounds, pairsHeadline } from './compare-headline.ts'
import { compareMetric, DEFAULT_MIN_EFFECT } from './compare-metric.ts'
import { choosePairs, entriesOf, type Entry } from './compare-pairs.ts'
import { seriesHeadline, seriesOf } from './compare-series.ts'
import { SEQUENTIAL_LEVEL, SEQUENTIAL_TRIM } from './stopping.ts'
import { runRoundsWords } from './rounds-words.ts'
import { isAdaptive, maxRounds } from '../config/rounds.ts'
import { unsettledNote } from './steady-words.ts'

export type { CompareEnvironment, RunRounds } from './compare-config.ts'
export { methodText } from './compare-headline.ts'
export { compareMetric, metricValues, MIN_ROUNDS, roundValue, type Round } from './compare-metric.ts'

export type CompareQuery = z.input<typeof CompareQuerySchema>
export type CompareOptions = Omit<CompareQuery, 'runIds'>

export { DEFAULT_MIN_EFFECT } from './compare-metric.ts'

/**
 * Interleaved or randomized rounds of one run, the same rounds on both sides: round i pairs with
 * round i (each round runs every target once, in turn).
 */
function isPaired(a: Entry, b: Entry): boolean {
  const schedule = a.run.config?.schedule
  if (a.runId !== b.runId || (schedule !== 'interleaved' && schedule !== 'randomized')) return false
  const ra = a.data.map((r) => r.round).sort((x, y) => x - y)
  const rb = b.data.map((r) => r.round).sort((x, y) => x - y)
  return ra.length === rb.length && ra.every((r, i) => r === rb[i])
}

/** Rate mode keeps corrected latency; compare it when both sides have it in every round. */
function usesCorrected(a: Entry, b: Entry): boolean {
  return [...a.data, ...b.data].every((r) => r.corrected !== null && r.corrected.count > 0)
}

function comparePair(a: Entry, b: Entry, minEffect: number): ComparePair {
  const paired = isPaired(a, b)
  const corrected = usesCorrected(a, b)
  // A run that stopped when precise states the interval its stopping rule was checked with.
  const sequential = paired && a.run.config !== null && isAdaptive(a.run.config)
  const metrics = COMPARE_METRICS.map((metric) =>
    compareMetric({
      metric,
      base: a.data,
      other: b.data,
      paired,
      corrected,
      minEffect,
      ...(sequential ? { level: SEQUENTIAL_LEVEL, trim: SEQUENTIAL_TRIM } : {}),
      baseLabel: a.label,
      otherLabel: b.label,
    }),
  ).filter((m): m is CompareMetric => m !== null)
  const notes = [
    ...runCaveats(a.run),
    ...(b.run !== a.run ? runCaveats(b.run) : []),
    runDifferences(a.run, b.run),
    targetDifferences(a, b),
    ...findingNotes(a, b),
  ].filter((n): n is string => n !== null)
  return {
    baseline: publicEntry(a),
    other: publicEntry(b),
    design: paired ? 'paired' : 'unpaired',
    corrected,
    metrics,
    notes,
  }
}

/**
 * What each side's own run found: rounds that never settled (load.warmup: auto) and what limited
 * each (engine/metrics/limiting.ts), said once per pair: a ratio of two limits is not two servers.
 */
function findingNotes(a: Entry, b: Entry): (string | null)[] {
  const own = (e: Entry) => e.run.targets.find((t) => t.target === e.target)
  const limits = [a, b].map((e) => ({ label: e.label, limit: own(e)?.limitedBy ?? null }))
  const said = limits.every((l) => l.limit !== null)
    ? `What limited them: ${limits.map((l) => `${l.label}: ${l.limit!.text}`).join('; ')}.`
    : null
  return [unsettledNote(a.label, own(a)?.rounds ?? []), unsettledNote(b.label, own(b)?.rounds ?? []), said]
}

function publicEntry(e: Entry): CompareResult['entries'][number] {
  return { runId: e.runId, target: e.target, label: e.label, rounds: e.rounds }
}

/** Caveats of the method itself: rounds that cannot be paired within one run, too few rounds. */
function methodNotes(pairs: readonly ComparePair[], entries: readonly Entry[]): string[] {
  const out: string[] = []
  const sequential = pairs.some((p) => {
    const run = entries.find((e) => e.runId === p.baseline.runId)?.run
    return (
      p.baseline.runId === p.other.runId &&
      run?.config?.schedule === 'sequential' &&
      maxRounds(run.config) > 1
    )
  })
  if (sequential)
    out.push(
      'Rounds of one run ran one target after the other (sequential), so drift over time counts as a difference; schedule: randomized pairs them.',
    )
  if (pairs.some((p) => p.metrics.some((m) => m.verdict === 'too-few-rounds'))) out.push(notEnoughRounds())
  return out
}

/** Compare runs (pure: each run carries its rounds, config and environment; see RunRounds). */
export function compareRuns(runs: readonly RunRounds[], opts: CompareOptions = {}): CompareResult {
  const minEffect = opts.minEffect ?? DEFAULT_MIN_EFFECT
  const entries = entriesOf(runs)
  if (entries.length < 2) {
    throw new ApiError(
      'bad-input',
      `nothing to compare: run ${runs[0]?.runId} has a single target; give two or more runs, or a run with several targets`,
      'runIds',
    )
  }
  const base = {
    method: methodText(minEffect),
    minEffect,
    entries: entries.map(publicEntry),
    rounds: runs.flatMap((r) =>
      r.rounds ? [{ runId: r.runId, words: runRoundsWords(r.runId, r.rounds) }] : [],
    ),
  }
  const series = opts.pairs?.length ? null : seriesOf(entries, opts.asSeries ?? false)
  if (series) {
    const notes = [...new Set(runs.flatMap(runCaveats))]
    return {
      ...base,
      headline: [seriesHeadline(series), ...notes].join(' '),
      baseline: null,
      pairs: [],
      notes,
      series,
    }
  }
  const choice = choosePairs(runs, entries, opts)
  const pairs = choice.pairs.map(([a, b]) => comparePair(a, b, minEffect))
  const unpaired =
    pairs.length === 0
      ? [
          'The runs share no target name, so nothing is paired: give explicit pairs to compare targets of different names.',
        ]
      : choice.notes
  const notes = [...new Set([...pairs.flatMap((p) => p.notes), ...unpaired, ...methodNotes(pairs, entries)])]
  return {
    ...base,
    headline: pairsHeadline(pairs, notes, minEffect),
    baseline: choice.baseline ? publicEntry(choice.baseline) : null,
    pairs,
    notes,
    series: null,
  }
}

export { compareRuns as compare }

// One metric of one pair: the rounds' values on each side, the 95 % interval of the ratio (or, for
// error rates, of the difference), whether it excludes no change, and the verdict against the
// practical-equivalence margin. The method is stated in words in compare-method.ts.
import {
  failedRequests,
  type CompareMetric,
  type CompareMetricName,
  type CompareVerdict,
  type LatencyStats,
  type RoundNoise,
  type StatsBlock,
} from '../api/types.ts'
import {
  arithmeticMean,
  geometricMean,
  pairedDifference,
  pairedLogRatio,
  pairedTrimmedLogRatio,
  welchInterval,
  welchLogRatio,
  type Interval,
} from './compare-stats.ts'
import { fmtAgree, fmtEffect, fmtMargin, fmtMetricValue, fmtRatio, METRIC_LABEL } from './compare-words.ts'

/** ± % : the smallest difference that matters, unless a comparison is given another. */
export const DEFAULT_MIN_EFFECT = 5

/** Rounds per entry (or pairs of rounds) the method needs for an interval. */
export const MIN_ROUNDS = 3
/** Below this error-rate difference (0.1 percentage point) no difference matters, whatever the margin. */
export const ERROR_RATE_FLOOR = 0.001

/** One round's statistics; the encoded HDR histogram where the history has it. */
export type Round = StatsBlock & { round: number; histogram?: string; noise?: RoundNoise | null }

/** One round's value of a metric, or null when the round has none (no responses, no requests). */
export function roundValue(metric: CompareMetricName, r: StatsBlock, corrected: boolean): number | null {
  if (metric === 'throughput') return r.throughput > 0 ? r.throughput : null
  if (metric === 'errorRate') return r.requests > 0 ? failedRequests(r.errors) / r.requests : null
  const stats: LatencyStats = corrected && r.corrected ? r.corrected : r.latency
  return stats.count > 0 && stats[metric] > 0 ? stats[metric] : null
}

/** Every round's value, in round order, dropping rounds without one. */
export function metricValues(
  metric: CompareMetricName,
  rounds: readonly StatsBlock[],
  corrected: boolean,
): number[] {
  return rounds.map((r) => roundValue(metric, r, corrected)).filter((v): v is number => v !== null)
}

export interface MetricInput {
  metric: CompareMetricName
  base: readonly Round[]
  other: readonly Round[]
  /** Pair round i with round i (interleaved rounds of one run). */
  paired: boolean
  corrected: boolean
  /** ± % */
  minEffect: number
  /**
   * The t-interval's level: 0.95, or SEQUENTIAL_LEVEL for the paired rounds of a run that stopped
   * when precise (engine/metrics/stopping.ts), which keeps 95 % coverage under that rule.
   */
  level?: number
  /**
   * Paired ratios only: the share of rounds trimmed from each end (Yuen's interval of the trimmed
   * mean of the log-ratios), for a run that stopped when precise (stopping.ts SEQUENTIAL_TRIM).
   */
  trim?: number
  baseLabel: string
  otherLabel: string
}

function classify(lo: number, hi: number, margin: number): CompareVerdict {
  if (lo > margin) return 'higher'
  if (hi < -margin) return 'lower'
  if (lo >= -margin && hi <= margin) return 'same'
  return 'inconclusive'
}

const sign = (x: number): number => (x > 0 ? 1 : x < 0 ? -1 : 0)

function collect(input: MetricInput): { a: number[]; b: number[]; paired: boolean } {
  const { metric, corrected } = input
  if (input.paired) {
    // Usually both sides list the same rounds in the same order (a run that stops when precise asks
    // after every round): round i is then at i, and the lookup by round is built only when not.
    let byRound: Map<number, number | null> | null = null
    const partner = (r: Round, i: number): number | null | undefined => {
      const same = input.other[i]
      if (same?.round === r.round) return roundValue(metric, same, corrected)
      byRound ??= new Map(input.other.map((o) => [o.round, roundValue(metric, o, corrected)]))
      return byRound.get(r.round)
    }
    const a: number[] = []
    const b: number[] = []
    for (const [i, r] of input.base.entries()) {
      const x = roundValue(metric, r, corrected)
      const y = partner(r, i)
      if (x !== null && y !== null && y !== undefined) {
        a.push(x)
        b.push(y)
      }
    }
    return { a, b, paired: true }
  }
  return {
    a: metricValues(metric, input.base, corrected),
    b: metricValues(metric, input.other, corrected),
    paired: false,
  }
}

/**
 * The direction each round shows (+1: the other side higher), the same whichever side is the
 * baseline (swapping the sides turns every direction and the estimate's round). Paired: round i
 * of one side against round i of the other. Unpaired: every round of both sides against the
 * midpoint of the two centres (geometric for ratios), a baseline round below it and an other
 * round above it pointing up.
 */
function roundDirections(
  a: readonly number[],
  b: readonly number[],
  paired: boolean,
  isRate: boolean,
  baseline: number,
  other: number,
): number[] {
  if (paired) return a.map((x, i) => sign(b[i]! - x))
  const mid = isRate ? (baseline + other) / 2 : Math.sqrt(baseline * other)
  return [...a.map((x) => sign(mid - x)), ...b.map((y) => sign(y - mid))]
}

/** A metric's interval and verdict: what compareMetric words, and what stopping.ts decides on. */
export interface MetricInterval {
  a: number[]
  b: number[]
  paired: boolean
  baseline: number
  other: number
  /** The change the interval is around: ln(other / baseline) of the centres, or the trimmed mean's. */
  estimate: number
  verdict: CompareVerdict
  excludesNoChange: boolean | null
  /** The interval of the ratio − 1 (error rates: of the difference over the baseline). */
  ci: [number, number] | null
}

/** One metric's interval and verdict; null when either side has no value at all. */
export function metricInterval(input: MetricInput): MetricInterval | null {
  const { metric, minEffect } = input
  const { a, b, paired } = collect(input)
  if (a.length === 0 || b.length === 0) return null
  const enough = paired ? a.length >= MIN_ROUNDS : a.length >= MIN_ROUNDS && b.length >= MIN_ROUNDS
  const isRate = metric === 'errorRate'
  let baseline: number
  let other: number
  let interval: Interval | null = null
  const level = input.level ?? 0.95
  if (isRate) {
    baseline = arithmeticMean(a)
    other = arithmeticMean(b)
    if (enough) interval = paired ? pairedDifference(a, b, level) : welchInterval(a, b, level)
  } else {
    baseline = geometricMean(a)
    other = geometricMean(b)
    if (enough)
      interval = !paired
        ? welchLogRatio(a, b, level)
        : input.trim
          ? pairedTrimmedLogRatio(a, b, level, input.trim)
          : pairedLogRatio(a, b, level)
  }
  // A trimmed mean is its own centre; otherwise the interval is around the centres' ratio.
  const estimate =
    interval && input.trim && paired && !isRate
      ? interval.estimate
      : isRate
        ? other - baseline
        : Math.log(other / baseline)
  let verdict: CompareVerdict = 'too-few-rounds'
  let excludesNoChange: boolean | null = null
  if (interval) {
    excludesNoChange = interval.lo > 0 || interval.hi < 0
    const margin = isRate
      ? Math.max((minEffect / 100) * baseline, ERROR_RATE_FLOOR)
      : Math.log(1 + minEffect / 100)
    verdict = classify(interval.lo, interval.hi, margin)
  }
  let ci: [number, number] | null = null
  if (interval && baseline > 0) {
    ci = isRate
      ? [interval.lo / baseline, interval.hi / baseline]
      : [Math.exp(interval.lo) - 1, Math.exp(interval.hi) - 1]
  }
  return { a, b, paired, baseline, other, estimate, verdict, excludesNoChange, ci }
}

/** Compare one metric of a pair; null when either side has no value at all. */
export function compareMetric(input: MetricInput): CompareMetric | null {
  const { metric } = input
  const m = metricInterval(input)
  if (!m) return null
  const { a, b, paired, baseline, other, estimate, verdict, excludesNoChange, ci } = m
  const isRate = metric === 'errorRate'
  const dir = sign(estimate)
  const directions = roundDirections(a, b, paired, isRate, baseline, other)
  const agree = { rounds: directions.filter((d) => d === dir).length, of: directions.length }
  // A trimmed mean's ratio is its own (the centres' ratio otherwise, as before).
  const trimmed = !isRate && paired && input.trim !== undefined && input.trim > 0
  const change = trimmed
    ? Math.exp(estimate) - 1
    : baseline === 0
      ? other === 0
        ? 0
        : null
      : other / baseline - 1
  const higherIsBetter = metric === 'throughput'
  const better =
    verdict === 'higher'
      ? higherIsBetter
        ? 'other'
        : 'baseline'
      : verdict === 'lower'
        ? higherIsBetter
          ? 'baseline'
          : 'other'
        : null
  const result: CompareMetric = {
    metric,
    baseline,
    other,
    change,
    ci,
    excludesNoChange,
    verdict,
    better,
    agree,
    sentence: '',
  }
  result.sentence = metricSentence(result, input)
  return result
}

function metricSentence(m: CompareMetric, input: MetricInput): string {
  const { otherLabel: o, baseLabel: b, minEffect } = input
  const corrected = input.corrected && m.metric !== 'throughput' && m.metric !== 'errorRate'
  const label = `${METRIC_LABEL[m.metric]}${corrected ? ' (corrected)' : ''}`
  const what =
    m.metric === 'errorRate'
      ? `${o} failed ${fmtMetricValue('errorRate', m.other)} of requests, ${b} ${fmtMetricValue('errorRate', m.baseline)}`
      : `${o}'s ${label} is ${m.change === null ? 'not comparable to' : fmtRatio(1 + m.change)} ${b}'s`
  if (m.verdict === 'too-few-rounds') {
    const n = m.agree.of
    return `${what} (${n} round${n === 1 ? '' : 's'}: no interval)`
  }
  // fmtEffect: "3.90× (95 % CI 3.70–4.10×)"; the ratio is already in `what`.
  const effect = fmtEffect(m)
  const interval =
    m.metric === 'errorRate'
      ? effect.replace(' (', ', ').replace(/\)$/, '')
      : effect.replace(/^[^(]*\(|\)$/g, '')
  const margin = `±${fmtMargin(minEffect)}`
  const judged =
    m.verdict === 'same'
      ? `inside ${margin}: no difference that matters`
      : m.verdict === 'inconclusive'
        ? `crosses ${margin}: inconclusive`
        : fmtAgree(m.agree)
  return `${what} (${interval}, ${judged})`
}

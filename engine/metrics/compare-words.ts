// How a comparison is put in words and figures, shared by the CLI, the app and the PDF so the same
// result reads the same everywhere. Pure functions, no Node modules (the renderer imports them).
import type { CompareMetric, CompareMetricName, CompareVerdict } from '../api/types.ts'
import { msText } from './units.ts'

export const METRIC_LABEL: Record<CompareMetricName, string> = {
  throughput: 'throughput',
  mean: 'mean latency',
  p50: 'p50',
  p95: 'p95',
  p99: 'p99',
  p999: 'p99.9',
  errorRate: 'error rate',
}

/** A ratio as "3.90×" (two decimals below 10, one below 100, none above). */
export function fmtRatio(r: number): string {
  if (!Number.isFinite(r)) return '–'
  return `${r >= 99.5 ? r.toFixed(0) : r >= 9.995 ? r.toFixed(1) : r.toFixed(2)}×`
}

/** A 95 % interval of a ratio: "3.70–4.10×". */
export function fmtRatioRange(lo: number, hi: number): string {
  return `${fmtRatio(lo).slice(0, -1)}–${fmtRatio(hi)}`
}

/** A metric's value with its unit: latency µs → ms, throughput req/s, error rate %. */
export function fmtMetricValue(metric: CompareMetricName, v: number): string {
  if (metric === 'throughput') return `${v.toFixed(1)} req/s`
  if (metric === 'errorRate') return `${(v * 100).toFixed(2)} %`
  return `${msText(v)} ms`
}

/** Error rates differ in percentage points: "+1.50 points". */
export function fmtPoints(diff: number): string {
  const p = diff * 100
  return `${p >= 0 ? '+' : '−'}${Math.abs(p).toFixed(2)} points`
}

/** The ratio other / baseline of a compared metric (null when the baseline is 0). */
export function ratioOf(m: Pick<CompareMetric, 'change'>): number | null {
  return m.change === null ? null : 1 + m.change
}

/** "3.90× (95 % CI 3.70–4.10×)", or the difference in points for error rates. */
export function fmtEffect(m: CompareMetric): string {
  if (m.metric === 'errorRate') {
    const diff = m.other - m.baseline
    if (m.ci === null || m.change === null) return fmtPoints(diff)
    const [lo, hi] = m.ci.map((c) => c * m.baseline) as [number, number]
    return `${fmtPoints(diff)} (95 % CI ${fmtPoints(lo)} to ${fmtPoints(hi)})`
  }
  const r = ratioOf(m)
  if (r === null) return '–'
  return m.ci ? `${fmtRatio(r)} (95 % CI ${fmtRatioRange(1 + m.ci[0], 1 + m.ci[1])})` : fmtRatio(r)
}

/** A table cell under "Ratio (95 % CI)": "3.90× (3.70–4.10×)", or points for error rates. */
export function fmtEffectCell(m: CompareMetric): string {
  return fmtEffect(m)
    .replace('95 % CI ', '')
    .replace(/ points\)$/, ')')
}

/** A table cell under "Rounds agreeing": "4 of 5". */
export function fmtAgreeCell(a: CompareMetric['agree']): string {
  return `${a.rounds} of ${a.of}`
}

/** "all 5 rounds agree", "4 of 5 rounds agree". */
export function fmtAgree(a: CompareMetric['agree']): string {
  if (a.of === 0) return 'no rounds'
  if (a.rounds === a.of) return a.of === 1 ? 'the one round agrees' : `all ${a.of} rounds agree`
  return `${a.rounds} of ${a.of} rounds agree`
}

/**
 * The word of a verdict, from the other entry's point of view: defined here once, and the same in
 * the table's cell, the headline, the JSON (`word`) and the PDF. A latency higher than the
 * baseline's beyond the margin is "slower", lower "faster"; throughput "more req/s" or "fewer
 * req/s"; the error rate "more errors" or "fewer errors"; inside the margin "same"; an interval
 * across the margin "inconclusive" (even when it excludes no change: the direction is sure, not
 * whether it matters); no interval "no interval".
 */
export function verdictName(m: Pick<CompareMetric, 'metric' | 'verdict'>): string {
  const v: CompareVerdict = m.verdict
  if (v === 'same') return 'same'
  if (v === 'inconclusive') return 'inconclusive'
  if (v === 'too-few-rounds') return 'no interval'
  if (m.metric === 'throughput') return v === 'higher' ? 'more req/s' : 'fewer req/s'
  if (m.metric === 'errorRate') return v === 'higher' ? 'more errors' : 'fewer errors'
  return v === 'higher' ? 'slower' : 'faster'
}

/**
 * A compared metric as a text table's row: metric, baseline, other, ratio (95 % CI), rounds agreeing,
 * verdict (the CLI's table and the Markdown of docs/results.md; the app and the PDF lay out the same).
 */
export function metricCells(m: CompareMetric, minEffect: number): string[] {
  return [
    METRIC_LABEL[m.metric],
    fmtMetricValue(m.metric, m.baseline),
    fmtMetricValue(m.metric, m.other),
    fmtEffectCell(m),
    m.verdict === 'too-few-rounds' ? '–' : fmtAgreeCell(m.agree),
    verdictWord(m, minEffect),
  ]
}

/** The verdict for a table cell: its word, and the margin where it says "same". */
export function verdictWord(m: Pick<CompareMetric, 'metric' | 'verdict'>, minEffect: number): string {
  const word = verdictName(m)
  return m.verdict === 'same' && m.metric !== 'errorRate' ? `${word} (within ±${fmtMargin(minEffect)})` : word
}

/**
 * The name of the comparison's per-side figure (CompareMetric.baseline/other), beside each side's
 * label in every pairs table: a second statistic, never to be read as the target's own figure.
 */
export const CENTRE_NAME = 'geometric mean of rounds'

export function fmtMargin(minEffect: number): string {
  return `${Number.isInteger(minEffect) ? minEffect : minEffect.toFixed(1)} %`
}

// The latency distribution as HdrHistogram's percentile plot draws it: latency against the
// percentile on a log-scaled tail axis, x = log10(1 / (1 − q)) ("nines"): 0.30 is p50, 1 p90, 2 p99,
// … 5 p99.999. One curve per target with all its rounds merged (exact over every request), and
// with several rounds the lowest and highest round at each point, drawn as a band; in rate mode a
// second curve per target from the intended send times (corrected latency). The run detail
// and compare pages (runs.distribution) and the report draw the same curves.
import type { DistributionCurve, LatencyStats, TargetRoundSummary } from '../api/types.ts'
import { decodeHistogram, latencyStats, mergeEncoded, type Histogram } from './hdr.ts'
import { NINES_FROM, NINES_STEP, NINES_TO, percentileAt } from './nines-axis.ts'

export { NINES_FROM, NINES_TICKS, NINES_TO, percentileAt } from './nines-axis.ts'

/**
 * Where a histogram's curve ends: resolution ends where the count does (1 000 requests say nothing
 * about the 99.99th percentile), and the axis at 99.999.
 */
export function curveEnd(count: number): number {
  return Math.min(NINES_TO, Math.max(1, Math.log10(count)))
}

/** The x of every point of a curve that ends at `top`. */
export function curveXs(top: number): number[] {
  const xs: number[] = []
  for (let x = NINES_FROM; x < top - 1e-9; x += NINES_STEP) xs.push(x)
  xs.push(top)
  return xs
}

/**
 * The percentile curve of a histogram: [x, µs] from p50 to its end; at the end of its resolution
 * the recorded maximum (a percentile of its own bucket can lie above it).
 */
export function percentileCurve(
  valueAt: (percentile: number) => number,
  count: number,
  max: number,
): [number, number][] {
  if (count === 0) return []
  const top = curveEnd(count)
  const atEnd = Math.log10(count) <= NINES_TO
  return curveXs(top).map((x, i, xs) => [
    x,
    i === xs.length - 1 && atEnd ? max : Math.min(valueAt(percentileAt(x)), max),
  ])
}

function curveOf(h: Histogram): [number, number][] {
  return percentileCurve((p) => h.getValueAtPercentile(p), h.totalCount, h.maxValue)
}

/** The value of a curve at x: beyond its end, its last value (a round with fewer requests). */
function valueOn(curve: readonly [number, number][], x: number): number {
  let v = curve[0]?.[1] ?? 0
  for (const [cx, cy] of curve) {
    if (cx > x + 1e-9) break
    v = cy
  }
  return v
}

export interface TargetDistribution extends DistributionCurve {
  /** All rounds merged. */
  stats: LatencyStats
}

type Encoded = Pick<TargetRoundSummary, 'target' | 'histogram'> &
  Partial<Pick<TargetRoundSummary, 'correctedHistogram'>>

/** One curve from a target's encoded rounds: all of them merged, and a band over them. */
function curveOfRounds(target: string, encoded: readonly string[], corrected: boolean): TargetDistribution {
  const merged = mergeEncoded(encoded)
  try {
    const points = curveOf(merged)
    let band: [number, number][] | null = null
    if (encoded.length > 1 && points.length > 0) {
      const rounds = encoded.map((e) => {
        const h = decodeHistogram(e)
        try {
          return curveOf(h)
        } finally {
          h.destroy()
        }
      })
      const drawn = rounds.filter((c) => c.length > 0)
      band = points.map(([x]) => {
        const vs = drawn.map((c) => valueOn(c, x))
        return [Math.min(...vs), Math.max(...vs)]
      })
    }
    return {
      target,
      rounds: encoded.length,
      points,
      band,
      ...(corrected ? { corrected: true } : {}),
      stats: latencyStats(merged),
    }
  } finally {
    merged.destroy()
  }
}

/**
 * Per target (in the order of `results`), its rounds' histograms merged, and a band over rounds.
 * In rate mode, after them, each target's latency from the intended send time (coordinated
 * omission corrected, `corrected: true`), where every round of it kept one.
 */
export function distributions(results: readonly Encoded[]): TargetDistribution[] {
  const byTarget = new Map<string, Encoded[]>()
  for (const r of results) byTarget.set(r.target, [...(byTarget.get(r.target) ?? []), r])
  const out: TargetDistribution[] = []
  for (const [target, rounds] of byTarget)
    out.push(curveOfRounds(target, rounds.map((r) => r.histogram).filter(Boolean), false))
  for (const [target, rounds] of byTarget) {
    const corrected = rounds.map((r) => r.correctedHistogram ?? null)
    if (corrected.length && corrected.every((c): c is string => Boolean(c)))
      out.push(curveOfRounds(target, corrected, true))
  }
  return out
}

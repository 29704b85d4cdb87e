// Steady state, found in each segment's own seconds (`load.warmup: auto`): where its per-second
// throughput and p50 reach their level, and whether the measured window after that holds it.
// Pure: the seconds are handed in (the runner's writer thread calls it when a segment ends).
//
// The cut is binary segmentation (Scott & Knott 1974, Vostrikova 1981) with a two-sample z test
// of a change in mean: split the seconds where the means before and after differ most, in units
// of their standard error; a split clearer than STEADY_Z is a change of level. Cut at the change,
// look again in what is left, until no clear change is left in the first half (the cut's limit:
// a warm-up that takes more than half the segment leaves too little to measure). Noise is
// measured robustly, from the median absolute difference of neighbouring seconds (a change of
// level moves one difference only), and each series passes a running median of three first, so
// one odd second (a pause, a burst) is no change while two are. Throughput is tested as it is,
// p50 as its logarithm (latency varies by a factor, not by an amount); the cut is the later of
// the two. The window after the cut holds its level unless it trends: Theil–Sen's slope for how
// much (TREND_MIN_CHANGE from its start to its end) and Mann–Kendall's test for how clearly
// (TREND_MIN_Z; ranks, so one odd second is no trend), on at most 60 batch means of its seconds,
// or its level steps by as much as clearly as a cut would need (a pause of many seconds).
// engine/metrics/steady.test.ts shows the rule right by simulation: flat seconds, warm-up steps,
// a JIT-like approach and trends that never settle, each over 1,000 noisy series.

/** A segment shorter than this (whole seconds) is not cut: too few seconds to tell a level. */
export const STEADY_MIN_SECONDS = 10
/** A split this clear (|z|) is a change of level. */
export const STEADY_Z = 6
/** A trend must change the window by at least this much from its start to its end (or a step of level by this much), relative… */
export const TREND_MIN_CHANGE = 0.1
/** …and be this clear (Mann–Kendall |z|, two-sided p ≈ 0.003 for independent seconds). */
export const TREND_MIN_Z = 3
/** The trend test works on at most this many points (batch means of the window's seconds). */
const TREND_POINTS = 60
/** Seconds on each side of a step of level inside the measured window. */
const MIN_SIDE = 5

export const STEADY_RULE =
  'load.warmup: auto finds each segment\u2019s warm-up in its own per-second throughput and p50 (log scale), each smoothed by a running median of three: binary segmentation splits the seconds where the means before and after differ most in units of their standard error (noise from the median absolute difference of neighbouring seconds); a split with |z| \u2265 6 is a change of level, so the cut moves past it and the rest is searched again, within the segment\u2019s first half. The cut is the later of the two. The segment settled when the window after the cut shows no trend in throughput or p50: neither a change of 10 % or more from its start to its end (Theil\u2013Sen slope over at most 60 batch means) that is also clear (Mann\u2013Kendall |z| \u2265 3, widened for autocorrelation), nor a step of level of 10 % or more as clear as a cut (|z| \u2265 6, at least 5 s on each side). A segment shorter than 10 s is not cut.'

export type Unsettled = 'trend' | 'short'

/** How one series moved over the measured window. */
export interface WindowTrend {
  /** From its start to its end, relative (Theil–Sen): −0.18 fell 18 %. */
  change: number
  /** Mann–Kendall's z. */
  z: number
  /** Large and clear enough to be a trend. */
  trend: boolean
}

export interface SteadyCut {
  /** Whole seconds from the segment's start left out as its warm-up (0: measured from the start). */
  cut: number
  /** The largest cut the rule may make: half the segment's seconds. */
  cap: number
  /** Seconds the rule looked at. */
  seconds: number
  settled: boolean
  /** Why it did not settle: its window still trends, or it is too short to tell. */
  why: Unsettled | null
  /** How throughput and p50 moved over the measured window. */
  window: { throughput: WindowTrend; p50: WindowTrend }
}

/** A running median of three: one odd second is not a change of level; two in a row, or a step, are kept. */
export function smooth(xs: readonly number[]): number[] {
  return xs.map((x, i) => {
    if (i === 0 || i === xs.length - 1) return x
    const a = xs[i - 1]!
    const b = xs[i + 1]!
    return Math.max(Math.min(a, b), Math.min(Math.max(a, b), x))
  })
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length === 0 ? 0 : s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}

/** σ of a series' seconds from its neighbours' differences (MAD, scaled): a step moves one only. */
export function robustScale(xs: readonly number[]): number {
  const d: number[] = []
  for (let i = 1; i < xs.length; i++) d.push(xs[i]! - xs[i - 1]!)
  const m = median(d)
  return (1.4826 * median(d.map((x) => Math.abs(x - m)))) / Math.SQRT2
}

/** The noise σ the splits are measured in: at least 0.1 % of the level (a series without noise still steps). */
function noiseOf(xs: readonly number[]): number {
  return Math.max(robustScale(xs), 1e-3 * Math.abs(median(xs)), 1e-9)
}

export interface Split {
  /** The first second after the split. */
  at: number
  z: number
  before: number
  after: number
}

/**
 * The clearest split of ys[from..n) with its first second after in [lo, hi]: the largest
 * |mean before − mean after| / (σ √(1/a + 1/b)). Null when no split is allowed or σ is 0.
 */
export function clearestSplit(
  ys: readonly number[],
  sigma: number,
  from: number,
  lo: number,
  hi: number,
): Split | null {
  const n = ys.length
  const prefix: number[] = [0]
  for (let i = from; i < n; i++) prefix.push(prefix[prefix.length - 1]! + ys[i]!)
  const total = prefix[prefix.length - 1]!
  let best: Split | null = null
  for (let t = Math.max(lo, from + 1); t <= Math.min(hi, n - 1); t++) {
    const a = t - from
    const b = n - t
    const before = prefix[a]! / a
    const after = (total - prefix[a]!) / b
    const z = sigma > 0 ? Math.abs(before - after) / (sigma * Math.sqrt(1 / a + 1 / b)) : 0
    if (!best || z > best.z) best = { at: t, z, before, after }
  }
  return best
}

/** The cut of one series: past each clear change of level, within the first `cap` seconds. */
export function seriesCut(xs: readonly number[], cap: number): number {
  const ys = smooth(xs)
  const sigma = noiseOf(xs)
  let cut = 0
  for (;;) {
    const split = clearestSplit(ys, sigma, cut, cut + 1, cap)
    if (!split || split.z < STEADY_Z) return cut
    cut = split.at
  }
}

/** At most `points` batch means of xs, in order (xs itself when it is that short). */
export function batchMeans(xs: readonly number[], points = TREND_POINTS): number[] {
  if (xs.length <= points) return [...xs]
  const out: number[] = []
  for (let b = 0; b < points; b++) {
    const from = Math.floor((b * xs.length) / points)
    const to = Math.floor(((b + 1) * xs.length) / points)
    let s = 0
    for (let i = from; i < to; i++) s += xs[i]!
    out.push(s / (to - from))
  }
  return out
}

/** Theil–Sen's slope: the median of the slopes between every pair of points. */
export function theilSenSlope(xs: readonly number[]): number {
  const slopes: number[] = []
  for (let i = 0; i < xs.length; i++)
    for (let j = i + 1; j < xs.length; j++) slopes.push((xs[j]! - xs[i]!) / (j - i))
  return median(slopes)
}

/**
 * The AR(1) coefficient φ of a series from the lag-1 autocorrelation of its differences, which is
 * −(1 − φ) / 2 whatever the series' level does; kept in [0, 0.9].
 */
export function ar1(xs: readonly number[]): number {
  const d: number[] = []
  for (let i = 1; i < xs.length; i++) d.push(xs[i]! - xs[i - 1]!)
  // Differences that never vary (a straight line) say nothing of the noise: none is assumed.
  if (d.every((x) => x === d[0])) return 0
  return Math.min(0.9, Math.max(0, 1 + 2 * lag1(d)))
}

/** The lag-1 autocorrelation of a series. */
function lag1(xs: readonly number[]): number {
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length
  let num = 0
  let den = 0
  for (let i = 0; i < xs.length; i++) {
    const d = xs[i]! - mean
    den += d * d
    if (i > 0) num += d * (xs[i - 1]! - mean)
  }
  return den > 0 ? num / den : 0
}

/**
 * Mann–Kendall's z, continuity-corrected. Per-second figures are autocorrelated (a slow second is
 * often followed by another), which makes the plain test see trends in noise: its variance is
 * widened for an AR(1) autocorrelation (Yue & Wang 2004), read from the neighbours' differences:
 * a trend or a step in the window would pass for autocorrelation in the points themselves.
 */
export function mannKendallZ(xs: readonly number[]): number {
  const n = xs.length
  if (n < 3) return 0
  let s = 0
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) s += Math.sign(xs[j]! - xs[i]!)
  const rho = ar1(xs)
  let inflation = 1
  for (let k = 1; k < n; k++) inflation += 2 * (1 - k / n) * rho ** k
  const variance = ((n * (n - 1) * (2 * n + 5)) / 18) * inflation
  return s === 0 ? 0 : (s - Math.sign(s)) / Math.sqrt(variance)
}

/** A change of level of at least TREND_MIN_CHANGE inside xs[from..n), clear as a cut's (STEADY_Z). */
export function levelStep(xs: readonly number[], from: number, log: boolean): boolean {
  const split = clearestSplit(smooth(xs), noiseOf(xs), from, from + MIN_SIDE, xs.length - MIN_SIDE)
  if (!split || split.z < STEADY_Z) return false
  const change = log ? Math.expm1(split.after - split.before) : split.after / split.before - 1
  return Math.abs(change) >= TREND_MIN_CHANGE
}

/**
 * How the window xs[from..n) moved: Theil–Sen over its batch means for how much, Mann–Kendall for
 * how clearly; a trend when both say so, or when its level steps (levelStep). `log`: logarithms.
 */
export function windowTrend(xs: readonly number[], from: number, log = false): WindowTrend {
  const window = xs.slice(from)
  const points = batchMeans(window)
  if (points.length < 3) return { change: 0, z: 0, trend: false }
  const span = (theilSenSlope(points) * (points.length - 1) * window.length) / points.length
  const level = median(points)
  const change = log ? Math.expm1(span) : level > 0 ? span / level : 0
  const z = mannKendallZ(points)
  const drifts = Math.abs(change) >= TREND_MIN_CHANGE && Math.abs(z) >= TREND_MIN_Z
  return { change, z, trend: drifts || levelStep(xs, from, log) }
}

/** A second without an answer has no p50: it counts as the slowest second seen (a stall is slow). */
function logP50(p50: readonly (number | null)[]): number[] {
  const known = p50.filter((v): v is number => v !== null && v > 0)
  const worst = known.length ? Math.max(...known) : 1
  return p50.map((v) => Math.log(v !== null && v > 0 ? v : worst))
}

/**
 * Where a segment's steady state starts (STEADY_RULE), from its whole seconds in order:
 * `responses` each second (throughput) and each second's p50 (null: no answer in it).
 */
export function steadyCut(responses: readonly number[], p50: readonly (number | null)[]): SteadyCut {
  const n = Math.min(responses.length, p50.length)
  const cap = Math.floor(n / 2)
  const none: WindowTrend = { change: 0, z: 0, trend: false }
  if (n < STEADY_MIN_SECONDS)
    return { cut: 0, cap, seconds: n, settled: false, why: 'short', window: { throughput: none, p50: none } }
  const thr = responses.slice(0, n)
  const lat = logP50(p50.slice(0, n))
  const cut = Math.max(seriesCut(thr, cap), seriesCut(lat, cap))
  const window = { throughput: windowTrend(thr, cut), p50: windowTrend(lat, cut, true) }
  const why: Unsettled | null = window.throughput.trend || window.p50.trend ? 'trend' : null
  return { cut, cap, seconds: n, settled: why === null, why, window }
}

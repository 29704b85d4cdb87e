// Steady state, found in each segment's own seconds (`load.warmup: auto`): where its per-second
// throughput and p50 reach their level, and whether the measured window after that holds it.
// Pure: the seconds are handed in (the runner's writer thread calls it when a segment ends).
//
// The cut is binary segmentation (Scott & Knott 1974, Vostrikova 1981) with the two-sample t
// statistic of a change in mean: split the seconds where the means before and after differ most
// in units of their standard error (the pooled spread of the two sides: a noisy machine's seconds
// make a change harder to claim, a single odd second spreads its own side); a split clearer than
// STEADY_Z is a change of level. Cut at the change, look again in what is left, until no clear
// change is left in the first half (the cut's limit: a warm-up that takes more than half the
// segment leaves too little to measure). Throughput is tested as it is, p50 as its logarithm
// (latency varies by a factor, not by an amount); the cut is the later of the two. The window
// after the cut holds its level unless it trends: Theil–Sen's slope for how much
// (TREND_MIN_CHANGE from its start to its end) and Mann–Kendall's test for how clearly
// (TREND_MIN_Z; ranks, so one odd second is no trend; or a straight line's slope, TREND_MIN_T,
// for a smooth trend too short for ranks), on at most 60 batch means of its seconds,
// or its level steps by as much as clearly as a cut would need (a pause of many seconds); and a
// cut that reached its limit says the level was still moving when half the segment had gone.
// engine/metrics/steady.test.ts shows the rule right by simulation: flat seconds, warm-up steps,
// a JIT-like approach and trends that never settle, each over 1,000 noisy series; and
// engine/runner/warmup.slow.test.ts against targets whose warm-up it sets.

/** A segment shorter than this (whole seconds) is not cut: too few seconds to tell a level. */
export const STEADY_MIN_SECONDS = 10
/** A split this clear (two-sample |t|) is a change of level. */
export const STEADY_Z = 4.5
/** A trend must change the window by at least this much from its start to its end (or a step of level by this much), relative… */
export const TREND_MIN_CHANGE = 0.1
/** …and be this clear (Mann–Kendall |z|, two-sided p ≈ 0.003 for independent seconds). */
export const TREND_MIN_Z = 3
/** …or this clear as a straight line (its slope's t: a smooth trend shows in a few seconds). */
export const TREND_MIN_T = 6
/** The trend test works on at most this many points (batch means of the window's seconds). */
const TREND_POINTS = 60
/** Seconds on each side of a step of level inside the measured window. */
const MIN_SIDE = 3

export const STEADY_RULE =
  'load.warmup: auto finds each segment\u2019s warm-up in its own per-second throughput and p50 (log scale): binary segmentation splits the seconds where the means before and after differ most in units of their standard error (two-sample t, the two sides\u2019 pooled spread); a split with |t| \u2265 4.5 is a change of level, so the cut moves past it and the rest is searched again, within the segment\u2019s first half. The cut is the later of the two. The segment settled when the window after the cut shows no trend in throughput or p50: neither a change of 10 % or more from its start to its end (Theil\u2013Sen slope over at most 60 batch means) that is also clear (Mann\u2013Kendall |z| \u2265 3, widened for autocorrelation, or a least-squares slope with |t| \u2265 6), nor a step of level of 10 % or more as clear as a cut (|t| \u2265 4.5, at least 3 s on each side); and a cut at its limit (half the segment) means the level was not reached. A segment shorter than 10 s is not cut.'

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

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length === 0 ? 0 : s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}

export interface Split {
  /** The first second after the split. */
  at: number
  z: number
  before: number
  after: number
}

/**
 * The clearest split of xs[from..n) with its first second after in [lo, hi]: the largest two-sample
 * t, |mean before − mean after| / (s √(1/a + 1/b)), s the two sides' pooled standard deviation (at
 * least 0.1 % of the level: a series without noise still steps). Null when no split is allowed.
 */
export function clearestSplit(xs: readonly number[], from: number, lo: number, hi: number): Split | null {
  const n = xs.length
  const sum: number[] = [0]
  const sumSq: number[] = [0]
  for (let i = from; i < n; i++) {
    sum.push(sum[sum.length - 1]! + xs[i]!)
    sumSq.push(sumSq[sumSq.length - 1]! + xs[i]! * xs[i]!)
  }
  const total = sum[sum.length - 1]!
  const totalSq = sumSq[sumSq.length - 1]!
  const floor = Math.max(1e-3 * Math.abs(total / (n - from)), 1e-9)
  let best: Split | null = null
  for (let t = Math.max(lo, from + 1); t <= Math.min(hi, n - 1); t++) {
    const a = t - from
    const b = n - t
    const before = sum[a]! / a
    const after = (total - sum[a]!) / b
    const within = sumSq[a]! - a * before * before + (totalSq - sumSq[a]!) - b * after * after
    const s = Math.max(floor, Math.sqrt(Math.max(0, within) / Math.max(1, a + b - 2)))
    const z = Math.abs(before - after) / (s * Math.sqrt(1 / a + 1 / b))
    if (!best || z > best.z) best = { at: t, z, before, after }
  }
  return best
}

/** The cut of one series: past each clear change of level, within the first `cap` seconds. */
export function seriesCut(xs: readonly number[], cap: number): number {
  let cut = 0
  for (;;) {
    const split = clearestSplit(xs, cut, cut + 1, cap)
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
 * widened by the lag-1 autocorrelation of the points about their Theil–Sen line (Yue & Wang 2004,
 * AR(1) form).
 */
export function mannKendallZ(xs: readonly number[]): number {
  const n = xs.length
  if (n < 3) return 0
  let s = 0
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) s += Math.sign(xs[j]! - xs[i]!)
  const slope = theilSenSlope(xs)
  const rho = Math.max(0, lag1(xs.map((x, i) => x - slope * i)))
  let inflation = 1
  for (let k = 1; k < n; k++) inflation += 2 * (1 - k / n) * rho ** k
  const variance = ((n * (n - 1) * (2 * n + 5)) / 18) * inflation
  return s === 0 ? 0 : (s - Math.sign(s)) / Math.sqrt(variance)
}

/** A change of level of at least TREND_MIN_CHANGE inside xs[from..n), as clear as a cut's (STEADY_Z). */
export function levelStep(xs: readonly number[], from: number, log: boolean): boolean {
  const split = clearestSplit(xs, from, from + MIN_SIDE, xs.length - MIN_SIDE)
  if (!split || split.z < STEADY_Z) return false
  const change = log ? Math.expm1(split.after - split.before) : split.after / split.before - 1
  return Math.abs(change) >= TREND_MIN_CHANGE
}

/**
 * The t statistic of a least-squares line's slope through the points: a smooth trend with little
 * noise about it is clear in a few seconds, where Mann–Kendall's ranks of 8 points are not.
 */
export function olsT(ys: readonly number[]): number {
  const n = ys.length
  const mx = (n - 1) / 2
  const my = ys.reduce((a, b) => a + b, 0) / n
  let sxx = 0
  let sxy = 0
  for (let i = 0; i < n; i++) {
    sxx += (i - mx) ** 2
    sxy += (i - mx) * (ys[i]! - my)
  }
  const b = sxy / sxx
  let sse = 0
  for (let i = 0; i < n; i++) sse += (ys[i]! - my - b * (i - mx)) ** 2
  const se = Math.sqrt(sse / Math.max(1, n - 2) / sxx)
  if (se > 0) return b / se
  return b === 0 ? 0 : Math.sign(b) * Infinity
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
  const t = olsT(points)
  const clear = Math.abs(z) >= TREND_MIN_Z || Math.abs(t) >= TREND_MIN_T
  const drifts = Math.abs(change) >= TREND_MIN_CHANGE && clear
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
  // A cut at its limit: the level was still moving when half the segment had gone.
  const why: Unsettled | null = window.throughput.trend || window.p50.trend || cut >= cap ? 'trend' : null
  return { cut, cap, seconds: n, settled: why === null, why, window }
}

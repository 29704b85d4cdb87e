// The statistics behind compare.ts: Student's t distribution and the two intervals a comparison
// uses. Both work on logarithms, so an interval on the log scale becomes an interval on the ratio
// (exp of its bounds), and "significant" (the interval excludes ratio 1) can never contradict it.
// - pairedLogRatio: round i of A against round i of B (interleaved rounds of one run), a t-interval
//   on the mean of the per-round log-ratios, n − 1 degrees of freedom.
// - welchLogRatio: unpaired rounds (runs at different times, different counts), Welch's interval
//   on the difference of the mean log values, Welch–Satterthwaite degrees of freedom.
// - pairedDifference / welchDifference: the same on raw values, for error rates (often 0).

/** ln Γ(x) for x > 0 (Lanczos, g = 7, 9 coefficients: ~15 significant digits). */
export function logGamma(x: number): number {
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ]
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x)
  const z = x - 1
  let a = c[0]!
  const t = z + 7.5
  for (let i = 1; i < 9; i++) a += c[i]! / (z + i)
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a)
}

/** Continued fraction of the incomplete beta function (modified Lentz). */
function betaContinuedFraction(a: number, b: number, x: number): number {
  const tiny = 1e-300
  let c = 1
  let d = 1 - ((a + b) * x) / (a + 1)
  if (Math.abs(d) < tiny) d = tiny
  d = 1 / d
  let h = d
  for (let m = 1; m <= 500; m++) {
    const m2 = 2 * m
    let aa = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2))
    d = 1 + aa * d
    if (Math.abs(d) < tiny) d = tiny
    c = 1 + aa / c
    if (Math.abs(c) < tiny) c = tiny
    d = 1 / d
    h *= d * c
    aa = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1))
    d = 1 + aa * d
    if (Math.abs(d) < tiny) d = tiny
    c = 1 + aa / c
    if (Math.abs(c) < tiny) c = tiny
    d = 1 / d
    const delta = d * c
    h *= delta
    if (Math.abs(delta - 1) < 1e-15) break
  }
  return h
}

/** The regularized incomplete beta function I_x(a, b). */
export function incompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0
  if (x >= 1) return 1
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x))
  // The continued fraction converges fast for x < (a + 1) / (a + b + 2); use the symmetry otherwise.
  return x < (a + 1) / (a + b + 2)
    ? (front * betaContinuedFraction(a, b, x)) / a
    : 1 - (front * betaContinuedFraction(b, a, 1 - x)) / b
}

/** P(T ≤ t) for Student's t with df degrees of freedom (df may be fractional: Welch). */
export function tCdf(t: number, df: number): number {
  const tail = 0.5 * incompleteBeta(df / (df + t * t), df / 2, 0.5)
  return t >= 0 ? 1 - tail : tail
}

/**
 * Quantiles already computed for whole degrees of freedom (paired rounds): a run that stops when
 * precise asks for the same few after every round, and the simulation of its rule thousands of times.
 */
const quantiles = new Map<string, number>()

/** The p-quantile of Student's t (0 < p < 1), by bisection on the CDF. */
export function tQuantile(p: number, df: number): number {
  if (!Number.isInteger(df) || df > 10_000) return tQuantileOf(p, df)
  const key = `${p}:${df}`
  let q = quantiles.get(key)
  if (q === undefined) quantiles.set(key, (q = tQuantileOf(p, df)))
  return q
}

function tQuantileOf(p: number, df: number): number {
  if (!(p > 0 && p < 1) || !(df > 0)) throw new RangeError(`tQuantile(${p}, ${df})`)
  if (p === 0.5) return 0
  if (p < 0.5) return -tQuantileOf(1 - p, df)
  let lo = 0
  let hi = 1
  while (tCdf(hi, df) < p) hi *= 2
  for (let i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
    const mid = (lo + hi) / 2
    if (tCdf(mid, df) < p) lo = mid
    else hi = mid
  }
  return (lo + hi) / 2
}

export interface Interval {
  /** The estimate: mean log-ratio (log methods) or mean difference. */
  estimate: number
  lo: number
  hi: number
  df: number
  /** Observations on each side (pairs count once on both). */
  n: [number, number]
}

const mean = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length
const variance = (xs: readonly number[]): number => {
  const m = mean(xs)
  return xs.reduce((s, x) => s + (x - m) ** 2, 0) / (xs.length - 1)
}

/** A two-sided t-interval of the mean of xs at `level`; null with fewer than 2 values. */
export function tInterval(xs: readonly number[], level = 0.95): Interval | null {
  if (xs.length < 2) return null
  const m = mean(xs)
  const df = xs.length - 1
  const half = tQuantile(1 - (1 - level) / 2, df) * Math.sqrt(variance(xs) / xs.length)
  return { estimate: m, lo: m - half, hi: m + half, df, n: [xs.length, xs.length] }
}

/** Welch's interval of mean(b) − mean(a); null unless both sides have 2+ values. */
export function welchInterval(a: readonly number[], b: readonly number[], level = 0.95): Interval | null {
  if (a.length < 2 || b.length < 2) return null
  const va = variance(a) / a.length
  const vb = variance(b) / b.length
  const diff = mean(b) - mean(a)
  const se = Math.sqrt(va + vb)
  if (se === 0)
    return { estimate: diff, lo: diff, hi: diff, df: a.length + b.length - 2, n: [a.length, b.length] }
  // Welch–Satterthwaite; a side without spread contributes no degrees of freedom of its own.
  const df =
    (va + vb) ** 2 / ((va > 0 ? va ** 2 / (a.length - 1) : 0) + (vb > 0 ? vb ** 2 / (b.length - 1) : 0))
  const half = tQuantile(1 - (1 - level) / 2, df) * se
  return { estimate: diff, lo: diff - half, hi: diff + half, df, n: [a.length, b.length] }
}

/** Paired rounds: t-interval of mean(ln(b_i / a_i)). Values must be > 0. */
export function pairedLogRatio(a: readonly number[], b: readonly number[], level = 0.95): Interval | null {
  if (a.length !== b.length) throw new RangeError('paired rounds need equal counts')
  return tInterval(
    a.map((x, i) => Math.log(b[i]! / x)),
    level,
  )
}

/** Unpaired rounds: Welch's interval of mean(ln b) − mean(ln a). Values must be > 0. */
export function welchLogRatio(a: readonly number[], b: readonly number[], level = 0.95): Interval | null {
  return welchInterval(a.map(Math.log), b.map(Math.log), level)
}

/**
 * Yuen's interval of the `trim` trimmed mean of xs (Yuen 1974; Wilcox, "Introduction to Robust
 * Estimation and Hypothesis Testing"): the mean of the values left once the lowest and highest
 * ⌊trim·n⌋ are set aside, its standard error from the winsorized variance, h − 1 degrees of
 * freedom (h values kept). Below 5 values nothing is trimmed (trim 0.2), and it is tInterval.
 */
export function yuenInterval(xs: readonly number[], level = 0.95, trim = 0.2): Interval | null {
  const n = xs.length
  const g = Math.floor(trim * n)
  const h = n - 2 * g
  if (n < 2 || h < 2) return null
  if (g === 0) return tInterval(xs, level)
  const s = [...xs].sort((x, y) => x - y)
  const kept = s.slice(g, n - g)
  const m = mean(kept)
  const winsorized = s.map((v, i) => (i < g ? s[g]! : i >= n - g ? s[n - g - 1]! : v))
  const se = Math.sqrt(variance(winsorized)) / ((1 - (2 * g) / n) * Math.sqrt(n))
  const half = tQuantile(1 - (1 - level) / 2, h - 1) * se
  return { estimate: m, lo: m - half, hi: m + half, df: h - 1, n: [n, n] }
}

/** Paired rounds, robustly: Yuen's interval of the trimmed mean of ln(b_i / a_i). Values must be > 0. */
export function pairedTrimmedLogRatio(
  a: readonly number[],
  b: readonly number[],
  level = 0.95,
  trim = 0.2,
): Interval | null {
  if (a.length !== b.length) throw new RangeError('paired rounds need equal counts')
  return yuenInterval(
    a.map((x, i) => Math.log(b[i]! / x)),
    level,
    trim,
  )
}

/** Paired rounds on the raw scale: t-interval of mean(b_i − a_i). */
export function pairedDifference(a: readonly number[], b: readonly number[], level = 0.95): Interval | null {
  if (a.length !== b.length) throw new RangeError('paired rounds need equal counts')
  return tInterval(
    a.map((x, i) => b[i]! - x),
    level,
  )
}

export { welchInterval as welchDifference }

/** exp(mean(ln x)): the geometric mean, the centre a log-ratio's estimate refers to. */
export function geometricMean(xs: readonly number[]): number {
  return Math.exp(mean(xs.map(Math.log)))
}

export function arithmeticMean(xs: readonly number[]): number {
  return mean(xs)
}

// The statistics behind compare.ts: a seeded bootstrap of a relative difference and the
// Mann-Whitney U test (exact distribution, or the normal approximation with ties).
export const DEFAULT_RESAMPLES = 2000
export const DEFAULT_SEED = 0x5eed_c0de

/** mulberry32: a seeded PRNG in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** 95 % percentile-bootstrap interval of 100 * (mean(other) / mean(base) - 1); null when undefined. */
export function bootstrapRelativeDiff(
  base: readonly number[],
  other: readonly number[],
  opts: { resamples?: number; seed?: number; level?: number } = {},
): [number, number] | null {
  if (base.length === 0 || other.length === 0) return null
  const rand = seededRandom(opts.seed ?? DEFAULT_SEED)
  const draw = (xs: readonly number[]): number => {
    let sum = 0
    for (let i = 0; i < xs.length; i++) sum += xs[Math.floor(rand() * xs.length)] ?? 0
    return sum / xs.length
  }
  const diffs: number[] = []
  for (let i = 0; i < (opts.resamples ?? DEFAULT_RESAMPLES); i++) {
    const b = draw(base)
    const o = draw(other)
    if (b !== 0) diffs.push(100 * (o / b - 1))
  }
  // A baseline that resamples to 0 too often (error rates of 0) has no meaningful ratio.
  if (diffs.length < (opts.resamples ?? DEFAULT_RESAMPLES) * 0.95) return null
  diffs.sort((x, y) => x - y)
  const tail = (1 - (opts.level ?? 0.95)) / 2
  const at = (q: number): number =>
    diffs[Math.min(diffs.length - 1, Math.max(0, Math.round(q * (diffs.length - 1))))] ?? 0
  return [at(tail), at(1 - tail)]
}

/** Number of arrangements with each U, for sample sizes m and n without ties (U from 0 to m*n). */
function exactUCounts(m: number, n: number): Float64Array {
  // f(i, j) = f(i-1, j) shifted by j + f(i, j-1): the largest value is either from the first sample
  // (it beats all j of the second) or from the second (it beats none).
  let prev: Float64Array[] = Array.from({ length: n + 1 }, () => Float64Array.of(1))
  for (let i = 1; i <= m; i++) {
    const cur: Float64Array[] = [Float64Array.of(1)]
    for (let j = 1; j <= n; j++) {
      const row = new Float64Array(i * j + 1)
      const a = prev[j] ?? new Float64Array(0)
      const b = cur[j - 1] ?? new Float64Array(0)
      a.forEach((c, u) => (row[u + j] = (row[u + j] ?? 0) + c))
      b.forEach((c, u) => (row[u] = (row[u] ?? 0) + c))
      cur.push(row)
    }
    prev = cur
  }
  return prev[n] ?? Float64Array.of(1)
}

/** The smallest two-sided exact p-value m and n rounds can give: 2 / C(m + n, m). */
export function smallestExactP(m: number, n: number): number {
  let c = 1
  for (let k = 1; k <= m; k++) c = (c * (n + k)) / k
  return Math.min(1, 2 / c)
}

function normalCdf(z: number): number {
  // Abramowitz-Stegun 7.1.26 erf approximation (|error| < 1.5e-7).
  const x = Math.abs(z) / Math.SQRT2
  const t = 1 / (1 + 0.3275911 * x)
  const erf =
    1 -
    ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) *
      t *
      Math.exp(-x * x)
  return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2
}

export interface MannWhitney {
  u: number
  p: number
  method: 'exact' | 'normal'
}

/** Two-sided Mann-Whitney U test; U counts pairs where a > b (ties count 1/2). */
export function mannWhitneyU(a: readonly number[], b: readonly number[]): MannWhitney {
  const m = a.length
  const n = b.length
  if (m === 0 || n === 0) return { u: 0, p: 1, method: 'exact' }
  const all = [...a.map((v) => ({ v, first: true })), ...b.map((v) => ({ v, first: false }))].sort(
    (x, y) => x.v - y.v,
  )
  let rankSumA = 0
  let tieTerm = 0
  for (let i = 0; i < all.length;) {
    let j = i
    while (j < all.length && all[j]?.v === all[i]?.v) j++
    const rank = (i + 1 + j) / 2
    for (let k = i; k < j; k++) if (all[k]?.first) rankSumA += rank
    tieTerm += (j - i) ** 3 - (j - i)
    i = j
  }
  const u = rankSumA - (m * (m + 1)) / 2
  if (tieTerm === 0 && m <= 20 && n <= 20) {
    const counts = exactUCounts(m, n)
    const total = counts.reduce((s, c) => s + c, 0)
    let low = 0
    let high = 0
    counts.forEach((c, k) => {
      if (k <= u) low += c
      if (k >= u) high += c
    })
    return { u, p: Math.min(1, (2 * Math.min(low, high)) / total), method: 'exact' }
  }
  const N = m + n
  const sigma = Math.sqrt(((m * n) / 12) * (N + 1 - tieTerm / (N * (N - 1))))
  if (sigma === 0) return { u, p: 1, method: 'normal' }
  const z = Math.max(0, Math.abs(u - (m * n) / 2) - 0.5) / sigma
  return { u, p: Math.min(1, 2 * (1 - normalCdf(z))), method: 'normal' }
}

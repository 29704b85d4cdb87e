// Rounds overlaid: every round of a target aligned at its own start and drawn as one line (the
// mean of the rounds at each second) with a band from the lowest to the highest round, instead of
// a legend entry per round. Pure functions, called inside useMemo.
import type { SeriesPoint } from '#engine/api/types.ts'

/** The band's column for a series key. */
export const bandKey = (key: string): string => `${key}\u0000band`

/** A chart row: t, a value per series, and a [low, high] pair per band. */
export type BandRow = { t: number } & Record<string, number | [number, number] | null>

/**
 * Rows by second since each round's start (t = 0 is every round's first second): per series key,
 * the mean over the rounds that have a value at that second, and with two or more such rounds the
 * band [lowest, highest]. A second where no round has a value (no response: no latency) is null.
 */
export function roundBands<P extends Pick<SeriesPoint, 'target' | 'round' | 't'>>(
  points: readonly P[],
  value: (p: P) => number | null,
  keyOf: (p: P) => string = (p) => p.target,
  suffix = '',
): BandRow[] {
  // Each (series, round)'s first second.
  const starts = new Map<string, number>()
  for (const p of points) {
    const k = `${keyOf(p)}\u0000${p.round}`
    starts.set(k, Math.min(starts.get(k) ?? Infinity, p.t))
  }
  const cells = new Map<number, Map<string, (number | null)[]>>()
  for (const p of points) {
    const offset = p.t - (starts.get(`${keyOf(p)}\u0000${p.round}`) ?? p.t)
    const row = cells.get(offset) ?? new Map<string, (number | null)[]>()
    const key = keyOf(p) + suffix
    row.set(key, [...(row.get(key) ?? []), value(p)])
    cells.set(offset, row)
  }
  const rows: BandRow[] = []
  for (const [t, byKey] of cells) {
    const row: BandRow = { t }
    for (const [key, vs] of byKey) {
      const values = vs.filter((v): v is number => v !== null)
      row[key] = values.length ? values.reduce((s, v) => s + v, 0) / values.length : null
      if (values.length >= 2) row[bandKey(key)] = [Math.min(...values), Math.max(...values)]
    }
    rows.push(row)
  }
  return rows.sort((a, b) => a.t - b.t)
}

/** Merge several band pivots (p50 and p99 of each target, say) into one row per second. */
export function mergeBandRows(...sets: readonly BandRow[][]): BandRow[] {
  const rows = new Map<number, BandRow>()
  for (const set of sets) for (const r of set) rows.set(r.t, { ...(rows.get(r.t) ?? { t: r.t }), ...r })
  return [...rows.values()].sort((a, b) => a.t - b.t)
}

/** Do any of these points come from more than one round of the same series? */
export function hasRounds<P extends Pick<SeriesPoint, 'target' | 'round'>>(
  points: readonly P[],
  keyOf: (p: P) => string = (p) => p.target,
): boolean {
  const seen = new Map<string, number>()
  for (const p of points) {
    const k = keyOf(p)
    const r = seen.get(k)
    if (r === undefined) seen.set(k, p.round)
    else if (r !== p.round) return true
  }
  return false
}

// Downsampling a per-second series for charts. A long run has more seconds than a chart has
// pixels; buckets of consecutive seconds become one point per (target, round):
// - rates (connections, requests, errors, bytes per second) are averaged, so the unit stays "per
//   second" and the area under the curve is kept;
// - mean and p50 are request-weighted averages (typical values);
// - p90, p95, p99, p99.9 and max take the bucket's maximum: averaging tail percentiles would hide
//   exactly the spikes a user looks for, so a bucket's p99 is never lower than any of its seconds';
// - generator CPU takes the maximum: one saturated second is enough to distrust the bucket.
import type { ErrorCounts, ErrorKind, SeriesPoint } from '../api/types.ts'

type Kind = Exclude<ErrorKind, 'none'>

function mergeBucket(bucket: readonly SeriesPoint[]): SeriesPoint {
  const first = bucket[0]
  if (!first) throw new RangeError('empty bucket')
  const n = bucket.length
  let connections = 0
  let requests = 0
  let errors = 0
  let bytes = 0
  let weightedMean = 0
  let weightedP50 = 0
  let plainMean = 0
  let plainP50 = 0
  let p90 = 0
  let p95 = 0
  let p99 = 0
  let p999 = 0
  let max = 0
  let cpu: number | null = null
  const kinds: Partial<Record<Kind, number>> = {}
  for (const p of bucket) {
    connections += p.connections
    requests += p.requests
    errors += p.errors
    bytes += p.bytes
    weightedMean += p.mean * p.requests
    weightedP50 += p.p50 * p.requests
    plainMean += p.mean
    plainP50 += p.p50
    p90 = Math.max(p90, p.p90)
    p95 = Math.max(p95, p.p95)
    p99 = Math.max(p99, p.p99)
    p999 = Math.max(p999, p.p999)
    max = Math.max(max, p.max)
    if (p.generatorCpu !== null) cpu = Math.max(cpu ?? 0, p.generatorCpu)
    for (const [kind, count] of Object.entries(p.errorsByKind) as [Kind, number][])
      kinds[kind] = (kinds[kind] ?? 0) + count
  }
  const errorsByKind: ErrorCounts = {}
  for (const [kind, count] of Object.entries(kinds) as [Kind, number][]) errorsByKind[kind] = count / n
  return {
    target: first.target,
    round: first.round,
    t: first.t,
    phase: first.phase,
    connections: connections / n,
    requests: requests / n,
    errors: errors / n,
    errorsByKind,
    bytes: bytes / n,
    mean: requests > 0 ? weightedMean / requests : plainMean / n,
    p50: requests > 0 ? weightedP50 / requests : plainP50 / n,
    p90,
    p95,
    p99,
    p999,
    max,
    generatorCpu: cpu,
  }
}

function downsampleGroup(group: readonly SeriesPoint[], maxPoints: number, out: SeriesPoint[]): void {
  if (group.length <= maxPoints) {
    out.push(...group)
    return
  }
  const size = Math.ceil(group.length / maxPoints)
  for (let i = 0; i < group.length; i += size) out.push(mergeBucket(group.slice(i, i + size)))
}

/**
 * At most `maxPoints` points per (target, round). Input is ordered by target, round and t (as the
 * store returns it); each (target, round) run of rows is one group.
 */
export function downsampleSeries(points: readonly SeriesPoint[], maxPoints: number): SeriesPoint[] {
  if (!Number.isInteger(maxPoints) || maxPoints < 1)
    throw new RangeError(`maxPoints must be a whole number ≥ 1, got ${maxPoints}`)
  const out: SeriesPoint[] = []
  let start = 0
  for (let i = 1; i <= points.length; i++) {
    const prev = points[i - 1]
    const cur = points[i]
    if (!cur || !prev || cur.target !== prev.target || cur.round !== prev.round) {
      downsampleGroup(points.slice(start, i), maxPoints, out)
      start = i
    }
  }
  return out
}

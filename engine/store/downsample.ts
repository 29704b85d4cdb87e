// Downsampling a per-second series for charts. A long run has more seconds than a chart has
// pixels; buckets of consecutive seconds become one point per (target, round):
// - rates (connections, requests, responses, errors, bytes per second) are averaged, so the unit stays "per
//   second" and the area under the curve is kept;
// - mean and p50 are averages weighted by responses (typical values); a bucket without a response
//   has no latency (null), as a second without one has none;
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
  let responses = 0
  let errors = 0
  let bytes = 0
  let weightedMean = 0
  let weightedP50 = 0
  let p90: number | null = null
  let p95: number | null = null
  let p99: number | null = null
  let p999: number | null = null
  let max: number | null = null
  let cpu: number | null = null
  const kinds: Partial<Record<Kind, number>> = {}
  const top = (a: number | null, b: number | null) => (b === null ? a : a === null ? b : Math.max(a, b))
  for (const p of bucket) {
    connections += p.connections
    requests += p.requests
    responses += p.responses
    errors += p.errors
    bytes += p.bytes
    // Weighted by responses: a second without one has no latency and weighs nothing.
    if (p.responses > 0) {
      weightedMean += (p.mean ?? 0) * p.responses
      weightedP50 += (p.p50 ?? 0) * p.responses
    }
    p90 = top(p90, p.p90)
    p95 = top(p95, p.p95)
    p99 = top(p99, p.p99)
    p999 = top(p999, p.p999)
    max = top(max, p.max)
    if (p.generatorCpu !== null) cpu = Math.max(cpu ?? 0, p.generatorCpu)
    for (const [kind, count] of Object.entries(p.errorsByKind) as [Kind, number][])
      kinds[kind] = (kinds[kind] ?? 0) + count
  }
  const errorsByKind: ErrorCounts = {}
  for (const [kind, count] of Object.entries(kinds) as [Kind, number][]) errorsByKind[kind] = count / n
  const answered = responses > 0
  return {
    target: first.target,
    round: first.round,
    t: first.t,
    phase: first.phase,
    connections: connections / n,
    requests: requests / n,
    responses: responses / n,
    errors: errors / n,
    errorsByKind,
    bytes: bytes / n,
    mean: answered ? weightedMean / responses : null,
    p50: answered ? weightedP50 / responses : null,
    p90: answered ? p90 : null,
    p95: answered ? p95 : null,
    p99: answered ? p99 : null,
    p999: answered ? p999 : null,
    max: answered ? max : null,
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

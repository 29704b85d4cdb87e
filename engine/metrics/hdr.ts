// HDR histograms in microseconds: lossless and mergeable (runs are merged and compared long after
// they ran), exact to 3 significant digits. The WASM build records in ~23 ns a value (the JS Int32
// build ~47 ns, measured with hdr-histogram-js 3.0.1); it needs one async init per thread.
import * as hdr from 'hdr-histogram-js'
import type { Histogram } from 'hdr-histogram-js'
import type { LatencyStats } from '../api/types.ts'

export type { Histogram }

/** One hour in µs: anything slower is clamped (a timeout is far below this). */
export const HIGHEST_US = 3_600_000_000

let wasmReady: Promise<void> | null = null
let useWasm = false

export function initHdr(): Promise<void> {
  wasmReady ??= hdr.initWebAssembly().then(
    () => {
      useWasm = true
    },
    () => {
      useWasm = false // the JS build is slower but exact: the numbers do not change
    },
  )
  return wasmReady
}

export function newHistogram(): Histogram {
  return hdr.build({
    bitBucketSize: 32,
    useWebAssembly: useWasm,
    lowestDiscernibleValue: 1,
    highestTrackableValue: HIGHEST_US,
    numberOfSignificantValueDigits: 3,
  })
}

export function record(h: Histogram, us: number): void {
  h.recordValue(us < 1 ? 1 : us > HIGHEST_US ? HIGHEST_US : Math.round(us))
}

export const EMPTY_STATS: LatencyStats = Object.freeze({
  count: 0,
  min: 0,
  mean: 0,
  stddev: 0,
  p50: 0,
  p90: 0,
  p95: 0,
  p99: 0,
  p999: 0,
  max: 0,
})

/**
 * The exact smallest and largest recorded values. A decoded histogram knows only their buckets
 * (its max is the top of the max's bucket), so merges of encoded histograms carry them alongside.
 */
export interface Extremes {
  min: number
  max: number
}

/** A histogram's own extremes; null when it is empty. */
export function extremesOf(h: Histogram): Extremes | null {
  return h.totalCount > 0 ? { min: h.minNonZeroValue, max: h.maxValue } : null
}

/**
 * Percentiles from the same histogram are monotone by construction (HDR walks one CDF). HDR
 * reports a percentile as the highest value of its bucket, which can lie above the recorded
 * maximum (71 423 against a max of 71 397): clamped, so p99.9 ≤ max holds as it must.
 */
export function latencyStats(h: Histogram, exact?: Extremes): LatencyStats {
  const count = h.totalCount
  if (count === 0) return { ...EMPTY_STATS }
  const max = exact?.max ?? h.maxValue
  const at = (p: number) => Math.min(h.getValueAtPercentile(p), max)
  return {
    count,
    min: exact?.min ?? h.minNonZeroValue,
    mean: h.mean,
    stddev: h.stdDeviation,
    p50: at(50),
    p90: at(90),
    p95: at(95),
    p99: at(99),
    p999: at(99.9),
    max,
  }
}

export function encodeHistogram(h: Histogram): string {
  return hdr.encodeIntoCompressedBase64(h)
}

export function decodeHistogram(encoded: string): Histogram {
  return hdr.decodeFromCompressedBase64(encoded, 32, useWasm)
}

/** Merge encoded histograms (rounds of one target, say) into one. */
export function mergeEncoded(encoded: readonly string[]): Histogram {
  const total = newHistogram()
  for (const e of encoded) {
    const h = decodeHistogram(e)
    total.add(h)
    h.destroy()
  }
  return total
}

// The latency axis of the distribution chart: on a linear axis from 0, a 1.4 ms and a 3.5 ms
// median sit 2 px apart under a 120 ms tail (issue 19), so the chart offers a log axis, from the
// decade below the fastest value to the decade above the slowest, and opens on it.

export type Scale = 'log' | 'linear'

export interface LogAxis {
  domain: [number, number]
  ticks: number[]
}

/** Ticks at 1, 2 and 5 of each decade; over more than 3 decades, the decades alone. */
function decadeTicks(lo: number, hi: number): number[] {
  const decades = Math.round(Math.log10(hi / lo))
  const steps = decades > 3 ? [1] : [1, 2, 5]
  const ticks: number[] = []
  for (let d = 0; d <= decades; d++)
    for (const m of steps) {
      const t = Number((lo * 10 ** d * m).toPrecision(12))
      if (t <= hi * (1 + 1e-9)) ticks.push(t)
    }
  return ticks
}

/** The log axis over these values (ms), or null when none is positive. */
export function logAxis(values: Iterable<number>): LogAxis | null {
  let min = Infinity
  let max = -Infinity
  for (const v of values)
    if (v > 0 && Number.isFinite(v)) {
      min = Math.min(min, v)
      max = Math.max(max, v)
    }
  if (min === Infinity) return null
  const lo = 10 ** Math.floor(Math.log10(min))
  const top = 10 ** Math.ceil(Math.log10(max))
  const hi = top > lo ? top : lo * 10
  return { domain: [lo, hi], ticks: decadeTicks(lo, hi) }
}

/** Where `v` sits on an axis, from 0 (bottom) to 1 (top). */
export function axisShare(v: number, scale: Scale, domain: readonly [number, number]): number {
  const [lo, hi] = domain
  return scale === 'log' ? Math.log(v / lo) / Math.log(hi / lo) : (v - lo) / (hi - lo)
}

/** Every value of chart rows but their x (`t`): numbers and the ends of [low, high] bands. */
export function rowValues(rows: readonly Record<string, unknown>[]): number[] {
  const out: number[] = []
  for (const row of rows)
    for (const [k, v] of Object.entries(row)) {
      if (k === 't') continue
      if (typeof v === 'number') out.push(v)
      else if (Array.isArray(v)) for (const x of v) if (typeof x === 'number') out.push(x)
    }
  return out
}

// The latency distribution's x axis, in "nines": x = log10(1 / (1 − q)), so 0.30 is p50, 1 p90, 2 p99
// … 5 p99.999. Pure constants and arithmetic (no histogram library): the app's chart imports them.

/** The axis: from the median to the 99.999th percentile. */
export const NINES_FROM = Math.log10(2)
export const NINES_TO = 5
/** The curve's resolution along x: a point every 0.05 nines. */
export const NINES_STEP = 0.05

/** The percentile (0-100) at x nines. */
export function percentileAt(x: number): number {
  return 100 * (1 - 10 ** -x)
}

/** The axis' ticks, in nines, with their labels as percentiles. */
export const NINES_TICKS: readonly { value: number; label: string }[] = [
  { value: NINES_FROM, label: '50' },
  { value: 1, label: '90' },
  { value: 2, label: '99' },
  { value: 3, label: '99.9' },
  { value: 4, label: '99.99' },
  { value: 5, label: '99.999' },
]

// Display formatting. Engine figures are microseconds, requests/s and bytes; the UI shows
// milliseconds with two decimals, rounded as the engine's words round them.
import { msRounded } from '#engine/metrics/units.ts'

const nf0 = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 })
const nf1 = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 })
const rate1 = new Intl.NumberFormat(undefined, { minimumFractionDigits: 1, maximumFractionDigits: 1 })

const ms2 = new Intl.NumberFormat(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 })

/**
 * A latency in ms with two decimals, rounded once as the CLI and the report round it
 * (engine/metrics/units.ts msRounded): the same p50 reads the same on every screen.
 */
export function ms(us: number | null | undefined): string {
  if (us === null || us === undefined || !Number.isFinite(us)) return '–'
  return `${ms2.format(msRounded(us))} ms`
}

/** A latency's ms as a number for a chart, rounded as `ms` words it. */
export function msValue(us: number): number {
  return msRounded(us)
}

export function count(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '–'
  return nf0.format(n)
}

/** Requests per second with one decimal, as the CLI's table and the report print them. */
export function rate(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '–'
  return `${rate1.format(n)} req/s`
}

export function percent(n: number | null | undefined, digits = 1): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '–'
  // A small but non-zero share must not read as 0.0 %.
  const d = n !== 0 && Math.abs(n) < 10 ** -digits ? digits + 2 : digits
  return `${n.toFixed(d)} %`
}

export function bytes(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '–'
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB']
  let v = n
  let i = 0
  while (Math.abs(v) >= 1024 && i < units.length - 1) {
    v /= 1024
    i++
  }
  return `${i === 0 ? nf0.format(v) : nf1.format(v)} ${units[i]}`
}

export function duration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return '–'
  const s = Math.max(0, Math.round(seconds))
  const h = Math.floor(s / 3600)
  const m = Math.floor((s % 3600) / 60)
  const rest = s % 60
  if (h > 0) return `${h}:${String(m).padStart(2, '0')}:${String(rest).padStart(2, '0')}`
  return `${m}:${String(rest).padStart(2, '0')}`
}

export function dateTime(iso: string | null | undefined): string {
  if (!iso) return '–'
  const d = new Date(iso)
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString()
}

/** Colours come from the one palette the report uses too (engine/report/palette.ts). */
export { colourFor, paletteColour as colour, targetOrder, tint } from '#engine/report/palette.ts'

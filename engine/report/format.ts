// Text helpers of the report: HTML escaping (every user-given string passes through `esc`: run
// names, target names, tags, notes, URLs) and the number formats the tables print. Tests format
// the database's figures with these same functions to find them in the PDF's text.

import { msRounded } from '../metrics/units.ts'

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
}

/** Escape text for HTML element content and quoted attribute values (also inside inline SVG). */
export function esc(value: string | number | boolean | null | undefined): string {
  return String(value ?? '').replace(/[&<>"'`]/g, (c) => ENTITIES[c] ?? c)
}

const grouped = (digits: number) =>
  new Intl.NumberFormat('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })
const INT = grouped(0)
const ONE = grouped(1)
const TWO = grouped(2)

/** A count: 12,345. */
export function fmtInt(n: number): string {
  return INT.format(Math.round(n))
}

/** Microseconds as milliseconds with two decimals, rounded as every screen rounds them (msRounded): 1,234.57. */
export function fmtMs(us: number): string {
  return TWO.format(msRounded(us))
}

/** Requests per second with one decimal: 4,210.3. */
export function fmtRate(perSecond: number): string {
  return ONE.format(perSecond)
}

export function fmtBytes(bytes: number | null): string {
  if (bytes === null || !Number.isFinite(bytes)) return '–'
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB']
  let v = bytes
  let i = 0
  while (Math.abs(v) >= 1024 && i < units.length - 1) {
    v /= 1024
    i++
  }
  return `${v.toFixed(i === 0 ? 0 : 1)} ${units[i]}`
}

export function fmtSeconds(s: number): string {
  if (s < 60) return `${Number.isInteger(s) ? s : s.toFixed(1)} s`
  const m = Math.floor(s / 60)
  const rest = Math.round(s - m * 60)
  return rest ? `${m} min ${rest} s` : `${m} min`
}

/** "2025-01-01 12:00:00 UTC": dates in the report are UTC, so two readers see the same text. */
export function fmtDate(iso: string | Date | null): string {
  if (iso === null) return '–'
  const d = typeof iso === 'string' ? new Date(iso) : iso
  if (Number.isNaN(d.getTime())) return esc(String(iso))
  return `${d.toISOString().slice(0, 19).replace('T', ' ')} UTC`
}

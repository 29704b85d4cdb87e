// Reading a response's Server-Timing header (the target's own `app` and `db` durations), called by
// engine/runner/connection.ts as the response's headers are parsed.

/** The longest duration taken as a figure: one hour, in ms. Anything longer is not a measurement. */
export const MAX_SERVER_TIMING_MS = 3_600_000

/** A `dur` value in ms, or null when it is not a finite duration between 0 and an hour. */
export function serverTimingMs(raw: string): number | null {
  const text = raw.trim().replace(/^"|"$/g, '')
  if (text === '') return null
  const ms = Number(text)
  if (!Number.isFinite(ms) || ms < 0 || ms > MAX_SERVER_TIMING_MS) return null
  return ms
}

/**
 * `app;dur=12.3, db;dur=4.5` → µs into target.appUs / target.dbUs. A `dur` that is not a duration
 * (NaN, negative, infinite, longer than an hour) is kept out of the figures: the header counts as
 * invalid and sets nothing. Returns false for an invalid header: the connection counts it, and the
 * count reaches the target's round as `serverTimingInvalid`.
 */
export function parseServerTiming(value: string, target: { appUs: number; dbUs: number }): boolean {
  let app: number | null = null
  let db: number | null = null
  for (const part of value.split(',')) {
    const [rawName, ...params] = part.split(';')
    const name = rawName?.trim().toLowerCase()
    if (name !== 'app' && name !== 'db') continue
    for (const p of params) {
      const [k, v] = p.split('=')
      if (k?.trim().toLowerCase() !== 'dur' || v === undefined) continue
      const ms = serverTimingMs(v)
      if (ms === null) return false
      if (name === 'app') app = ms
      else db = ms
    }
  }
  if (app !== null) target.appUs = app * 1000
  if (db !== null) target.dbUs = db * 1000
  return true
}

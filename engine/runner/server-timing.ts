// Reading a response's Server-Timing header (the target's own `app` and `db` durations), called by
// engine/runner/connection.ts as the response's headers are parsed.

/** `app;dur=12.3, db;dur=4.5` → µs into target.appUs / target.dbUs. */
export function parseServerTiming(value: string, target: { appUs: number; dbUs: number }): void {
  for (const part of value.split(',')) {
    const [rawName, ...params] = part.split(';')
    const name = rawName?.trim().toLowerCase()
    if (name !== 'app' && name !== 'db') continue
    for (const p of params) {
      const [k, v] = p.split('=')
      if (k?.trim().toLowerCase() !== 'dur' || v === undefined) continue
      const ms = Number(v.trim().replace(/^"|"$/g, ''))
      if (!Number.isFinite(ms) || ms < 0) continue
      if (name === 'app') target.appUs = ms * 1000
      else target.dbUs = ms * 1000
    }
  }
}

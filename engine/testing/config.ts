// A config's validation as tests read it: every issue as "field: message", none for a good config.
import { ConfigError } from '../config/errors.ts'
import { parseRunConfig } from '../config/load.ts'

export function configIssues(raw: unknown): string[] {
  try {
    parseRunConfig(raw)
    return []
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err
    return err.issues.map((i) => `${i.field}: ${i.message}`)
  }
}

/** A one-target, one-connection, 1 s config with a sweep (the studies' tests). */
export const sweepConfig = (url: string, sweep: unknown, extra: Record<string, unknown> = {}) =>
  parseRunConfig({
    version: 1,
    name: 'sweep',
    targets: [{ name: 't', url }],
    load: { connections: 1, duration: 1 },
    cooldownSeconds: 0,
    sweep,
    ...extra,
  })

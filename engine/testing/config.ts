// Configs as tests write and read them: a config's validation (every issue as "field: message", none
// for a good config), and the inputs the tests of comparisons and studies start from.
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

/**
 * The input of a comparison's config: targets a and b on two ports, one connection for 1 s (the
 * tests of rounds, the stopping rule, the store's run rows, the wizard). `extra` adds fields or
 * replaces them.
 */
export const pairInput = (name: string, extra: Record<string, unknown> = {}) => ({
  version: 1,
  name,
  targets: [
    { name: 'a', url: 'http://127.0.0.1:1/a' },
    { name: 'b', url: 'http://127.0.0.1:2/b' },
  ],
  load: { connections: 1, duration: 1 },
  ...extra,
})

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

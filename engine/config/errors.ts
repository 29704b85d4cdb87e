import type { z } from 'zod'
import { issuesOf } from './issue-words.ts'

export { fieldOf, issueMessage, issuesOf } from './issue-words.ts'

/** Bad input from a user: the CLI exits 2, the UI shows `message` next to `field`. */
export class ConfigError extends Error {
  readonly field: string
  readonly issues: readonly { field: string; message: string }[]
  constructor(issues: readonly { field: string; message: string }[]) {
    super(issues.map((i) => (i.field ? `${i.field}: ${i.message}` : i.message)).join('\n'))
    this.name = 'ConfigError'
    this.issues = issues
    this.field = issues[0]?.field ?? ''
  }
}

/** A ConfigError from a zod error, its messages in words (./issue-words.ts), never schema text. */
export function configErrorFromZod(error: z.ZodError, prefix: readonly PropertyKey[] = []): ConfigError {
  return new ConfigError(issuesOf(error, prefix))
}

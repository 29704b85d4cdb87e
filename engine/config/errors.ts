import type { z } from 'zod'

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

/**
 * `targets.0.url` style field names, the way a user reads a config file. A key that is not plain
 * printable text (a header name holding CR/LF) is shown quoted and escaped, so printing a field
 * never writes control characters to a terminal or a log.
 */
export function fieldOf(path: readonly PropertyKey[]): string {
  return path
    .map((p) => {
      const key = String(p)
      return /^[\x20-\x7e]*$/.test(key) ? key : JSON.stringify(key)
    })
    .join('.')
}

export function configErrorFromZod(error: z.ZodError, prefix: readonly PropertyKey[] = []): ConfigError {
  const issues = error.issues.map((issue) => {
    let message = issue.message
    if (issue.code === 'unrecognized_keys')
      message = `unknown field(s): ${issue.keys.map((k) => fieldOf([k])).join(', ')}`
    // A record key (a header or capture name): the key schema's own message says why.
    if (issue.code === 'invalid_key') message = issue.issues[0]?.message ?? message
    if (issue.code === 'invalid_type' && /received undefined/.test(message)) message = 'is required'
    return { field: fieldOf([...prefix, ...issue.path]), message }
  })
  return new ConfigError(issues)
}

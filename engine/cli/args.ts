// A small, strict flag parser: an unknown flag or a missing value is bad input (exit 2) that names
// the flag, never silently ignored.
export class UsageError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'UsageError'
  }
}

export interface FlagSpec {
  [flag: string]: 'string' | 'number' | 'boolean'
}

export interface Parsed {
  flags: Record<string, string | number | boolean | undefined>
  positional: string[]
}

export function parseFlags(argv: readonly string[], spec: FlagSpec): Parsed {
  const flags: Parsed['flags'] = {}
  const positional: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (!arg.startsWith('--') || arg === '--') {
      positional.push(arg)
      continue
    }
    const eq = arg.indexOf('=')
    const name = eq > 0 ? arg.slice(2, eq) : arg.slice(2)
    const kind = spec[name]
    if (!kind) throw new UsageError(`unknown option --${name}`)
    if (kind === 'boolean') {
      if (eq > 0) throw new UsageError(`--${name} takes no value`)
      flags[name] = true
      continue
    }
    const raw = eq > 0 ? arg.slice(eq + 1) : argv[++i]
    if (raw === undefined || (eq < 0 && raw.startsWith('--'))) throw new UsageError(`--${name} needs a value`)
    if (kind === 'number') {
      const n = Number(raw)
      if (!Number.isFinite(n) || raw.trim() === '')
        throw new UsageError(`--${name}: "${raw}" is not a number`)
      flags[name] = n
    } else flags[name] = raw
  }
  return { flags, positional }
}

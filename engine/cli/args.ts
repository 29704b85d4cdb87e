// The one flag parser every command uses. A command declares its flags once (type, value name,
// help line): the same declaration parses argv into typed values (`flags.cpu` is a number, no
// casts) and writes the command's `--help`, so the help lists every flag the command accepts.
// An unknown flag, a missing value or a non-numeric number is bad input (exit 2) naming the flag.
export class UsageError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'UsageError'
  }
}

export type FlagType = 'string' | 'number' | 'boolean'

export interface FlagDef {
  readonly type: FlagType
  /** The value's name in the help (`FILE`, `N`); booleans take none. */
  readonly value?: string
  readonly help: string
  /** A one-letter form, as wrk, hey and curl take it: `-c 10` for `--connections 10`. */
  readonly short?: string
  /** A string flag given any number of times (`-H 'A: 1' -H 'B: 2'`): its values in order. */
  readonly multiple?: true
}

export type FlagSpec = Readonly<Record<string, FlagDef>>

type ValueOf<T extends FlagType> = T extends 'string' ? string : T extends 'number' ? number : boolean

/** What a spec parses to: each flag optional, with the type its declaration names (a list for `multiple`). */
export type Flags<S extends FlagSpec> = {
  -readonly [K in keyof S]?: S[K] extends { multiple: true } ? string[] : ValueOf<S[K]['type']>
}

export interface Parsed<S extends FlagSpec> {
  flags: Flags<S>
  positional: string[]
}

/** `--db FILE`, shared by every command that reads the history. */
export const DB_FLAG = {
  db: { type: 'string', value: 'FILE', help: "the history database (default: the desktop app's)" },
} as const satisfies FlagSpec

/** `-c` → the flag declared with `short: 'c'`. */
function shortName(spec: FlagSpec, arg: string): string {
  const letter = arg.slice(1)
  const found = Object.entries(spec).find(([, d]) => d.short === letter)
  if (!found) throw new UsageError(`unknown option ${arg}`)
  return found[0]
}

export function parseFlags<const S extends FlagSpec>(argv: readonly string[], spec: S): Parsed<S> {
  const flags: Record<string, string | number | boolean | string[]> = {}
  const positional: string[] = []
  for (let i = 0; i < argv.length; i++) {
    let arg = argv[i]!
    if (arg === '--') {
      positional.push(...argv.slice(i + 1))
      break
    }
    if (/^-[A-Za-z]$/.test(arg)) arg = `--${shortName(spec, arg)}`
    else if (!arg.startsWith('--')) {
      positional.push(arg)
      continue
    }
    const eq = arg.indexOf('=')
    const name = eq > 0 ? arg.slice(2, eq) : arg.slice(2)
    const def = Object.hasOwn(spec, name) ? spec[name] : undefined
    if (!def) throw new UsageError(`unknown option --${name}`)
    if (def.type === 'boolean') {
      if (eq > 0) throw new UsageError(`--${name} takes no value`)
      flags[name] = true
      continue
    }
    const raw = eq > 0 ? arg.slice(eq + 1) : argv[++i]
    if (raw === undefined || (eq < 0 && raw.startsWith('--'))) throw new UsageError(`--${name} needs a value`)
    if (def.multiple) {
      flags[name] = [...((flags[name] as string[] | undefined) ?? []), raw]
      continue
    }
    if (def.type === 'number') {
      const n = Number(raw)
      if (!Number.isFinite(n) || raw.trim() === '')
        throw new UsageError(`--${name}: "${raw}" is not a number`)
      flags[name] = n
    } else flags[name] = raw
  }
  // Each value was stored under a declared name with the type its declaration gives.
  return { flags: flags as Flags<S>, positional }
}

/** `--help` or `-h` anywhere before a `--`. */
export function wantsHelp(argv: readonly string[]): boolean {
  for (const arg of argv) {
    if (arg === '--') return false
    if (arg === '--help' || arg === '-h') return true
  }
  return false
}

/** A command's help: its synopsis, then one line per flag it accepts. */
export function helpText(synopsis: string, ...specs: FlagSpec[]): string {
  const all = new Map<string, FlagDef>()
  for (const spec of specs) for (const [name, def] of Object.entries(spec)) all.set(name, def)
  const rows = [...all].map(([name, def]) => [
    `--${name}${def.value ? ` ${def.value}` : ''}${def.short ? `, -${def.short}` : ''}`,
    def.help,
  ])
  const width = Math.max(0, ...rows.map(([left]) => left!.length))
  const options = rows.map(([left, help]) => `  ${left!.padEnd(width)}  ${help}`)
  return [synopsis, ...(options.length ? ['options:', ...options] : [])].join('\n')
}

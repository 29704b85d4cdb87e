// Validation messages in words a user understands. zod's own English ("Too small: expected number
// to be >=0") is schema text; every place that turns a zod issue into a message (ConfigError for
// the CLI and the Api, the wizard's inline messages, the Api's argument checks) calls
// `issueMessage`, so a field reads the same everywhere. A message the schema sets itself
// ("must be a valid HTTP header name") is already words and is kept as it is.
import type { z } from 'zod'

type Issue = z.core.$ZodIssue

// zod's English defaults all start like this (zod/v4/locales/en.js); the schemas' own messages are
// lower-case sentence fragments ("must be …", "give …") or start with the field's name.
const ZOD_DEFAULT = /^(Invalid\b|Too (big|small):|Unrecognized keys?:)/

/** Whether zod wrote this message (a default), rather than the schema. */
export function isDefaultMessage(message: string): boolean {
  return ZOD_DEFAULT.test(message)
}

/** 100000 → "100,000": numbers in messages read like numbers, not like code. */
function num(n: number | bigint): string {
  return typeof n === 'bigint'
    ? n.toLocaleString('en-US')
    : n.toLocaleString('en-US', { maximumFractionDigits: 6 })
}

/** "'a', 'b' or 'c'" */
export function choice(values: readonly unknown[]): string {
  const quoted = values.map((v) => (typeof v === 'string' ? `'${v}'` : String(v)))
  return quoted.length > 1 ? `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}` : (quoted[0] ?? '')
}

const TYPE_WORDS: Record<string, string> = {
  number: 'a number',
  int: 'a whole number',
  bigint: 'a whole number',
  string: 'text',
  boolean: 'true or false',
  array: 'a list',
  object: 'a group of fields',
  record: 'a group of fields',
  map: 'a group of fields',
  set: 'a list',
  null: 'null',
  date: 'a date',
  literal: 'a fixed value',
  tuple: 'a list',
}

const FORMAT_WORDS: Record<string, string> = {
  url: 'a URL such as http://127.0.0.1:8080/',
  email: 'an email address',
  uuid: 'a UUID',
  datetime: 'a date and time (ISO 8601)',
  date: 'a date (YYYY-MM-DD)',
  time: 'a time (HH:MM:SS)',
  ipv4: 'an IPv4 address',
  ipv6: 'an IPv6 address',
  base64: 'base64 text',
  json_string: 'JSON text',
}

function typeWords(expected: string): string {
  return TYPE_WORDS[expected] ?? `a ${expected}`
}

function sized(n: number | bigint, noun: { one: string; many: string }): string {
  return `${num(n)} ${Number(n) === 1 ? noun.one : noun.many}`
}

/** What a size counts in: characters of text, entries of a list or a group of fields. */
function sizeNoun(origin: string): { one: string; many: string } | null {
  if (origin === 'string') return { one: 'character', many: 'characters' }
  if (origin === 'array' || origin === 'set') return { one: 'entry', many: 'entries' }
  if (origin === 'map' || origin === 'record') return { one: 'entry', many: 'entries' }
  if (origin === 'file') return { one: 'byte', many: 'bytes' }
  return null
}

function tooSmall(i: Extract<Issue, { code: 'too_small' }>): string {
  const noun = sizeNoun(i.origin)
  if (noun) {
    if (i.exact) return `must have exactly ${sized(i.minimum, noun)}`
    if (Number(i.minimum) === 1 && i.inclusive !== false)
      return i.origin === 'string' ? 'must not be empty' : 'needs at least one entry'
    const min = i.inclusive === false ? Number(i.minimum) + 1 : i.minimum
    return `needs at least ${sized(min, noun)}`
  }
  if (i.exact) return `must be exactly ${num(i.minimum)}`
  if (i.inclusive === false) return `must be greater than ${num(i.minimum)}`
  if (Number(i.minimum) === 0) return 'must be 0 or more'
  return `must be at least ${num(i.minimum)}`
}

function tooBig(i: Extract<Issue, { code: 'too_big' }>): string {
  const noun = sizeNoun(i.origin)
  if (noun) {
    if (i.exact) return `must have exactly ${sized(i.maximum, noun)}`
    const max = i.inclusive === false ? Number(i.maximum) - 1 : i.maximum
    return `may have at most ${sized(max, noun)}`
  }
  if (i.exact) return `must be exactly ${num(i.maximum)}`
  if (i.inclusive === false) return `must be less than ${num(i.maximum)}`
  return `must be at most ${num(i.maximum)}`
}

function invalidType(i: Extract<Issue, { code: 'invalid_type' }>): string {
  // zod records "received NaN" on the issue; otherwise only its message says what came.
  const received =
    (i as { received?: unknown }).received ?? /received (\w+)$/.exec(i.message)?.[1] ?? undefined
  if (received === 'undefined') return 'is required'
  if (i.expected === 'int') return 'must be a whole number'
  return `must be ${typeWords(i.expected)}`
}

function invalidFormat(i: Extract<Issue, { code: 'invalid_format' }>): string {
  const f = i as { format: string; prefix?: string; suffix?: string; includes?: string }
  if (f.format === 'starts_with') return `must start with "${f.prefix ?? ''}"`
  if (f.format === 'ends_with') return `must end with "${f.suffix ?? ''}"`
  if (f.format === 'includes') return `must contain "${f.includes ?? ''}"`
  if (f.format === 'regex') return 'has characters or a form that is not allowed here'
  return `must be ${FORMAT_WORDS[f.format] ?? `a valid ${f.format.replace(/_/g, ' ')}`}`
}

function invalidUnion(i: Extract<Issue, { code: 'invalid_union' }>): string {
  const u = i as { options?: unknown[]; discriminator?: string; errors: Issue[][] }
  if (u.options?.length) return `must be one of ${choice(u.options)}`
  // Every branch refused the value's type: say which types are accepted.
  const types = u.errors.map((branch) =>
    branch.length === 1 && branch[0]?.code === 'invalid_type' && branch[0].path.length === 0
      ? typeWords(branch[0].expected)
      : null,
  )
  if (types.length && types.every((t) => t !== null)) return `must be ${[...new Set(types)].join(' or ')}`
  return 'does not match any of the accepted forms'
}

/** The words for one zod issue: the schema's own message, or a sentence for zod's default. */
export function issueMessage(issue: Issue): string {
  if (!isDefaultMessage(issue.message)) return issue.message
  switch (issue.code) {
    case 'invalid_type':
      return invalidType(issue)
    case 'too_small':
      return tooSmall(issue)
    case 'too_big':
      return tooBig(issue)
    case 'invalid_value':
      return issue.values.length === 1
        ? `must be ${choice(issue.values)}`
        : `must be one of ${choice(issue.values)}`
    case 'invalid_format':
      return invalidFormat(issue)
    case 'not_multiple_of':
      return `must be a multiple of ${num(issue.divisor)}`
    case 'unrecognized_keys':
      return `unknown field${issue.keys.length === 1 ? '' : 's'}: ${issue.keys.map((k) => fieldOf([k])).join(', ')}`
    case 'invalid_key': {
      // A record's key (a header name, a capture name): the key's own message says why.
      const inner = issue.issues[0]
      return inner ? issueMessage(inner) : 'is not an allowed name'
    }
    case 'invalid_element': {
      const inner = issue.issues[0]
      return inner ? `each entry ${issueMessage(inner)}` : 'has an entry that is not valid'
    }
    case 'invalid_union':
      return invalidUnion(issue)
    default:
      return 'is not valid'
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

/** Every issue of a zod error as a field and words. */
export function issuesOf(
  error: z.ZodError,
  prefix: readonly PropertyKey[] = [],
): { field: string; message: string }[] {
  return error.issues.map((issue) => ({
    field: fieldOf([...prefix, ...issue.path]),
    message: issueMessage(issue),
  }))
}

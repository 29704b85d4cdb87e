// `cannonade import har|curl|openapi` and the Api's scenarios.import: requests a user already has
// as a RunConfig with one scenario step per request (README.md, "Scenarios from what you have").
// Pure: text in, config out; reading a file is the caller's (readImportFile below for the CLI).
import { stringify } from 'yaml'
import { ConfigError } from '../config/errors.ts'
import { megabytes, parseRunConfig, readInputFile } from '../config/load.ts'
import { readCurl } from './curl.ts'
import { readHar } from './har.ts'
import { readOpenApi } from './openapi.ts'
import { buildTargets, type TargetInput } from './steps.ts'
import { MAX_IMPORT_BYTES } from './types.ts'
import type { ImportedScenario, ImportedSecret, ImportKind, ImportOptions, ReadRequests } from './types.ts'
import type { RunConfig } from '../config/schema.ts'

export {
  IMPORT_KINDS,
  MAX_IMPORT_BYTES,
  type ImportKind,
  type ImportOptions,
  type ImportedScenario,
} from './types.ts'

/** A source's text, or (curl) one command's words as a shell split them. */
export type ImportText = string | readonly string[]

const KIND_WORDS: Record<ImportKind, string> = {
  har: 'HAR file',
  curl: 'curl commands',
  openapi: 'OpenAPI document',
}

function read(kind: ImportKind, texts: readonly ImportText[], opts: ImportOptions): ReadRequests {
  if (kind === 'curl') return readCurl(texts)
  if (texts.length !== 1)
    throw new ConfigError([{ field: '', message: `an import of a ${KIND_WORDS[kind]} takes one` }])
  const text = texts[0]!
  if (typeof text !== 'string')
    throw new ConfigError([{ field: '', message: `a ${KIND_WORDS[kind]} is text` }])
  if (kind === 'har') return readHar(text, opts)
  return readOpenApi(text, opts.base)
}

function secretNotes(secrets: readonly ImportedSecret[]): string[] {
  return secrets.map(
    (s) =>
      `secret \${${s.variable}} (${s.where.slice(0, 3).join(', ')}${s.where.length > 3 ? ', …' : ''}) left out of the config: a run reads it from ${s.env}`,
  )
}

/** The config as YAML: what the user gave and nothing more (defaults stay implicit), notes on top. */
function toYaml(config: Record<string, unknown>, notes: readonly string[], source: string): string {
  const head = [`Imported from ${source} by cannonade import.`, ...notes]
  const comment = head.map((n) => `# ${n.replace(/[\r\n]+/g, ' ')}`).join('\n')
  return `${comment}\n${stringify(config, { lineWidth: 0, aliasDuplicateObjects: false, singleQuote: true })}`
}

/**
 * A RunConfig from a HAR file, curl commands or an OpenAPI 3 document. Bad input is a ConfigError
 * naming what is wrong (the CLI exits 2, the Api answers bad-input).
 */
export function importScenario(
  kind: ImportKind,
  texts: readonly ImportText[],
  opts: ImportOptions = {},
): ImportedScenario {
  const size = texts.reduce((n, t) => n + (typeof t === 'string' ? t.length : t.join(' ').length), 0)
  if (size > MAX_IMPORT_BYTES)
    throw new ConfigError([
      {
        field: '',
        message: `is ${megabytes(size)}, more than an import reads (${megabytes(MAX_IMPORT_BYTES)})`,
      },
    ])
  const source = opts.source ?? `pasted ${KIND_WORDS[kind]}`
  const { got, built } = readAndBuild(kind, texts, opts, source)
  if (built.targets.length === 0)
    throw new ConfigError([
      {
        field: '',
        message: `${source} holds no request a step can send (${[...got.notes, ...built.notes].join('; ')})`,
      },
    ])
  const name = (opts.name ?? got.name).replace(/[\p{Cc}]/gu, ' ').slice(0, 200)
  const raw: RawConfig = {
    version: 1,
    name,
    targets: built.targets satisfies TargetInput[],
    load: { connections: 10, duration: 30 },
    schedule: 'interleaved',
    rounds: 3,
    tags: ['imported', kind],
  }
  const left: string[] = []
  const config = parseLeavingOut(raw, source, left)
  const kept = built.secrets.filter((s) => raw.targets.some((t) => t.name === s.target))
  const notes = [...secretNotes(kept), ...got.notes, ...built.notes, ...left]
  return { config, yaml: toYaml(raw, notes, source), notes, secrets: kept }
}

/**
 * What a source says, read and made into targets. Anything a reader throws that is not a
 * ConfigError (a RangeError of a code point, a TypeError of a URL) is still bad input: it exits 2
 * with its words, never 1 with a raw error.
 */
function readAndBuild(kind: ImportKind, texts: readonly ImportText[], opts: ImportOptions, source: string) {
  try {
    const got = read(kind, texts, opts)
    return { got, built: buildTargets(got) }
  } catch (err) {
    if (err instanceof ConfigError) throw err
    throw new ConfigError([
      { field: '', message: `${source} cannot be read: ${err instanceof Error ? err.message : String(err)}` },
    ])
  }
}

type RawConfig = { targets: TargetInput[] } & Record<string, unknown>

/**
 * The config parsed; a step or target the schema refuses (a 9 KB path, 101 headers, whatever a
 * rule of the wire says) is left out, named in `left`, and the rest parsed again: one request of
 * a source never fails the whole import. A refusal of the config itself is an error.
 */
function parseLeavingOut(raw: RawConfig, source: string, left: string[]): RunConfig {
  for (;;) {
    try {
      return parseRunConfig(raw)
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err
      const dropped = leaveOut(raw, err, left)
      if (!dropped || raw.targets.length === 0)
        throw new ConfigError(
          err.issues.map((i) => ({
            field: i.field,
            message: `${i.message} (in the config the import made of ${source})`,
          })),
        )
    }
  }
}

/** The steps and targets `err` names, removed from `raw`; false when it names none. */
function leaveOut(raw: RawConfig, err: ConfigError, left: string[]): boolean {
  const steps = new Map<number, Set<number>>()
  const targets = new Set<number>()
  for (const issue of err.issues) {
    const m = /^targets\.(\d+)(?:\.steps\.(\d+))?/.exec(issue.field)
    if (!m) return false
    const [t, s] = [Number(m[1]), m[2] === undefined ? null : Number(m[2])]
    const target = raw.targets[t]
    if (!target) return false
    if (s === null || !target.steps[s]) targets.add(t)
    else steps.set(t, (steps.get(t) ?? new Set()).add(s))
    const what = s === null ? `target ${target.name}` : `step "${target.steps[s]?.name}" of ${target.name}`
    left.push(
      `left out ${what}: ${issue.field.replace(/^targets\.\d+(\.steps\.\d+)?\.?/, '')} ${issue.message}`.trim(),
    )
  }
  raw.targets = raw.targets
    .map((t, i) => (steps.has(i) ? { ...t, steps: t.steps.filter((_, j) => !steps.get(i)!.has(j)) } : t))
    .filter((t, i) => !targets.has(i) && t.steps.length > 0)
  return true
}

/** A source file's text, refused before reading when it is larger than an import reads. */
export function readImportFile(path: string, what: string): string {
  return readInputFile(path, what, MAX_IMPORT_BYTES)
}

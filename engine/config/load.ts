// Reading run configs from files or objects: JSON or YAML, versioned, migrated, validated.
import { extname } from 'node:path'
import { parse as parseYaml, YAMLParseError } from 'yaml'
import { RunConfigV1Schema, StoredRunConfigSchema, type RunConfig } from './schema.ts'
import { ConfigError, configErrorFromZod, fieldOf } from './errors.ts'
import { FileRefused, readRegularFile } from './files.ts'
import { statSync } from 'node:fs'

export const CURRENT_VERSION = 1

/**
 * One migration per old version, each lifting a raw document one version up, so a
 * config file saved by any earlier release still loads.
 * v1 is the first version; the chain is empty until v2 exists.
 */
const migrations: Record<number, (raw: Record<string, unknown>) => Record<string, unknown>> = {}

export function migrateConfig(raw: unknown): unknown {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new ConfigError([{ field: '', message: 'a run config must be an object (a mapping of fields)' }])
  }
  let doc = raw as Record<string, unknown>
  const version = doc.version
  if (version === undefined)
    throw new ConfigError([{ field: 'version', message: `is required (current: ${CURRENT_VERSION})` }])
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
    throw new ConfigError([
      { field: 'version', message: `must be a whole number ≥ 1, got ${JSON.stringify(version)}` },
    ])
  }
  if (version > CURRENT_VERSION) {
    throw new ConfigError([
      {
        field: 'version',
        message: `${version} is newer than this Cannonade understands (${CURRENT_VERSION}); update Cannonade`,
      },
    ])
  }
  let v: number = version
  while (v < CURRENT_VERSION) {
    const step = migrations[v]
    if (!step) throw new ConfigError([{ field: 'version', message: `no migration from version ${v}` }])
    doc = step(doc)
    v = Number(doc.version)
  }
  return doc
}

export function parseRunConfig(raw: unknown): RunConfig {
  const migrated = migrateConfig(raw)
  const result = RunConfigV1Schema.safeParse(migrated)
  if (!result.success) throw configErrorFromZod(result.error)
  return result.data
}

/**
 * A config a run was stored with: the rules of its time, not today's wire rules (schema.ts), so a
 * kept run stays readable after a rule is added. Never for new input.
 */
export function parseStoredConfig(raw: unknown): RunConfig {
  const result = StoredRunConfigSchema.safeParse(migrateConfig(raw))
  if (!result.success) throw configErrorFromZod(result.error)
  return result.data
}

/**
 * The first key a JSON object in `text` repeats, as a field path, or null. JSON.parse keeps the
 * last of two equal keys without a word, so `"connections": 10, …, "connections": 10000` would
 * run the second; YAML refuses them itself. `text` must be valid JSON (JSON.parse said so). An
 * explicit stack, not recursion: a deeply nested document must not overflow the call stack.
 */
export function duplicateJsonKey(text: string): string | null {
  type Frame = { keys: Set<string> | null; key: string | number; expectKey: boolean }
  const stack: Frame[] = []
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    const top = stack.at(-1)
    if (c === '{') stack.push({ keys: new Set(), key: '', expectKey: true })
    else if (c === '[') stack.push({ keys: null, key: 0, expectKey: false })
    else if (c === '}' || c === ']') stack.pop()
    else if (c === ',' && top) {
      if (top.keys) top.expectKey = true
      else top.key = Number(top.key) + 1
    } else if (c === '"') {
      let j = i + 1
      while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1
      if (top?.keys && top.expectKey) {
        const key = JSON.parse(text.slice(i, j + 1)) as string
        if (top.keys.has(key)) return fieldOf([...stack.slice(0, -1).map((f) => f.key), key])
        top.keys.add(key)
        top.key = key
        top.expectKey = false
      }
      i = j
    }
  }
  return null
}

export function parseRunConfigText(text: string, format: 'json' | 'yaml', source = 'config'): RunConfig {
  let raw: unknown
  try {
    raw = format === 'json' ? JSON.parse(text) : parseYaml(text, { prettyErrors: true })
  } catch (err) {
    const detail =
      err instanceof YAMLParseError
        ? `${err.message.split('\n')[0]}`
        : err instanceof Error
          ? err.message
          : String(err)
    throw new ConfigError([
      { field: '', message: `${source} is not valid ${format.toUpperCase()}: ${detail}` },
    ])
  }
  const duplicate = format === 'json' ? duplicateJsonKey(text) : null
  if (duplicate !== null)
    throw new ConfigError([
      { field: duplicate, message: `is given twice in ${source} (JSON keeps only the last)` },
    ])
  return parseRunConfig(raw)
}

/** A config file's most bytes: a 10 MB body written as text, and room around it. */
const MAX_CONFIG_BYTES = 64 * 1024 * 1024

/** A size in words: 100 MB, 1.0 GB. */
export const megabytes = (bytes: number): string =>
  bytes >= 1024 ** 3 ? `${(bytes / 1024 ** 3).toFixed(1)} GB` : `${Math.ceil(bytes / 1024 ** 2)} MB`

/**
 * The text of a file the user named (`what`: "config file", "HAR file"), refused before it is read
 * when it is no regular file (a FIFO would block the open, a device such as /dev/zero never ends)
 * or larger than `maxBytes` (./files.ts).
 */
const sizeOf = (path: string): number => {
  try {
    return statSync(path).size
  } catch {
    return 0
  }
}

export function readInputFile(path: string, what: string, maxBytes: number): string {
  try {
    return readRegularFile(path, maxBytes).toString('utf8')
  } catch (err) {
    if (!(err instanceof FileRefused)) throw err
    const message =
      err.reason === 'missing'
        ? `${what} not found: ${path}`
        : err.reason === 'not-file'
          ? `${path} is not a file: give the ${what}'s path`
          : err.reason === 'too-large'
            ? `${path} is ${megabytes(sizeOf(path))}, more than a ${what} may be (${megabytes(maxBytes)}): is it the right file?`
            : `cannot read ${path}: ${err.message.slice(path.length + 1)}`
    throw new ConfigError([{ field: '', message }])
  }
}

export function loadRunConfigFile(path: string): RunConfig {
  const text = readInputFile(path, 'config file', MAX_CONFIG_BYTES)
  const ext = extname(path).toLowerCase()
  const format =
    ext === '.json'
      ? 'json'
      : ext === '.yaml' || ext === '.yml'
        ? 'yaml'
        : text.trimStart().startsWith('{')
          ? 'json'
          : 'yaml'
  return parseRunConfigText(text, format, path)
}

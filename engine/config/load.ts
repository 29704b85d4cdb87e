// Reading run configs from files or objects: JSON or YAML, versioned, migrated, validated.
import { readFileSync } from 'node:fs'
import { extname } from 'node:path'
import { parse as parseYaml, YAMLParseError } from 'yaml'
import { RunConfigV1Schema, type RunConfig } from './schema.ts'
import { ConfigError, configErrorFromZod } from './errors.ts'

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
  return parseRunConfig(raw)
}

export function loadRunConfigFile(path: string): RunConfig {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    throw new ConfigError([
      {
        field: '',
        message: code === 'ENOENT' ? `config file not found: ${path}` : `cannot read ${path}: ${String(err)}`,
      },
    ])
  }
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

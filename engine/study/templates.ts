// Ready-made studies (resources/templates/*.yaml): common benchmark designs (runtime against
// runtime, injection profiles, pool and task sizes, a scenario); the wizard lists them, the CLI
// runs them as files.
import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { join } from 'node:path'
import { parse } from 'yaml'
import { parseRunConfig } from '../config/load.ts'
import type { RunConfig } from '../config/schema.ts'

export const TEMPLATES_DIR = fileURLToPath(new URL('../../resources/templates/', import.meta.url))

export interface Template {
  id: string
  name: string
  /** The comment block at the top of the file: what the template reproduces and how. */
  description: string
  file: string
  config: RunConfig
}

export function listTemplates(dir = TEMPLATES_DIR): Template[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((f) => {
      const text = readFileSync(join(dir, f), 'utf8')
      const description = text
        .split('\n')
        .filter((l) => l.startsWith('#'))
        .map((l) => l.replace(/^#\s?/, ''))
        .join(' ')
      const config = parseRunConfig(parse(text))
      return { id: f.replace(/\.yaml$/, ''), name: config.name, description, file: join(dir, f), config }
    })
}

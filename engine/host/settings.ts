// The settings file (<data dir>/settings.json): private (0600), and never holding a password, in
// any form (engine/config/url-secrets.ts: user part, password= query, options). A
// URL setting with one is refused when set (engine/api/schemas.ts, SettingsSchema), and a file
// written before that rule loses it when the engine opens: settings:get never returns one. The
// host's `settings` operations read and write it here.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import type { z } from 'zod'
import type { Api } from '../api/api.ts'
import { parseArgs, SETTINGS_URL_FIELDS, SettingsSchema, type Settings } from '../api/schemas.ts'
import { withoutUrlSecret } from '../config/url-secrets.ts'
import { makePrivate, PRIVATE_FILE_MODE, privateDir } from '../paths.ts'

const DEFAULTS: Settings = { theme: 'system' }

/** `settings` without the password of any URL setting; `stripped` when one was there. */
export function withoutPasswords(settings: Settings): { settings: Settings; stripped: boolean } {
  const out: Settings = { ...settings }
  let stripped = false
  for (const field of SETTINGS_URL_FIELDS) {
    const value = out[field]
    if (typeof value !== 'string') continue
    const clean = withoutUrlSecret(value)
    if (clean === value) continue
    // What cannot be cleaned of its password is dropped: the file never keeps one.
    if (clean === null) delete out[field]
    else out[field] = clean
    stripped = true
  }
  return { settings: out, stripped }
}

/**
 * Each stored key checked on its own: one bad value (edited by hand, written by an older version)
 * is dropped and the others stay, so a setting the engine uses (the Docker host) is always valid.
 */
function checked(settings: Settings): Settings {
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(settings)) {
    const schema = SettingsSchema.shape[key as keyof typeof SettingsSchema.shape] as z.ZodType | undefined
    if (value !== '' && schema?.safeParse(value).success) out[key] = value
  }
  return SettingsSchema.parse(out)
}

export function settingsStore(file: string, writable: boolean) {
  const write = (next: Settings) => {
    privateDir(dirname(file))
    writeFileSync(file, JSON.stringify(next, null, 2), { mode: PRIVATE_FILE_MODE })
    makePrivate(file)
  }
  const readRaw = (): { settings: Settings; stripped: boolean } => {
    if (!existsSync(file)) return { settings: DEFAULTS, stripped: false }
    try {
      const raw: unknown = JSON.parse(readFileSync(file, 'utf8'))
      const { settings, stripped } = withoutPasswords({
        ...DEFAULTS,
        ...(typeof raw === 'object' && raw !== null ? (raw as Partial<Settings>) : {}),
      })
      return { settings: checked(settings), stripped }
    } catch {
      return { settings: DEFAULTS, stripped: false }
    }
  }
  const first = readRaw()
  if (first.stripped && writable) write(first.settings)
  else if (writable) makePrivate(file)
  return { read: (): Settings => readRaw().settings, write }
}

export type SettingsStore = ReturnType<typeof settingsStore>

type SettingsOut = Settings & { demoUrl?: string; dataDir?: string }

/**
 * `settings:get` (with the data folder and the demo target's URL) and `settings:set`; `changed`
 * runs after each write (the ledger's retention applies a new number of days at once).
 */
export function settingsApi(
  settings: SettingsStore,
  o: { dataDir: string; demoUrl: () => Promise<string>; changed: () => void },
): Api['settings'] {
  return {
    async get(): Promise<SettingsOut> {
      return { ...settings.read(), dataDir: o.dataDir, demoUrl: await o.demoUrl() }
    },
    async set(patch) {
      const next: Record<string, unknown> = { ...settings.read() }
      for (const [key, value] of Object.entries(parseArgs('settings:set', [patch])[0])) {
        if (value === undefined) continue
        // null or an emptied text: the setting is removed (its default applies again).
        if (value === null || value === '') delete next[key]
        else next[key] = value
      }
      settings.write(next as Settings)
      o.changed()
      return settings.read()
    },
  }
}

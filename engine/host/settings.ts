// The settings file (<data dir>/settings.json): private (0600), and never holding a password. A
// URL setting with one is refused when set (engine/api/schemas.ts, SettingsSchema), and a file
// written before that rule loses it when the engine opens: settings:get never returns one.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { SETTINGS_URL_FIELDS, type Settings } from '../api/schemas.ts'
import { makePrivate, PRIVATE_FILE_MODE, privateDir } from '../paths.ts'

const DEFAULTS: Settings = { theme: 'system' }

/** `settings` without the password of any URL setting; `stripped` when one was there. */
export function withoutPasswords(settings: Settings): { settings: Settings; stripped: boolean } {
  const out: Settings = { ...settings }
  let stripped = false
  for (const field of SETTINGS_URL_FIELDS) {
    const value = out[field]
    if (typeof value !== 'string') continue
    try {
      const u = new URL(value)
      if (u.password === '') continue
      u.password = ''
      out[field] = u.toString()
      stripped = true
    } catch {
      // not a URL: nothing that parses as a password
    }
  }
  return { settings: out, stripped }
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
      return withoutPasswords({
        ...DEFAULTS,
        ...(JSON.parse(readFileSync(file, 'utf8')) as Partial<Settings>),
      })
    } catch {
      return { settings: DEFAULTS, stripped: false }
    }
  }
  const first = readRaw()
  if (first.stripped && writable) write(first.settings)
  else if (writable) makePrivate(file)
  return { read: (): Settings => readRaw().settings, write }
}

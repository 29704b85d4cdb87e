// What the desktop shell remembers between launches, in <data dir>/desktop.json: the window's
// place and size, and the folder the last "Save as…" went to. Unreadable or foreign content is
// ignored field by field (a bad file never keeps the app from starting); writes are atomic.
import { readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'

const finite = z.number().finite()

export const WindowStateSchema = z.object({
  x: finite.optional(),
  y: finite.optional(),
  width: finite.positive(),
  height: finite.positive(),
  maximized: z.boolean().default(false),
})

export type WindowState = z.output<typeof WindowStateSchema>

export interface PrefsData {
  window?: WindowState
  /** The folder of the last file saved with the save dialog (its next default). */
  saveDir?: string
}

export interface Prefs {
  readonly file: string
  read(): PrefsData
  update(patch: PrefsData): void
}

function parse(text: string): PrefsData {
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch {
    return {}
  }
  if (typeof raw !== 'object' || raw === null) return {}
  const record = raw as Record<string, unknown>
  const out: PrefsData = {}
  const window = WindowStateSchema.safeParse(record.window)
  if (window.success) out.window = window.data
  if (typeof record.saveDir === 'string' && record.saveDir) out.saveDir = record.saveDir
  return out
}

export function openPrefs(dir: string): Prefs {
  const file = join(dir, 'desktop.json')
  const read = (): PrefsData => {
    try {
      return parse(readFileSync(file, 'utf8'))
    } catch {
      return {}
    }
  }
  return {
    file,
    read,
    update(patch) {
      const next = { ...read(), ...patch }
      try {
        writeFileSync(`${file}.tmp`, JSON.stringify(next, null, 2), { mode: 0o600 })
        renameSync(`${file}.tmp`, file)
      } catch {
        // Remembering is a convenience: a read-only data folder must not break the window.
      }
    },
  }
}

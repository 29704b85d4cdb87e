// Light, dark, or follow the system. One store for the sidebar toggle and the Settings page;
// applied before the first paint (from localStorage) and saved to settings so the desktop app and
// web mode agree.
import { useCallback, useSyncExternalStore } from 'react'
import type { Settings } from '#engine/api/schemas.ts'

export type ThemeChoice = Settings['theme']
const KEY = 'cannonade.theme'
const listeners = new Set<() => void>()

export function storedTheme(): ThemeChoice {
  const v = localStorage.getItem(KEY)
  return v === 'light' || v === 'dark' ? v : 'system'
}

let current: ThemeChoice = 'system'

/** Apply a theme to the page and remember it; every useTheme() re-renders. */
export function applyTheme(choice: ThemeChoice): void {
  current = choice
  const root = document.documentElement
  if (choice === 'system') delete root.dataset.theme
  else root.dataset.theme = choice
  localStorage.setItem(KEY, choice)
  for (const cb of listeners) cb()
}

function subscribe(cb: () => void): () => void {
  listeners.add(cb)
  return () => listeners.delete(cb)
}

export function useTheme(onChange?: (choice: ThemeChoice) => void) {
  const choice = useSyncExternalStore(subscribe, () => current)
  const cycle = useCallback(() => {
    const next: ThemeChoice = choice === 'system' ? 'light' : choice === 'light' ? 'dark' : 'system'
    applyTheme(next)
    onChange?.(next)
  }, [choice, onChange])
  return { choice, cycle }
}

// Light, dark, or follow the system. The choice is applied before the first paint (from
// localStorage) and saved to settings so the desktop app and web mode agree.
import { useCallback, useEffect, useState } from 'react'

export type ThemeChoice = 'system' | 'light' | 'dark'
const KEY = 'cannonade.theme'

export function storedTheme(): ThemeChoice {
  const v = localStorage.getItem(KEY)
  return v === 'light' || v === 'dark' ? v : 'system'
}

export function applyTheme(choice: ThemeChoice): void {
  const root = document.documentElement
  if (choice === 'system') delete root.dataset.theme
  else root.dataset.theme = choice
  localStorage.setItem(KEY, choice)
}

export function useTheme(onChange?: (choice: ThemeChoice) => void) {
  const [choice, setChoice] = useState<ThemeChoice>(storedTheme)
  useEffect(() => applyTheme(choice), [choice])
  const cycle = useCallback(() => {
    const next: ThemeChoice = choice === 'system' ? 'light' : choice === 'light' ? 'dark' : 'system'
    setChoice(next)
    onChange?.(next)
  }, [choice, onChange])
  return { choice, setChoice, cycle }
}

/** Whether the page currently renders dark (for chart colours that CSS cannot reach). */
export function isDark(): boolean {
  const t = document.documentElement.dataset.theme
  if (t) return t === 'dark'
  return window.matchMedia('(prefers-color-scheme: dark)').matches
}

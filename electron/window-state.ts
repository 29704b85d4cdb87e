// The main window opens where and as large as the user left it: restored from electron/prefs.ts,
// checked against the displays present now (a window saved on a monitor since unplugged opens
// centred on the primary one instead of off-screen), and saved on move, resize and close. Pure
// except for the window it is given: electron/window-state.test.ts checks it with plain objects.
import type { WindowState } from './prefs.ts'

export interface Rect {
  x: number
  y: number
  width: number
  height: number
}

export const DEFAULT_SIZE = { width: 1360, height: 900 }
export const MIN_SIZE = { width: 900, height: 600 }

/** How much of the window must lie on a display for its saved position to be kept. */
const VISIBLE = 64

function overlap(a: Rect, b: Rect): { width: number; height: number } {
  return {
    width: Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x),
    height: Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y),
  }
}

/** Bounds for a new window from what was saved and the displays' work areas now. */
export function restoreBounds(
  saved: WindowState | undefined,
  workAreas: readonly Rect[],
): { x?: number; y?: number; width: number; height: number; maximized: boolean } {
  if (!saved) return { ...DEFAULT_SIZE, maximized: false }
  const largest = workAreas.reduce(
    (m, a) => ({ width: Math.max(m.width, a.width), height: Math.max(m.height, a.height) }),
    { width: 0, height: 0 },
  )
  // No display known (0): only the minimum applies. A display smaller than the minimum wins.
  const clamp = (v: number, min: number, max: number) =>
    Math.round(Math.min(Math.max(v, min), max > 0 ? max : Infinity))
  const width = clamp(saved.width, MIN_SIZE.width, largest.width)
  const height = clamp(saved.height, MIN_SIZE.height, largest.height)
  const out = { width, height, maximized: saved.maximized }
  if (saved.x === undefined || saved.y === undefined) return out
  const rect = { x: Math.round(saved.x), y: Math.round(saved.y), width, height }
  const visible = workAreas.some((a) => {
    const o = overlap(rect, a)
    return o.width >= VISIBLE && o.height >= VISIBLE
  })
  return visible ? { ...out, x: rect.x, y: rect.y } : out
}

/** What a window must offer to be tracked (a BrowserWindow does). */
export interface TrackedWindow {
  getNormalBounds(): Rect
  isMaximized(): boolean
  on(event: 'resize' | 'move' | 'maximize' | 'unmaximize' | 'close', listener: () => void): unknown
}

/** Save the window's state on every change (debounced) and once more when it closes. */
export function trackWindowState(
  win: TrackedWindow,
  save: (state: WindowState) => void,
  delayMs = 400,
): void {
  let timer: ReturnType<typeof setTimeout> | null = null
  const now = () => {
    if (timer) clearTimeout(timer)
    timer = null
    // Normal bounds: a maximized window remembers the size it returns to, and that it was maximized.
    save({ ...win.getNormalBounds(), maximized: win.isMaximized() })
  }
  const later = () => {
    if (timer) clearTimeout(timer)
    timer = setTimeout(now, delayMs)
  }
  for (const event of ['resize', 'move', 'maximize', 'unmaximize'] as const) win.on(event, later)
  win.on('close', now)
}

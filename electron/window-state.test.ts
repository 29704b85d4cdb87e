// The window opens where the user left it, on a display that is still there.
import { EventEmitter } from 'node:events'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { WindowState } from './prefs.ts'
import { DEFAULT_SIZE, MIN_SIZE, restoreBounds, trackWindowState, type Rect } from './window-state.ts'

const laptop: Rect = { x: 0, y: 0, width: 1440, height: 860 }
const monitor: Rect = { x: 1440, y: 0, width: 2560, height: 1400 }

describe('restoreBounds', () => {
  it('opens at the default size the first time', () => {
    expect(restoreBounds(undefined, [laptop])).toEqual({ ...DEFAULT_SIZE, maximized: false })
  })
  it('keeps a saved place that is on a display', () => {
    const saved: WindowState = { x: 1500, y: 40, width: 1200, height: 800, maximized: false }
    expect(restoreBounds(saved, [laptop, monitor])).toEqual(saved)
  })
  it('drops the place of a window saved on a display since unplugged (the OS centres it)', () => {
    const saved: WindowState = { x: 1500, y: 40, width: 1200, height: 800, maximized: true }
    expect(restoreBounds(saved, [laptop])).toEqual({ width: 1200, height: 800, maximized: true })
  })
  it('drops a place with less than a grab handle on screen', () => {
    expect(
      restoreBounds({ x: 1400, y: 10, width: 1000, height: 700, maximized: false }, [laptop]),
    ).not.toHaveProperty('x')
    expect(
      restoreBounds({ x: 1300, y: 10, width: 1000, height: 700, maximized: false }, [laptop]),
    ).toHaveProperty('x', 1300)
  })
  it('fits the size between the minimum and the largest display', () => {
    expect(restoreBounds({ width: 100, height: 50, maximized: false }, [laptop])).toEqual({
      ...MIN_SIZE,
      maximized: false,
    })
    expect(restoreBounds({ width: 5000, height: 3000, maximized: false }, [laptop, monitor])).toEqual({
      width: 2560,
      height: 1400,
      maximized: false,
    })
    expect(restoreBounds({ width: 100, height: 50, maximized: false }, [])).toEqual({
      ...MIN_SIZE,
      maximized: false,
    })
  })
})

class FakeWindow extends EventEmitter {
  bounds: Rect = { x: 10, y: 20, width: 1000, height: 700 }
  maximized = false
  getNormalBounds = () => ({ ...this.bounds })
  isMaximized = () => this.maximized
}

describe('trackWindowState', () => {
  afterEach(() => void vi.useRealTimers())
  it('saves once after a burst of moves and resizes, and at once on close', () => {
    vi.useFakeTimers()
    const win = new FakeWindow()
    const saved: WindowState[] = []
    trackWindowState(win, (s) => saved.push(s), 400)
    for (let i = 0; i < 10; i++) {
      win.bounds = { ...win.bounds, x: 10 + i }
      win.emit('move')
      win.emit('resize')
    }
    expect(saved).toEqual([])
    vi.advanceTimersByTime(400)
    expect(saved).toEqual([{ x: 19, y: 20, width: 1000, height: 700, maximized: false }])
    win.maximized = true
    win.emit('maximize')
    win.emit('close')
    expect(saved).toEqual([
      { x: 19, y: 20, width: 1000, height: 700, maximized: false },
      { x: 19, y: 20, width: 1000, height: 700, maximized: true },
    ])
    vi.advanceTimersByTime(1000)
    expect(saved).toHaveLength(2)
  })
})

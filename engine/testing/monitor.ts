import { expect } from 'vitest'
import type { ResourceSample } from '../monitor/types.ts'

/** Collects samples as a monitor emits them and hands out the next n, waiting when needed. */
export function collector(filter: (s: ResourceSample) => boolean = () => true) {
  const queue: ResourceSample[] = []
  let waiter: (() => void) | undefined
  return {
    onSample(this: void, s: ResourceSample): void {
      if (!filter(s)) return
      queue.push(s)
      waiter?.()
    },
    async next(this: void, n: number, timeoutMs = 15_000): Promise<ResourceSample[]> {
      const deadline = Date.now() + timeoutMs
      while (queue.length < n) {
        const left = deadline - Date.now()
        if (left <= 0) throw new Error(`waited ${timeoutMs} ms for ${n} samples, got ${queue.length}`)
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left)
          waiter = () => {
            clearTimeout(timer)
            resolve()
          }
        })
      }
      return queue.splice(0, n)
    },
  }
}

export const meanCpu = (xs: readonly ResourceSample[]): number =>
  xs.reduce((a, s) => a + (s.cpuPercent ?? 0), 0) / Math.max(1, xs.length)

/**
 * A burner's samples while busy, then idle. On a shared 2-core machine other work may leave a
 * burner a fraction of a core, so "busy" is checked against the burner's own CPU time over the
 * same window (`truthPercent`) and against its idle level, rather than against a fixed 100 %.
 */
export function expectBusyThenIdle(
  busy: readonly ResourceSample[],
  idle: readonly ResourceSample[],
  truthPercent: number,
): void {
  const [b, i] = [meanCpu(busy), meanCpu(idle)]
  const seen = `busy ${b.toFixed(1)} %, idle ${i.toFixed(1)} %, burner's own ${truthPercent.toFixed(1)} %`
  expect(b, seen).toBeGreaterThan(15)
  expect(b, seen).toBeLessThan(130)
  expect(Math.abs(b - truthPercent), seen).toBeLessThan(Math.max(15, truthPercent * 0.3))
  expect(i, seen).toBeLessThan(10)
  expect(b - i, seen).toBeGreaterThan(10)
}

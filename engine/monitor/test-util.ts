import type { ResourceSample } from './types.ts'

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

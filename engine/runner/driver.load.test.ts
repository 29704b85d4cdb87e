// One segment's seconds (runner/driver.ts) when the machine is busy: a window of whole seconds has
// exactly that many seconds even when the timer that ends it fires late. Otherwise a late timer
// adds a second of its own (a second that no other load agent has, and a series that is one
// second longer than the profile).
import type { Worker } from 'node:worker_threads'
import { afterEach, describe, expect, it } from 'vitest'
import { compilePlan } from '../config/compile.ts'
import { parseRunConfig } from '../config/load.ts'
import { startTarget, type CountingTarget } from '../testing/target.ts'
import { SegmentDriver } from './driver.ts'
import type { TickInfo } from './segment.ts'
import { Ledger } from './ledger.ts'

let target: CountingTarget | null = null
afterEach(async () => {
  await target?.close()
  target = null
})

/** Run one segment in this process; the ledger's writer is a sink (only the ticks matter here). */
async function segment(load: Record<string, unknown>, busyAtMs: number, busyForMs: number) {
  target = await startTarget({ delayMs: 1 })
  const config = parseRunConfig({
    version: 1,
    name: 'driver',
    targets: [{ name: 't', url: `${target.url}/x` }],
    load,
  })
  const sink = { postMessage: () => undefined } as unknown as Worker
  const ticks: TickInfo[] = []
  const t0 = performance.now()
  const driver = new SegmentDriver({
    target: config.targets[0]!,
    load: config.load,
    plan: compilePlan(config.load),
    t0,
    startSecond: 0,
    correlationHeader: config.correlationHeader,
    correlationPrefix: 'driver',
    counter: { next: 0, stride: 1 },
    iterations: { next: 0, stride: 1 },
    share: { index: 0, count: 1 },
    ledger: new Ledger(sink),
    onTick: (info) => ticks.push(info),
  })
  // The event loop held up across the window's end, as on a loaded machine.
  const busy = setTimeout(() => {
    const until = performance.now() + busyForMs
    while (performance.now() < until);
  }, busyAtMs)
  const result = await driver.run()
  clearTimeout(busy)
  return { ticks: ticks.map((t) => [t.t, t.merge ?? false]), result }
}

describe('a segment on a busy machine', () => {
  it('a 2 s window whose ending timer fires 300 ms late still has 2 seconds: the late slice is folded in', async () => {
    const { ticks, result } = await segment({ connections: 2, duration: 2 }, 1900, 400)
    expect(result.seconds).toBeGreaterThan(2.2) // the timer was late indeed
    expect(ticks).toEqual([
      [0, false],
      [1, false],
      [2, true],
    ])
  })

  it('a window that is not whole seconds keeps its partial last second', async () => {
    const { ticks } = await segment({ connections: 2, duration: 1.5 }, 10_000, 0)
    expect(ticks).toEqual([
      [0, false],
      [1, false],
    ])
  })
})

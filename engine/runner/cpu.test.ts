import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { cpuPercentMeter, waitReader } from './cpu.ts'

describe("the load thread's CPU and its waits for a CPU", () => {
  it('reads the run-queue wait of a schedstat line (ns → µs), and null where there is none', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cannonade-schedstat-'))
    const file = join(dir, 'schedstat')
    writeFileSync(file, '758000000 4260000000 4992\n')
    expect(waitReader(file)()).toBe(4_260_000)
    expect(waitReader(join(dir, 'missing'))()).toBeNull()
  })

  it("this system's own schedstat, where Linux keeps one, is a count that only grows", () => {
    const read = waitReader()
    const first = read()
    if (first === null) return console.log('no /proc/thread-self/schedstat here: waits are not measured')
    expect(read()!).toBeGreaterThanOrEqual(first)
  })

  it('gives each second its CPU % and the % of it the thread waited, from the same wall time', () => {
    vi.useFakeTimers({ toFake: ['performance'] })
    try {
      let cpu = 0
      let wait: number | null = 0
      const meter = cpuPercentMeter(
        () => cpu,
        () => wait,
      )
      meter.start(performance.now())
      // A starved second: 150 ms on a CPU, 800 ms ready but waiting for one.
      cpu += 150_000
      wait += 800_000
      vi.advanceTimersByTime(1000)
      expect(meter.read()).toEqual({ cpu: 15, wait: 80 })
      // A busy second on a CPU of its own.
      cpu += 950_000
      vi.advanceTimersByTime(1000)
      expect(meter.read()).toEqual({ cpu: 95, wait: 0 })
      // Where the system says nothing of waits, the CPU is still read.
      wait = null
      cpu += 100_000
      vi.advanceTimersByTime(1000)
      expect(meter.read()).toEqual({ cpu: 10, wait: null })
    } finally {
      vi.useRealTimers()
    }
  })
})

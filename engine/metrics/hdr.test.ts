import { beforeAll, describe, expect, it } from 'vitest'
import { initHdr, latencyStats, newHistogram, record } from './hdr.ts'

beforeAll(async () => {
  await initHdr()
})

describe('latency statistics', () => {
  it('never put a percentile above the maximum, even when the max shares its HDR bucket', () => {
    const h = newHistogram()
    for (let i = 0; i < 99; i++) record(h, 500 + i)
    record(h, 71_397) // the top value: its bucket's highest equivalent value is 71 423
    expect(h.getValueAtPercentile(99.9)).toBeGreaterThan(71_397) // HDR's own answer: the bucket's top
    const s = latencyStats(h)
    expect(s.max).toBe(71_397)
    expect(s.p999).toBeLessThanOrEqual(s.max)
    const row = [s.min, s.p50, s.p90, s.p95, s.p99, s.p999, s.max]
    expect(row).toEqual([...row].sort((a, b) => a - b))
    h.destroy()
  })
})

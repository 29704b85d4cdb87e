import { describe, expect, it } from 'vitest'
import type { StatsBlock, ThresholdResult } from '../api/types.ts'
import { StatsAccumulator } from './accumulate.ts'
import { figuresOf, roundsFigures } from './figures.ts'
import { initHdr } from './hdr.ts'
import { errorsText, formatLimitValue, thresholdLimit, thresholdSentence } from './units.ts'
import { ERROR_KINDS } from '../api/types.ts'

const code = (k: (typeof ERROR_KINDS)[number]) => ERROR_KINDS.indexOf(k)

/** A block from known requests, recorded the way the ledger writer records them. */
async function block(seconds: number): Promise<StatsBlock> {
  await initHdr()
  const acc = new StatsAccumulator()
  for (let i = 0; i < 90; i++) acc.add(2000 + i, -1, 200, 10, 0, -1, -1) // 90 answered 2xx
  for (let i = 0; i < 6; i++) acc.add(3000, -1, 503, 10, code('status'), -1, -1) // 6 answered 503, not in the rule
  for (let i = 0; i < 3; i++) acc.add(-1, -1, 0, 0, code('timeout'), -1, -1) // 3 without an answer
  acc.add(-1, -1, 0, 0, code('refused'), -1, -1)
  for (let i = 0; i < 7; i++) acc.add(-1, -1, 0, 0, code('inflight'), -1, -1) // 7 in flight at the end
  const b = acc.toBlock(seconds)
  acc.destroy()
  return b
}

describe('figures: one definition of every count and rate', () => {
  it('counts sent, outcomes, answers, failures and requests in flight apart', async () => {
    const f = figuresOf(await block(2))
    expect(f).toMatchObject({
      sent: 107,
      requests: 100,
      answered: 96,
      ok: 90,
      failed: 10,
      unanswered: 4,
      inflight: 7,
      errors: { timeout: 3, refused: 1, status: 6 },
      unexpected: { '503': 6 },
      seconds: 2,
    })
    // Throughput: responses (2xx and 5xx) per second; the 4 without an answer and the 7 in flight do not count.
    expect(f.throughput).toBe(48)
    expect(f.errorRate).toBe(0.1)
    expect(f.errors).not.toHaveProperty('inflight')
  })

  it('sums rounds and takes the mean of their throughputs', async () => {
    const f = roundsFigures([await block(2), await block(4)])
    expect(f).toMatchObject({ sent: 214, requests: 200, failed: 20, inflight: 14, seconds: 6 })
    expect(f.throughput).toBe((48 + 24) / 2)
    expect(f.errorRate).toBe(0.1)
  })

  it('has no error rate without a request that ended', async () => {
    await initHdr()
    const acc = new StatsAccumulator()
    acc.add(-1, -1, 0, 0, code('inflight'), -1, -1)
    const f = figuresOf(acc.toBlock(1))
    acc.destroy()
    expect(f).toMatchObject({ sent: 1, requests: 0, answered: 0, failed: 0, inflight: 1, errorRate: null })
  })
})

describe('units', () => {
  const t = (over: Partial<ThresholdResult>): ThresholdResult => ({
    metric: 'p99',
    target: 'api',
    max: 200_000,
    actual: 12_345,
    passed: true,
    ...over,
  })

  it('shows limits as entered, in their unit, and actual values with two decimals', () => {
    expect(thresholdLimit(t({}))).toBe('≤ 200 ms')
    expect(formatLimitValue('p99.9', 1500)).toBe('1.5 ms')
    expect(thresholdLimit({ metric: 'throughput', min: 100, max: 2000 })).toBe('≥ 100 req/s and ≤ 2000 req/s')
    expect(thresholdLimit({ metric: 'errorRate', max: 0.01 })).toBe('≤ 1 %')
    expect(thresholdSentence(t({}))).toBe('p99 ≤ 200 ms on api: 12.35 ms, passed')
    expect(thresholdSentence(t({ actual: null, passed: false }))).toBe(
      'p99 ≤ 200 ms on api: no responses to measure, FAILED',
    )
  })

  it('names error kinds in one order and words', () => {
    expect(errorsText({ status: 12, timeout: 3, capture: 1 })).toBe(
      'timeout 3 · unexpected status 12 · capture found nothing 1',
    )
    expect(
      errorsText({ status: 1204, timeout: 3 }, (n) => n.toLocaleString('en-US'), { 500: 4, 404: 1200 }),
    ).toBe('timeout 3 · unexpected status 1,204 (404 ×1,200, 500 ×4)')
    expect(errorsText({})).toBe('none')
  })
})

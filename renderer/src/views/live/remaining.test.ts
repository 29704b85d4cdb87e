// "request-bound" only for a run that requests end: a time-bound run whose agents are still
// joining (no second yet) says how long its load will be.
import { describe, expect, it } from 'vitest'
import { parseRunConfig } from '#engine/config/load.ts'
import { pairInput } from '#engine/testing/config.ts'
import { plannedSeconds, remainingText } from './remaining.ts'

const config = (load: Record<string, unknown>, rounds = 1) =>
  parseRunConfig(pairInput('r', { load: { connections: 4, ...load }, rounds, cooldownSeconds: 5 }))

describe('the live view’s remaining line', () => {
  it('a time-bound run before its first second (agents joining): its length, not "request-bound"', () => {
    const c = config({ duration: 30 }, 2)
    expect(plannedSeconds(c)).toBe(4 * 30 + 3 * 5)
    const text = remainingText({ total: null, elapsed: 0, started: false, running: true, config: c })
    expect(text).toBe('2:15 of load once it starts')
    expect(text).not.toMatch(/request-bound/)
    expect(remainingText({ total: 135, elapsed: 35, started: true, running: true, config: c })).toBe(
      '1:40 remaining',
    )
  })

  it('a request-bound run says so, before and after its first second', () => {
    const c = config({ requests: 1000 })
    expect(plannedSeconds(c)).toBeNull()
    for (const started of [false, true])
      expect(remainingText({ total: null, elapsed: 3, started, running: true, config: c })).toBe(
        'request-bound: ends when the requests are done',
      )
  })
})

// The app prints a latency as the CLI and the report do (engine/metrics/units.ts msText): the same
// two decimals, rounded once on the µs, so 4005 µs is 4.01 ms here too (Intl alone says 4.01,
// toFixed 4.00: one rounding for all of them leaves nothing to differ).
import { describe, expect, it } from 'vitest'
import { msText } from '#engine/metrics/units.ts'
import { ms, msValue } from './format.ts'

describe('ms', () => {
  it('shows the CLI’s and the report’s text for the same µs', () => {
    for (const us of [4005, 1005, 2675, 4000, 4004.9, 123_456, 1_234_567])
      expect(ms(us).replace(/,/g, '')).toBe(`${msText(us)} ms`)
    expect(msValue(4005)).toBe(4.01)
    expect(ms(null)).toBe('–')
  })
})

// One latency, one text: the CLI (msText), the report (fmtMs), the comparison's words
// (fmtMetricValue) and the app (renderer/src/lib/format.ts ms) round a value the same way, also
// where a binary fraction sits on the half (4005 µs: toFixed says 4.00, Intl 4.01).
import { describe, expect, it } from 'vitest'
import { ms } from '../../renderer/src/lib/format.ts'
import { fmtMs } from '../report/format.ts'
import { fmtMetricValue } from './compare-words.ts'
import { msRounded, msText } from './units.ts'

describe('a latency in ms', () => {
  it('rounds half up on the µs, once, for every screen', () => {
    for (const [us, text] of [
      [4005, '4.01'],
      [1005, '1.01'],
      [2675, '2.68'],
      [4000, '4.00'],
      [4004.9, '4.00'],
      [123_456, '123.46'],
    ] as const) {
      expect(msText(us)).toBe(text)
      expect(fmtMs(us)).toBe(text)
      expect(fmtMetricValue('p50', us)).toBe(`${text} ms`)
      expect(ms(us).replace(/,/g, '')).toBe(`${text} ms`)
    }
    expect(msRounded(4005)).toBe(4.01)
    expect(msText(123_456, 1)).toBe('123.5')
  })
})

// One latency, one text: the CLI (msText), the report (fmtMs), the comparison's words
// (fmtMetricValue) round a value the same way (the app's ms in renderer/src/lib/format.test.ts),
// also where a binary fraction sits on the half (4005 µs: toFixed says 4.00, Intl 4.01).
import { describe, expect, it } from 'vitest'
import { fmtMs } from '../report/format.ts'
import { fmtMetricValue } from './compare-words.ts'
import { PROTOCOLS } from '../config/schema.ts'
import { msRounded, msText, PROTOCOL_LABELS, protocolName, protocolWords } from './units.ts'

describe('a latency in ms', () => {
  it('rounds half up on the µs, once, for every screen', () => {
    for (const [us, text] of [
      [4005, '4.01'],
      [1005, '1.01'],
      [2675, '2.68'],
      [4000, '4.00'],
      [4004.4, '4.00'],
      // A mean is whole µs in the --json summary and the exports (4004.9 is 4005 there): 4.01.
      [4004.9, '4.01'],
      [4624.6, '4.63'],
      [123_456, '123.46'],
    ] as const) {
      expect(msText(us)).toBe(text)
      expect(fmtMs(us)).toBe(text)
      expect(fmtMetricValue('p50', us)).toBe(`${text} ms`)
    }
    expect(msRounded(4005)).toBe(4.01)
    expect(msRounded(123_456, 1)).toBe(123.5)
    // As a callback of map (value, index): the index is no number of decimals.
    expect([4005, 1005].map(msText)).toEqual(['4.01', '1.01'])
  })
})

describe("a target's protocol", () => {
  it('has one short name for a comparison and one wording for a description', () => {
    expect([protocolName('http1'), protocolName('h2'), protocolName('h2c')]).toEqual([
      'HTTP/1.1',
      'h2',
      'h2c',
    ])
    expect(protocolWords({ protocol: 'http1', streams: 1 })).toBe('HTTP/1.1')
    expect(protocolWords({ protocol: 'h2', streams: 1 })).toBe('HTTP/2 over TLS (h2)')
    expect(protocolWords({ protocol: 'h2c', streams: 100 })).toBe(
      'HTTP/2 cleartext (h2c), 100 streams per connection',
    )
    // The wizard offers every protocol the schema knows, each with its label.
    expect(PROTOCOLS.map((p) => PROTOCOL_LABELS[p])).toEqual([
      'HTTP/1.1',
      'HTTP/2 over TLS (h2)',
      'HTTP/2 cleartext (h2c)',
    ])
  })
})

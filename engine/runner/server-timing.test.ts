import { describe, expect, it } from 'vitest'
import { parseServerTiming } from './server-timing.ts'

// Issue 20, item 8: a Server-Timing duration that is not a measurement (1e308, NaN, negative, longer
// than an hour) is kept out of the figures and counted as an invalid header, never clamped to an hour.
const hostile: [string, string][] = [
  ['1e308', 'app;dur=1e308'],
  ['1e308 on db', 'db;dur=1e308'],
  ['Infinity', 'app;dur=Infinity'],
  ['-Infinity', 'app;dur=-Infinity'],
  ['NaN', 'app;dur=NaN'],
  ['negative', 'app;dur=-1'],
  ['negative zero point', 'db;dur=-0.5'],
  ['just over an hour', 'app;dur=3600000.001'],
  ['a day', 'db;dur=86400000'],
  ['hex words', 'app;dur=abc'],
  ['empty', 'app;dur='],
  ['quoted 1e308', 'app;dur="1e308"'],
  ['good app, bad db', 'app;dur=12, db;dur=1e308'],
  ['bad app, good db', 'app;dur=NaN, db;dur=3'],
]

describe('parseServerTiming', () => {
  it.each(hostile)('keeps %s out of the figures and counts the header invalid', (_label, header) => {
    const target = { appUs: -1, dbUs: -1 }
    expect(parseServerTiming(header, target)).toBe(false)
    expect(target).toEqual({ appUs: -1, dbUs: -1 })
  })

  it('refuses every invalid header (hostile cases tried: ' + hostile.length + ')', () => {
    const refused = hostile.filter(([, header]) => !parseServerTiming(header, { appUs: -1, dbUs: -1 }))
    expect(refused).toHaveLength(hostile.length)
  })

  it.each([
    ['app;dur=12.3, db;dur=4.5', 12_300, 4_500],
    ['app;dur=0', 0, -1],
    ['db;dur="7"', -1, 7_000],
    ['app;dur=3600000', 3_600_000_000, -1],
    ['cache;dur=1e308, app;dur=2', 2_000, -1],
  ])('takes a real duration: %s', (header, appUs, dbUs) => {
    const target = { appUs: -1, dbUs: -1 }
    expect(parseServerTiming(header, target)).toBe(true)
    expect(target).toEqual({ appUs, dbUs })
  })
})

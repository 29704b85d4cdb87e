import { describe, expect, it } from 'vitest'
import { formatCorrelationId, parseCorrelationId } from './correlation.ts'

describe('correlation ids', () => {
  it('formats with a 10-digit sequence and parses back', () => {
    expect(formatCorrelationId('k3f9a2c1', 42)).toBe('k3f9a2c1-0000000042')
    expect(parseCorrelationId('k3f9a2c1-0000000042')).toEqual({ prefix: 'k3f9a2c1', seq: 42 })
    expect(parseCorrelationId(formatCorrelationId('ab', 9_999_999_999))).toEqual({
      prefix: 'ab',
      seq: 9_999_999_999,
    })
  })

  it('accepts unpadded sequences and surrounding space', () => {
    expect(parseCorrelationId(' k3f9a2c1-42 ')).toEqual({ prefix: 'k3f9a2c1', seq: 42 })
  })

  it('rejects what is not an id', () => {
    for (const bad of ['', '42', '-42', 'k3f9-', 'k3f9-4x', 'k3f9-00000000001', 'a b-1', 'x-1-']) {
      expect(parseCorrelationId(bad), bad).toBeNull()
    }
  })

  it('refuses ids it could not parse back', () => {
    expect(() => formatCorrelationId('a-b', 1)).toThrow(/prefix/)
    expect(() => formatCorrelationId('ab', -1)).toThrow(/sequence/)
    expect(() => formatCorrelationId('ab', 1.5)).toThrow(/sequence/)
    expect(() => formatCorrelationId('ab', 1e10)).toThrow(/sequence/)
  })
})

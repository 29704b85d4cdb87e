// What a monitor's sample may hold before it is stored (issue 29, items 7 and 9), the same for
// every kind: each hostile value a source could send is its own case, and each ends as no
// reading, a shortened name or a sample left out, with a problem in words holding no value.
import { describe, expect, it } from 'vitest'
import { checkSample, instanceLimit, printableText, SAMPLE_BOUNDS, SAMPLE_SOURCES } from './bounds.ts'
import type { ResourceSample } from './types.ts'

const NOW = 1_700_000_000_000
const window = { fromMs: NOW - 60_000, toMs: NOW + 60_000 }
const good = (more: Partial<Record<keyof ResourceSample, unknown>> = {}): ResourceSample =>
  ({
    t: NOW,
    source: 'prometheus',
    target: 't',
    instance: 'a',
    cpuPercent: 12.5,
    memoryBytes: 1024,
    memoryLimitBytes: 2048,
    cpuLimit: 2,
    state: 'running',
    connections: null,
    ...more,
  }) as ResourceSample

const KINDS = SAMPLE_SOURCES
const NOT_NUMBERS: [string, unknown][] = [
  ['NaN', NaN],
  ['Infinity', Infinity],
  ['-Infinity', -Infinity],
  ['1e300', 1e300],
  ['-1', -1],
  ['text "12"', '12'],
  ['an object', { v: 1 }],
  ['true', true],
  ['a bigint', 10n],
]

describe('one bound for every monitor kind', () => {
  for (const kind of KINDS) {
    for (const [field, [lo, hi]] of [
      ['cpuPercent', [0, SAMPLE_BOUNDS.cpuPercent]],
      ['memoryBytes', [0, SAMPLE_BOUNDS.bytes]],
      ['memoryLimitBytes', [0, SAMPLE_BOUNDS.bytes]],
      ['cpuLimit', [0, SAMPLE_BOUNDS.cores]],
      ['connections', [0, SAMPLE_BOUNDS.connections]],
      ['connectionLimit', [0, SAMPLE_BOUNDS.connections]],
    ] as const) {
      for (const [what, v] of NOT_NUMBERS) {
        it(`${kind}: ${field} of ${what} is no reading (null), the sample kept`, () => {
          const { sample, problems } = checkSample(good({ source: kind, [field]: v }), window)
          expect(sample?.[field]).toBeNull()
          expect(sample?.instance).toBe('a')
          expect(problems).toEqual([
            `${field} values that were not numbers from ${lo} to ${hi} were left out (no reading)`,
          ])
        })
      }
    }
  }
})

describe('a sample without a usable time, source or instance is left out', () => {
  const cases: [string, Partial<Record<keyof ResourceSample, unknown>>, RegExp][] = [
    ['a NaN time', { t: NaN }, /stamped outside the run/],
    ['a time of 1e300', { t: 1e300 }, /stamped outside the run/],
    ['a time of -1e12 s', { t: -1e15 }, /stamped outside the run/],
    ['a time an hour ago', { t: NOW - 3_600_000 }, /stamped outside the run/],
    ['a time a day ahead', { t: NOW + 86_400_000 }, /stamped outside the run/],
    ['a time as text', { t: String(NOW) }, /stamped outside the run/],
    ['an unknown source', { source: 'evil' }, /unknown source/],
    ['a target that is no text', { target: 7 }, /unknown source or target/],
    ['no instance', { instance: '' }, /without an instance/],
    ['an instance that is a number', { instance: 7 }, /without an instance/],
    [
      'a metric name with a space',
      { metric: 'heap bytes', value: 1 },
      /series whose name is not a series name/,
    ],
    ['a metric name of 1 MB', { metric: 'a'.repeat(1 << 20), value: 1 }, /not a series name/],
    ['a metric name with control characters', { metric: 'a\u001b[2J', value: 1 }, /not a series name/],
  ]
  for (const [what, more, words] of cases)
    it(what, () => {
      const { sample, problems } = checkSample(good(more), window)
      expect(sample).toBeNull()
      expect(problems.join('\n')).toMatch(words)
    })
})

describe('names are shortened and made printable', () => {
  const cases: [string, string, string][] = [
    ['1 MB', 'x'.repeat(1 << 20), `${'x'.repeat(SAMPLE_BOUNDS.text - 1)}…`],
    ['an escape sequence', 'pod\u001b[2J', 'pod?[2J'],
    ['a newline', 'a\nb', 'a?b'],
    ['a NUL', 'a\u0000b', 'a?b'],
    ['a right-to-left override', 'a\u202eb', 'a?b'],
    ['DEL and C1', 'a\u007f\u0085b', 'a??b'],
  ]
  for (const [what, raw, stored] of cases) {
    it(`an instance with ${what}`, () => {
      const { sample, problems } = checkSample(good({ instance: raw }), window)
      expect(sample?.instance).toBe(stored)
      expect(problems[0]).toMatch(/instances with control characters or over 200 characters were shortened/)
    })
    it(`a state with ${what}`, () => {
      const { sample } = checkSample(good({ state: raw }), window)
      expect(sample?.state).toBe(stored)
    })
  }
  it('printable text leaves ordinary names as they are', () => {
    expect(printableText('web-1/7f3a', 200)).toBe('web-1/7f3a')
    expect(printableText('été', 200)).toBe('été')
  })
})

describe('values in range are kept as they are (bytes and counts as whole numbers)', () => {
  it('a full sample', () => {
    const full = good({ memoryBytes: 1024.4, connections: 3, connectionLimit: 97 })
    const { sample, problems } = checkSample(full, window)
    expect(problems).toEqual([])
    expect(sample).toMatchObject({
      cpuPercent: 12.5,
      memoryBytes: 1024,
      cpuLimit: 2,
      connections: 3,
      connectionLimit: 97,
    })
  })
  it('a named series, negative and large values allowed within the bound', () => {
    for (const v of [-5, 0, 1e15, null]) {
      const { sample, problems } = checkSample(good({ metric: 'heap_bytes', value: v }), window)
      expect(problems).toEqual([])
      expect(sample).toMatchObject({ metric: 'heap_bytes', value: v })
    }
    expect(checkSample(good({ metric: 'x', value: 1e300 }), window).sample?.value).toBeNull()
  })
})

describe('a monitor keeps its first instances only', () => {
  it(`admits ${SAMPLE_BOUNDS.instances} distinct instances, then only those`, () => {
    const limit = instanceLimit()
    const admitted = Array.from({ length: 20_000 }, (_, i) => limit.admit(`pod-${i}`)).filter(Boolean)
    expect(admitted.length).toBe(SAMPLE_BOUNDS.instances)
    expect(limit.admit('pod-0')).toBe(true)
    expect(limit.admit('pod-19999')).toBe(false)
  })
})

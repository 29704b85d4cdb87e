// The postgres monitor's reading of pg_stat_activity's rows, without a PostgreSQL (issue 29,
// item 7): a count the server sends as text, NULL or a number past a double's range is no reading
// (null), and its sample is kept, as is every other state's; checkSample (./bounds.ts) then stores
// it as it is. postgres.pg.test.ts runs the monitor against a real PostgreSQL.
import { describe, expect, it } from 'vitest'
import { checkSample } from './bounds.ts'
import { connectionSamples, wholeCount, type ActivityRow } from './postgres.ts'

const T = 1_700_000_000_000
const WINDOW = { fromMs: T - 1000, toMs: T + 1000 }
const byState = (rows: ActivityRow[]) =>
  Object.fromEntries(connectionSamples(rows, T, 'shop', 97).map((s) => [s.instance, s.connections]))

describe('postgres monitor: the counts it reads', () => {
  const NOT_COUNTS: [string, unknown][] = [
    ["text '12'", '12'],
    ['NULL', null],
    ["text 'abc'", 'abc'],
    ['1e400 (Infinity)', Number('1e400')],
    ['-1e400', Number('-1e400')],
    ['NaN', Number.NaN],
    ['1.5', 1.5],
    ['a bigint 12n', 12n],
    ['nothing', undefined],
  ]
  for (const [what, n] of NOT_COUNTS)
    it(`a count of ${what} is no reading (null), its sample and the others kept`, () => {
      const rows: ActivityRow[] = [
        { state: 'active', n },
        { state: 'idle', n: 3 },
      ]
      const samples = connectionSamples(rows, T, 'shop', 97)
      expect(samples.map((s) => [s.instance, s.connections])).toEqual([
        ['active', null],
        ['idle', 3],
        ['idle in transaction', 0],
      ])
      for (const s of samples) {
        const checked = checkSample(s, WINDOW)
        expect(checked.sample, s.instance).toEqual(s)
        expect(checked.problems).toEqual([])
      }
    })

  it('whole counts are read as they are, every state of STATES is there at 0, a state of no text is "unknown"', () => {
    expect(byState([])).toEqual({ active: 0, idle: 0, 'idle in transaction': 0 })
    expect(
      byState([
        { state: 'active', n: 12 },
        { state: 'fastpath function call', n: 1 },
        { state: null, n: 2 },
      ]),
    ).toEqual({ active: 12, idle: 0, 'idle in transaction': 0, 'fastpath function call': 1, unknown: 2 })
  })

  it('each sample is a postgres one of the target, with the limit, and no CPU or memory', () => {
    expect(connectionSamples([{ state: 'idle', n: 'x' }], T, 'shop', 97)[1]).toEqual({
      t: T,
      source: 'postgres',
      target: 'shop',
      instance: 'idle',
      cpuPercent: null,
      memoryBytes: null,
      memoryLimitBytes: null,
      cpuLimit: null,
      state: 'running',
      connections: null,
      connectionLimit: 97,
    })
  })

  it('wholeCount: a whole number, else null', () => {
    expect([0, 7, 2 ** 40].map(wholeCount)).toEqual([0, 7, 2 ** 40])
    expect(['12', null, 'abc', Number('1e400'), 0.5, {}].map(wholeCount)).toEqual(Array(6).fill(null))
  })
})

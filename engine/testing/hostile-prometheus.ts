// A hostile Prometheus for the serve tests (engine/server/hostile-inputs.long.test.ts): the
// answers issue 29's review sent the prometheus monitor, one case each.
import { promMatrix, promRange, type HostileAnswer, type Received } from './hostile-http.ts'

/** The moments of a range query's grid (at most 10,000). */
export const grid = (r: Received): number[] => {
  const { start, end, step } = promRange(r)
  const out: number[] = []
  for (let t = start; t <= end && out.length < 10_000; t += step) out.push(t)
  return out
}
/** A matrix answer: each series with one value at every moment of the query's grid. */
export const matrix = (r: Received, series: { metric: Record<string, string>; v: string }[]) =>
  promMatrix(
    series.map((s) => ({ metric: s.metric, values: grid(r).map((t): [unknown, unknown] => [t, s.v]) })),
  )

/**
 * What a hostile Prometheus answers a range query with, one case each (issue 29's review): bodies
 * past the limit, bombs, endless bodies, redirects to `elsewhere`, values and times no monitor may
 * store, thousands of series, megabyte labels, and a first answer after the run ended.
 */
export const hostilePrometheus = (elsewhere: () => string): [string, (r: Received) => HostileAnswer][] => [
  ['a body past 32 MB', () => ({ megabytes: 40 })],
  ['a gzip bomb', () => ({ gzipMegabytes: 64 })],
  ['an endless body', () => ({ endless: true })],
  [
    'a redirect elsewhere (307)',
    () => ({ status: 307, headers: { location: `${elsewhere()}/api/v1/query_range` } }),
  ],
  ['a redirect elsewhere (302)', () => ({ status: 302, headers: { location: `${elsewhere()}/x` } })],
  [
    'an error of 5 MB',
    () => ({ body: { status: 'error', errorType: 'bad_data', error: 'e'.repeat(5 << 20) } }),
  ],
  ['not JSON', () => ({ body: '\u0000\u0001<html>' })],
  [
    'a vector instead of a matrix',
    () => ({ body: { status: 'success', data: { resultType: 'vector', result: [] } } }),
  ],
  [
    'values of 1e300 and text',
    (r) => ({
      body: matrix(r, [
        { metric: { job: 'a' }, v: '1e300' },
        { metric: { job: 'b' }, v: 'abc' },
      ]),
    }),
  ],
  [
    'NaN and far-off times',
    () => ({
      body: promMatrix([
        {
          metric: { job: 'a' },
          values: [
            ['NaN', '1'],
            [1e300, '1'],
            [-1e12, '1'],
          ],
        },
      ]),
    }),
  ],
  [
    '3,000 series',
    (r) => ({
      body: matrix(
        r,
        Array.from({ length: 3000 }, (_, i) => ({ metric: { pod: `p${i}` }, v: '1' })),
      ),
    }),
  ],
  [
    'a 1 MB label with control characters',
    (r) => ({ body: matrix(r, [{ metric: { job: `\u001b[2J${'x'.repeat(1 << 20)}` }, v: '1' }]) }),
  ],
  [
    'metric: null and values: 7',
    () => ({
      body: { status: 'success', data: { resultType: 'matrix', result: [{ metric: null, values: 7 }] } },
    }),
  ],
  [
    'a first answer only after the run',
    (r) => ({ body: matrix(r, [{ metric: { job: 'late' }, v: '1' }]), delayMs: 4000 }),
  ],
]

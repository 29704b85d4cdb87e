import { describe, expect, it } from 'vitest'
import { testPoint } from '#engine/testing/series-point.ts'
import {
  dbConnectionRows,
  errorRows,
  phaseMarkers,
  pivot,
  resourceRows,
  throughputVsResources,
} from './series.ts'

const point = testPoint

describe('chart rows', () => {
  it('pivots one column per target, gaps as null-free missing keys, sorted by second', () => {
    const rows = pivot([point('b', 1), point('a', 0), point('a', 1)], (p) => p.requests)
    expect(rows).toEqual([
      { t: 0, a: 100 },
      { t: 1, a: 101, b: 101 },
    ])
  })

  it('keeps a target one series on the timeline, whatever its rounds (one legend entry)', () => {
    const rows = pivot([point('a', 0), point('a', 5, { round: 2 })], (p) => p.requests)
    expect(rows).toEqual([
      { t: 0, a: 100 },
      { t: 5, a: 105 },
    ])
  })

  it('draws a second without a response as a gap in latency, never 0', () => {
    const silent = point('a', 1, { responses: 0, p50: null, p99: null })
    const rows = pivot([point('a', 0), silent, point('a', 2)], (p) => p.p99)
    expect(rows.map((r) => r.a)).toEqual([1, null, 1])
  })

  it('marks target starts and phase changes per series, not per interleaved second', () => {
    const interleaved = Array.from({ length: 200 }, (_, t) =>
      point(t % 2 ? 'b' : 'a', t, { phase: t < 100 ? 'warmup' : 'load' }),
    )
    const markers = phaseMarkers(interleaved)
    expect(markers.length).toBeLessThanOrEqual(4)
    expect(markers.map((m) => m.label)).toContain('load')
    expect(phaseMarkers([point('a', 0), point('a', 1)])).toEqual([])
  })

  it('caps markers', () => {
    const many = Array.from({ length: 500 }, (_, t) => point('a', t, { phase: `p${Math.floor(t / 2)}` }))
    expect(phaseMarkers(many).length).toBe(40)
  })

  it('stacks errors by kind with zeros filled in; in flight at the end is not an error', () => {
    const { rows, kinds } = errorRows([
      point('a', 0, { errorsByKind: { timeout: 2 } }),
      point('a', 1, { errorsByKind: { inflight: 4 } }),
    ])
    expect(kinds).toEqual(['timeout'])
    expect(rows).toEqual([
      { t: 0, timeout: 2 },
      { t: 1, timeout: 0 },
    ])
  })

  it('keeps database connections per target and state, the later sample of a second, not a sum', () => {
    // Samples cover the second before their t (sampleSecond): read at 0.6–0.9 s, second 0's.
    const pg = (t: number, instance: string, connections: number) => ({
      t: t + 0.5,
      target: 'a',
      source: 'postgres',
      instance,
      cpuPercent: null,
      memoryBytes: null,
      connections,
    })
    const cpu = {
      t: 0.7,
      target: 'a',
      source: 'docker',
      instance: 'c',
      cpuPercent: 5,
      memoryBytes: 1,
      connections: null,
    }
    const { rows, keys } = dbConnectionRows([
      pg(0.1, 'idle', 4),
      pg(0.4, 'idle', 6),
      pg(0.4, 'active', 2),
      cpu,
      pg(1.1, 'idle', 1),
    ])
    expect(keys).toEqual(['a active', 'a idle'])
    expect(rows).toEqual([
      { t: 0, 'a idle': 6, 'a active': 2 },
      { t: 1, 'a idle': 1 },
    ])
  })

  it('sums instances per target and pairs throughput with resources by second', () => {
    const res = [
      {
        t: 0.9,
        target: 'a',
        source: 'docker',
        instance: '1',
        cpuPercent: 50,
        memoryBytes: 1024 * 1024,
        connections: null,
      },
      {
        t: 0.6,
        target: 'a',
        source: 'docker',
        instance: '2',
        cpuPercent: 25,
        memoryBytes: 1024 * 1024,
        connections: null,
      },
    ]
    // The sum per target, and each of its two instances as a line of its own.
    expect(resourceRows(res).cpu).toEqual([{ t: 0, a: 75, 'a · 1': 50, 'a · 2': 25 }])
    expect(throughputVsResources([point('a', 0)], res, 'a')).toEqual({
      cpu: [{ x: 100, y: 75 }],
      memory: [{ x: 100, y: 2 }],
    })
  })

  it('draws a target read by two sources as a line per source, never their sum; figures take one of them', () => {
    const at = (source: string, instance: string, cpuPercent: number | null, metric?: string) => ({
      t: 1.0,
      target: 'a',
      source,
      instance,
      cpuPercent,
      memoryBytes: cpuPercent === null ? null : 2 * 1024 * 1024,
      connections: null,
      ...(metric ? { metric, value: 7 } : {}),
    })
    const res = [
      at('process', '4242', 60),
      at('prometheus', '127.0.0.1:8082', 62),
      at('prometheus', '127.0.0.1:8082', null, 'heap_bytes'),
    ]
    const rows = resourceRows(res)
    expect(rows.cpu).toEqual([{ t: 0, 'a · process': 60, 'a · prometheus': 62 }])
    expect(rows.targets).toEqual(['a · process', 'a · prometheus'])
    // Throughput against CPU: the process monitor's reading (engine/metrics/sources.ts), as the report's.
    // The same second as the CPU chart's (it paired a sample read at 0.5 s with second 1 before).
    expect(throughputVsResources([point('a', 0), point('a', 1)], res, 'a').cpu).toEqual([{ x: 100, y: 60 }])
  })
})

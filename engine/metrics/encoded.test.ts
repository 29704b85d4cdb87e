// The merge property the scale-out rests on (issue 13): requests recorded in one process, or split
// over k agents whose blocks are encoded, shipped and added, give identical counts and percentiles.
import * as hdr from 'hdr-histogram-js'
import { beforeAll, describe, expect, it } from 'vitest'
import { ERROR_KINDS } from '../api/types.ts'
import { StatsAccumulator } from './accumulate.ts'
import { addStats, encodeStats, histogramSettings, sumStats, type EncodedStats } from './encoded.ts'
import { encodeHistogram, HIGHEST_US, initHdr } from './hdr.ts'

beforeAll(async () => {
  await initHdr()
})

/** A deterministic generator, so a failure can be replayed from its seed. */
function rng(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0
    return s / 2 ** 32
  }
}

interface Req {
  lat: number
  cor: number
  status: number
  bytes: number
  err: number
  app: number
  db: number
}

/** µs latencies over six decades (1 µs … 1 h, heavy tail), statuses, errors, Server-Timing. */
function requests(n: number, seed: number): Req[] {
  const r = rng(seed)
  const out: Req[] = []
  for (let i = 0; i < n; i++) {
    const failed = r() < 0.03
    const lat = failed ? -1 : Math.floor(10 ** (r() * 6.5)) + 1
    out.push({
      lat,
      cor: lat < 0 || r() < 0.5 ? -1 : lat + Math.floor(r() * 5000),
      status: failed ? 0 : r() < 0.05 ? 503 : 200,
      bytes: failed ? 0 : Math.floor(r() * 4096),
      err: failed ? 1 + Math.floor(r() * 3) : 0,
      app: r() < 0.5 ? Math.floor(r() * 20_000) : -1,
      db: r() < 0.3 ? Math.floor(r() * 5_000) : -1,
    })
  }
  return out
}

const add = (acc: StatsAccumulator, q: Req) => acc.add(q.lat, q.cor, q.status, q.bytes, q.err, q.app, q.db)

describe('encoded statistics', () => {
  it.each([
    [2, 1],
    [3, 2],
    [7, 3],
    [16, 4],
  ])(
    'requests split over %i agents, encoded and added, equal one process recording all (seed %i)',
    (k, seed) => {
      const all = requests(20_000, seed)
      const one = new StatsAccumulator()
      for (const q of all) add(one, q)
      // Each request goes to a random agent, as connections of different speeds would spread them.
      const pick = rng(seed * 97)
      const agents = Array.from({ length: k }, () => new StatsAccumulator())
      for (const q of all) add(agents[Math.floor(pick() * k)]!, q)
      const shipped = agents.map((a) => JSON.parse(JSON.stringify(encodeStats(a))) as EncodedStats)
      const merged = sumStats(shipped.map((stats, i) => ({ stats, who: `agent ${i}` })))

      const a = one.toBlock(10)
      const b = merged.toBlock(10)
      expect(b).toEqual(a)
      expect(merged.latency.totalCount).toBe(one.latency.totalCount)
      for (const p of [0.1, 1, 25, 50, 75, 90, 95, 99, 99.9, 99.99, 100]) {
        expect(merged.latency.getValueAtPercentile(p)).toBe(one.latency.getValueAtPercentile(p))
        expect(merged.corrected!.getValueAtPercentile(p)).toBe(one.corrected!.getValueAtPercentile(p))
      }
      // Lossless: the merged histogram encodes to the same bytes as the one-process histogram.
      expect(encodeHistogram(merged.latency)).toBe(encodeHistogram(one.latency))
      expect(Array.from(merged.errors)).toEqual(Array.from(one.errors))
      for (const x of [one, merged, ...agents]) x.destroy()
    },
  )

  it('reads the settings a histogram was recorded with from its encoding', () => {
    const acc = new StatsAccumulator()
    acc.add(1234, -1, 200, 10, 0, -1, -1)
    expect(histogramSettings(encodeStats(acc).latency)).toEqual({ lowest: 1, highest: HIGHEST_US, digits: 3 })
    acc.destroy()
    const other = hdr.build({
      bitBucketSize: 32,
      lowestDiscernibleValue: 1,
      highestTrackableValue: 60_000_000,
      numberOfSignificantValueDigits: 2,
    })
    other.recordValue(500)
    expect(histogramSettings(hdr.encodeIntoCompressedBase64(other))).toEqual({
      lowest: 1,
      highest: 60_000_000,
      digits: 2,
    })
    other.destroy()
  })

  it('refuses to add a histogram recorded with other settings, naming whose it was', () => {
    const other = hdr.build({
      bitBucketSize: 32,
      lowestDiscernibleValue: 1,
      highestTrackableValue: HIGHEST_US,
      numberOfSignificantValueDigits: 2,
    })
    other.recordValue(777)
    const block: EncodedStats = {
      requests: 1,
      ok: 1,
      bytes: 0,
      errors: new Array<number>(ERROR_KINDS.length).fill(0),
      status: [0, 1, 0, 0, 0],
      latency: hdr.encodeIntoCompressedBase64(other),
      corrected: null,
      app: null,
      db: null,
      extremes: { latency: { min: 777, max: 777 } },
    }
    other.destroy()
    const acc = new StatsAccumulator()
    expect(() => addStats(acc, block, 'agent 3, second 12')).toThrow(
      /agent 3, second 12: histogram recorded with lowest 1, highest 3600000000, 2 digits.*not be exact/,
    )
    acc.destroy()
  })
})

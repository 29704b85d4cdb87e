// A StatsAccumulator as plain data (counters + encoded HDR histograms), so that one recorded in an
// agent process can travel (IPC, PostgreSQL) and be added to others without loss: the sum of the
// agents' encoded blocks is exactly what one process recording every request would have. A merge
// refuses histograms recorded with other settings, because adding those would not be exact.
import { inflateSync } from 'node:zlib'
import { ERROR_KINDS } from '../api/types.ts'
import { HISTOGRAMS, mergeExtremes, StatsAccumulator, type HistogramName } from './accumulate.ts'
import {
  decodeHistogram,
  encodeHistogram,
  HIGHEST_US,
  newHistogram,
  type Extremes,
  type Histogram,
} from './hdr.ts'

export interface EncodedStats {
  requests: number
  ok: number
  bytes: number
  /** Counts by ERROR_KINDS index. */
  errors: number[]
  /** 1xx…5xx. */
  status: number[]
  /** `status` errors by their code (absent from agents of older versions). */
  unexpected?: Record<string, number>
  latency: string
  corrected: string | null
  app: string | null
  db: string | null
  /** Exact smallest and largest values of each non-empty histogram (a decoding keeps only buckets). */
  extremes: Partial<Record<HistogramName, Extremes>>
}

/** The settings every histogram of a run is recorded with (metrics/hdr.ts newHistogram). */
export interface HistogramSettings {
  lowest: number
  highest: number
  digits: number
}

export const RUN_HISTOGRAM_SETTINGS: HistogramSettings = Object.freeze({
  lowest: 1,
  highest: HIGHEST_US,
  digits: 3,
})

// HdrHistogram's V2 compressed encoding: an 8-byte header (cookie, length), then a zlib stream
// whose first 40 bytes are the histogram's header: cookie, payload length, normalizing offset,
// significant digits (int32 each), lowest and highest trackable values (int64), a ratio (double).
const COMPRESSED_COOKIE = 0x1c849304
const V2_COOKIE = 0x1c849303

/** The settings an encoded histogram was recorded with, read from its header. */
export function histogramSettings(encoded: string): HistogramSettings {
  const raw = Buffer.from(encoded, 'base64')
  if (raw.length < 8 || (raw.readInt32BE(0) & ~0xf0) !== (COMPRESSED_COOKIE & ~0xf0)) {
    throw new Error('not an encoded HDR histogram (V2 compressed)')
  }
  const body = inflateSync(raw.subarray(8, 8 + raw.readInt32BE(4)))
  if (body.length < 40 || (body.readInt32BE(0) & ~0xf0) !== (V2_COOKIE & ~0xf0)) {
    throw new Error('not an encoded HDR histogram (V2 header)')
  }
  return {
    digits: body.readInt32BE(12),
    lowest: Number(body.readBigInt64BE(16)),
    highest: Number(body.readBigInt64BE(24)),
  }
}

/** Throws, naming `who` and both settings, when `encoded` was not recorded like the run's histograms. */
export function checkSettings(encoded: string, who: string): void {
  const s = histogramSettings(encoded)
  const want = RUN_HISTOGRAM_SETTINGS
  if (s.lowest !== want.lowest || s.highest !== want.highest || s.digits !== want.digits) {
    throw new Error(
      `${who}: histogram recorded with lowest ${s.lowest}, highest ${s.highest}, ${s.digits} digits; ` +
        `this run records lowest ${want.lowest}, highest ${want.highest}, ${want.digits} digits, so a merge would not be exact`,
    )
  }
}

export function encodeStats(acc: StatsAccumulator): EncodedStats {
  const extremes: Partial<Record<HistogramName, Extremes>> = {}
  for (const name of HISTOGRAMS) {
    const x = acc.extremes(name)
    if (x) extremes[name] = x
  }
  return {
    requests: acc.requests,
    ok: acc.ok,
    bytes: acc.bytes,
    errors: Array.from(acc.errors),
    status: Array.from(acc.status),
    ...(acc.unexpected.size > 0 ? { unexpected: acc.unexpectedCounts() } : {}),
    latency: encodeHistogram(acc.latency),
    corrected: acc.corrected ? encodeHistogram(acc.corrected) : null,
    app: acc.app ? encodeHistogram(acc.app) : null,
    db: acc.db ? encodeHistogram(acc.db) : null,
    extremes,
  }
}

function addEncoded(into: Histogram, encoded: string, who: string): void {
  checkSettings(encoded, who)
  const h = decodeHistogram(encoded)
  into.add(h)
  h.destroy()
}

/**
 * Add an encoded block into an accumulator: counters are summed, histograms added bucket by bucket.
 * `who` names the block's origin in an error (agent 2, segment 1, second 14).
 */
export function addStats(acc: StatsAccumulator, e: EncodedStats, who: string): void {
  if (e.errors.length > ERROR_KINDS.length) {
    throw new Error(`${who}: ${e.errors.length} error kinds, this version knows ${ERROR_KINDS.length}`)
  }
  // Extremes first: once decoded buckets are added, a histogram's own max is its bucket's top.
  for (const name of HISTOGRAMS) {
    const both = mergeExtremes(acc.extremes(name), e.extremes[name] ?? null)
    if (both) acc.exact[name] = both
  }
  acc.requests += e.requests
  acc.ok += e.ok
  acc.bytes += e.bytes
  e.errors.forEach((n, i) => (acc.errors[i] = (acc.errors[i] ?? 0) + n))
  e.status.forEach((n, i) => (acc.status[i] = (acc.status[i] ?? 0) + n))
  if (e.unexpected) acc.addUnexpected(e.unexpected)
  addEncoded(acc.latency, e.latency, who)
  if (e.corrected) addEncoded((acc.corrected ??= newHistogram()), e.corrected, who)
  if (e.app) addEncoded((acc.app ??= newHistogram()), e.app, who)
  if (e.db) addEncoded((acc.db ??= newHistogram()), e.db, who)
}

/** One accumulator holding the sum of encoded blocks (the caller destroys it). */
export function sumStats(blocks: readonly { stats: EncodedStats; who: string }[]): StatsAccumulator {
  const acc = new StatsAccumulator()
  try {
    for (const b of blocks) addStats(acc, b.stats, b.who)
  } catch (err) {
    acc.destroy()
    throw err
  }
  return acc
}

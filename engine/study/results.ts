// A sweep's results: per target, throughput and p50/p95/p99 against the swept value, and the knee.
//
// The knee is where throughput stops rising while latency climbs, judged on both and, when the
// values ran several rounds, against the noise between rounds (KNEE_RULE says it in words, and the
// study page and the report show it). One round per value gives no spread, so a latency jump must
// also persist at every later value: a noisy flat line jumps up and comes back, a knee does not.
import type { StudyResults, SweepPoint } from '../api/types.ts'
import { roundsFigures } from '../metrics/figures.ts'
import { latencyStats, mergeEncoded } from '../metrics/hdr.ts'
import type { Db } from '../store/db.ts'
import { HistoryStore } from '../store/queries.ts'
import { readStudy } from '../store/studies.ts'
import { scalingPoint } from './scaling.ts'

export type { StudyResults, SweepPoint }
export type SweepTarget = StudyResults['targets'][number]

/** The smallest p99 growth that counts as latency climbing, whatever the noise. */
export const MIN_LATENCY_GROWTH = 0.2

export const KNEE_RULE =
  'The knee is the last value before the first step where p99 climbs while throughput does not keep up: p99 rises by at least 20 % and by more than twice the round-to-round spread, throughput rises by less than p99 does (or by no more than twice its own spread), and p99 stays that high at every later value. Spread: the relative standard deviation of the rounds at the two values, combined; with one round per value only the 20 % floor and the stays-high check guard against noise.'

/** Twice the combined relative spread of two points: a change smaller than this is noise. */
const noise = (a: number, b: number): number => 2 * Math.sqrt(a * a + b * b)

export interface KneeStep {
  /** The knee: the last value before latency climbs without throughput keeping up. */
  value: number
  next: number
  gain: number
  growth: number
}

/** The knee of a sweep (see KNEE_RULE), with the step that shows it; null when there is none. */
export function kneeStep(points: readonly SweepPoint[], minGrowth = MIN_LATENCY_GROWTH): KneeStep | null {
  const sorted = [...points].sort((a, b) => a.value - b.value)
  for (let i = 0; i + 1 < sorted.length; i++) {
    const a = sorted[i]!
    const b = sorted[i + 1]!
    if (!(a.p99 > 0 && a.throughput > 0)) continue
    const growth = b.p99 / a.p99
    const gain = b.throughput / a.throughput
    const needed = Math.max(minGrowth, noise(a.spread.p99, b.spread.p99))
    const climbs = growth - 1 >= needed
    const keepsUp = gain - 1 > noise(a.spread.throughput, b.spread.throughput) && gain >= growth
    const stays = sorted.slice(i + 2).every((later) => later.p99 >= a.p99 * (1 + needed))
    if (climbs && !keepsUp && stays)
      return { value: a.value, next: b.value, gain: gain - 1, growth: growth - 1 }
  }
  return null
}

export function findKnee(points: readonly SweepPoint[], minGrowth = MIN_LATENCY_GROWTH): number | null {
  return kneeStep(points, minGrowth)?.value ?? null
}

const pct = (x: number): string => `${Math.round(Math.abs(x) * 100)} %`

function sentenceFor(
  target: string,
  path: string,
  points: readonly SweepPoint[],
  knee: KneeStep | null,
): string {
  const name = path.split('.').at(-1)!
  if (points.length < 2) return `${target}: one value only, no trend.`
  const last = Math.max(...points.map((p) => p.value))
  if (knee === null)
    return `${target}: no knee up to ${name}=${last}: p99 never climbed beyond 20 % and its round-to-round spread without throughput keeping up.`
  const thr = knee.gain >= 0 ? `gains only ${pct(knee.gain)}` : `falls ${pct(knee.gain)}`
  return `${target}: the knee is at ${name}=${knee.value}: from there to ${knee.next}, p99 climbs ${pct(knee.growth)} while throughput ${thr}.`
}

/** The rounds' relative standard deviation; 0 with fewer than two rounds. */
function relativeSpread(xs: readonly number[]): number {
  if (xs.length < 2) return 0
  const mean = xs.reduce((s, x) => s + x, 0) / xs.length
  if (mean <= 0) return 0
  const variance = xs.reduce((s, x) => s + (x - mean) ** 2, 0) / (xs.length - 1)
  return Math.sqrt(variance) / mean
}

export function studyResults(db: Db, studyId: number): StudyResults {
  const study = readStudy(db, studyId)
  const byTarget = new Map<string, SweepPoint[]>()
  for (const run of study.runs) {
    const summary = new HistoryStore(db).getRun(run.runId)
    const targets = [...new Set(summary.results.map((r) => r.target))]
    for (const target of targets) {
      const rounds = summary.results.filter((r) => r.target === target)
      const merged = mergeEncoded(rounds.map((r) => r.histogram).filter(Boolean))
      const lat = latencyStats(merged)
      merged.destroy()
      // Throughput and error rate over the rounds as every screen counts them (metrics/figures.ts).
      const figures = roundsFigures(rounds)
      const answered = rounds.filter((r) => r.latency.count > 0)
      const list = byTarget.get(target) ?? []
      list.push({
        value: run.value,
        runId: run.runId,
        throughput: figures.throughput,
        p50: lat.p50,
        p95: lat.p95,
        p99: lat.p99,
        errorRate: figures.errorRate ?? 0,
        rounds: rounds.length,
        spread: {
          throughput: relativeSpread(rounds.map((r) => r.throughput)),
          p99: relativeSpread(answered.map((r) => r.latency.p99)),
        },
        scaling: scalingPoint(db, run.runId, target),
      })
      byTarget.set(target, list)
    }
  }
  return {
    studyId,
    name: study.name,
    path: study.path,
    values: study.values,
    kneeRule: KNEE_RULE,
    targets: [...byTarget].map(([target, points]) => {
      const step = kneeStep(points)
      return {
        target,
        points,
        knee: step?.value ?? null,
        sentence: sentenceFor(target, study.path, points, step),
      }
    }),
  }
}

// A sweep's results: per target (and per value of a grid's second setting), throughput and
// p50/p95/p99 against the first setting's values, and the knee where those values are numbers.
//
// The knee is where throughput stops rising while latency climbs, judged on both and, when the
// values ran several rounds, against the noise between rounds (KNEE_RULE says it in words, and the
// study page and the report show it). One round per value gives no spread, so a latency jump must
// also persist at every later value: a noisy flat line jumps up and comes back, a knee does not.
import type { StudyAxis, StudyResults, SweepPoint } from '../api/types.ts'
import { SLO_METRICS } from '../config/schema.ts'
import { axisPosition, valueLabel } from '../config/sweep.ts'
import { roundsFigures } from '../metrics/figures.ts'
import { latencyStats, mergeEncoded } from '../metrics/hdr.ts'
import { msText } from '../metrics/units.ts'
import type { Db } from '../db/db.ts'
import { HistoryStore } from '../store/history-store.ts'
import { readStudy } from '../store/studies.ts'
import { capacityOf, CAPACITY_RULE, type CapacityPoint } from './capacity.ts'
import { scalingPoint } from './scaling.ts'
import { seriesFigures } from './series.ts'

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
  axis: StudyAxis,
  points: readonly SweepPoint[],
  knee: KneeStep | null,
): string {
  const name = axis.name
  if (points.length < 2) return `${target}: one value only, no trend.`
  if (!axis.numeric) {
    // Categories (stacks, body kinds, target sets): no knee, but which value served most and fastest.
    const best = [...points].sort((a, b) => b.throughput - a.throughput)[0]!
    const fastest = [...points].sort((a, b) => a.p99 - b.p99)[0]!
    return `${target}: the most throughput with ${name}=${best.label} (${best.throughput.toFixed(1)} req/s), the lowest p99 with ${name}=${fastest.label} (${msText(fastest.p99)} ms).`
  }
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

type Line = StudyResults['targets'][number]

/** A point's percentile against the latency target: merged, and how many rounds met it alone. */
function sloPoint(latencyUs: number, rounds: readonly number[], ms: number): NonNullable<SweepPoint['slo']> {
  const under = (us: number) => us > 0 && us <= ms * 1000
  return { latencyUs, met: under(latencyUs), roundsMet: rounds.filter(under).length }
}
type Building = Omit<Line, 'knee' | 'sentence' | 'capacity'> & { forCapacity: CapacityPoint[] }

export function studyResults(db: Db, studyId: number): StudyResults {
  const study = readStudy(db, studyId)
  const [axis, by] = study.axes as [StudyAxis, StudyAxis | undefined]
  // One line per target and, in a grid, per value of the second setting.
  const lines = new Map<string, Building>()
  const slo = study.slo
  const sloKey = slo ? SLO_METRICS[slo.metric] : null
  const history = new HistoryStore(db)
  for (const run of study.runs) {
    const summary = history.getRun(run.runId)
    const byValue = by ? (run.point[1] ?? null) : null
    const targets = [...new Set(summary.results.map((r) => r.target))]
    for (const target of targets) {
      const rounds = summary.results.filter((r) => r.target === target)
      const merged = mergeEncoded(rounds.map((r) => r.histogram).filter(Boolean))
      const lat = latencyStats(merged)
      merged.destroy()
      // Throughput and error rate over the rounds as every screen counts them (metrics/figures.ts).
      const figures = roundsFigures(rounds)
      const answered = rounds.filter((r) => r.latency.count > 0)
      const key = JSON.stringify([target, byValue])
      const line: Building = lines.get(key) ?? {
        target,
        by: byValue === null ? null : { value: byValue, label: valueLabel(byValue) },
        points: [],
        forCapacity: [],
      }
      const first = run.point[0] ?? run.value
      // With a latency target: the point's percentile (merged, as shown) and each round's.
      const sloAt =
        slo && sloKey
          ? sloPoint(
              lat[sloKey],
              answered.map((r) => r.latency[sloKey]),
              slo.ms,
            )
          : null
      if (slo && sloKey)
        line.forCapacity.push({
          value: axisPosition(axis, first),
          label: valueLabel(first),
          runId: run.runId,
          throughput: figures.throughput,
          latencyUs: lat[sloKey],
          rounds: rounds.map((r) => ({ throughput: r.throughput, latencyUs: r.latency[sloKey] })),
        })
      line.points.push({
        value: axisPosition(axis, first),
        label: valueLabel(first),
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
        series: seriesFigures(db, run.runId, target),
        ...(sloAt ? { slo: sloAt } : {}),
      })
      lines.set(key, line)
    }
  }
  // Lines in the order of the second setting's values, points in the order of the first's.
  const byOrder = (l: Building) => (l.by && by ? axisPosition(by, l.by.value) : 0)
  return {
    studyId,
    name: study.name,
    path: study.path,
    values: study.values,
    axes: study.axes,
    kneeRule: KNEE_RULE,
    slo,
    capacityRule: slo ? CAPACITY_RULE : null,
    targets: [...lines.values()]
      .sort((a, b) => byOrder(a) - byOrder(b))
      .map(({ forCapacity, ...l }) => {
        const points = [...l.points].sort((a, b) => a.value - b.value)
        // A knee needs a scale: categories (stack names, body kinds) have none.
        const step = axis.numeric ? kneeStep(points) : null
        const label = l.by && by ? `${l.target}, ${by.name}=${l.by.label}` : l.target
        const capacity = slo && axis.numeric ? capacityOf(label, axis.name, forCapacity, slo) : null
        return {
          ...l,
          points,
          knee: step?.value ?? null,
          sentence: sentenceFor(label, axis, points, step),
          capacity,
        }
      }),
  }
}

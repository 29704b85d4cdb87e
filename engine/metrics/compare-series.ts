// Entries that are values of one thing (the runs of a sweep, targets marked as sizes of a series,
// or entries the user asks to see that way) are a curve against the value, not competitors: "task
// size 300 000 is 12 821 % slower than 1 000" says nothing anyone needs to know.
import { failedRequests, type CompareSeries, type CompareSeriesPoint } from '../api/types.ts'
import { geometricMean } from './compare-stats.ts'
import { fmtMetricValue, fmtRatio } from './compare-words.ts'
import type { Entry } from './compare-pairs.ts'
import { latencyStats, mergeEncoded } from './hdr.ts'

/** The first number in a target's name, times a k or M suffix: "compute-300k" → 300 000, "sleep-8ms" → 8. */
export function valueInName(name: string): number | null {
  const m = /(\d+(?:\.\d+)?)([kKM](?![A-Za-z]))?/.exec(name)
  if (!m) return null
  const base = Number(m[1])
  return m[2] === 'M' ? base * 1e6 : m[2] ? base * 1e3 : base
}

function targetSeries(e: Entry): { name: string; value: number } | null {
  return e.run.config?.targets.find((t) => t.name === e.target)?.series ?? null
}

function point(e: Entry, value: number): CompareSeriesPoint {
  const rounds = e.data
  const requests = rounds.reduce((s, r) => s + r.requests, 0)
  const failed = rounds.reduce((s, r) => s + failedRequests(r.errors), 0)
  const encoded = rounds.map((r) => r.histogram ?? '')
  let latency: { p50: number; p95: number; p99: number }
  if (encoded.every((h) => h.length > 0)) {
    // As the run's page and the study page show them: every request of every round counted once.
    const merged = mergeEncoded(encoded)
    latency = latencyStats(merged)
    merged.destroy()
  } else {
    const of = (k: 'p50' | 'p95' | 'p99') => {
      const xs = rounds.filter((r) => r.latency.count > 0 && r.latency[k] > 0).map((r) => r.latency[k])
      return xs.length ? geometricMean(xs) : 0
    }
    latency = { p50: of('p50'), p95: of('p95'), p99: of('p99') }
  }
  return {
    value,
    runId: e.runId,
    target: e.target,
    label: e.label,
    rounds: rounds.length,
    throughput: rounds.reduce((s, r) => s + r.throughput, 0) / Math.max(1, rounds.length),
    p50: latency.p50,
    p95: latency.p95,
    p99: latency.p99,
    errorRate: requests > 0 ? failed / requests : 0,
  }
}

function groupBy(entries: readonly Entry[], key: (e: Entry) => string): Map<string, Entry[]> {
  const out = new Map<string, Entry[]>()
  for (const e of entries) out.set(key(e), [...(out.get(key(e)) ?? []), e])
  return out
}

function lines(
  groups: Map<string, Entry[]>,
  valueOf: (e: Entry, i: number) => number,
): CompareSeries['lines'] {
  return [...groups].map(([name, group]) => ({
    name,
    points: group.map((e, i) => point(e, valueOf(e, i))).sort((a, b) => a.value - b.value),
  }))
}

const runName = (e: Entry): string => `run ${e.runId}`

/**
 * The curve, when the entries are values of one thing: the runs of one sweep (a line per target),
 * targets carrying the same `series` (a line per run), or any entries when asked (`asSeries`: the
 * value from the target's `series`, else a number in its name, else its position).
 */
export function seriesOf(entries: readonly Entry[], asSeries: boolean): CompareSeries | null {
  if (entries.length < 2) return null
  const runs = [...new Set(entries.map((e) => e.run))]
  const study = runs[0]?.sweep
  if (runs.length >= 2 && study && runs.every((r) => r.sweep?.studyId === study.studyId)) {
    const name = study.path.split('.').at(-1) ?? study.path
    return {
      name,
      // A grid's runs: a line per target and value of its second setting.
      lines: lines(
        groupBy(entries, (e) => (e.run.sweep?.by ? `${e.target}, ${e.run.sweep.by}` : e.target)),
        (e) => e.run.sweep!.value,
      ),
    }
  }
  const marked = entries.map(targetSeries)
  const first = marked[0]
  if (first && marked.every((m) => m?.name === first.name)) {
    return { name: first.name, lines: lines(groupBy(entries, runName), (e) => targetSeries(e)!.value) }
  }
  if (!asSeries) return null
  const names = [...new Set(marked.map((m) => m?.name).filter((n): n is string => Boolean(n)))]
  const valueOf = (e: Entry, i: number) => targetSeries(e)?.value ?? valueInName(e.target) ?? i + 1
  return { name: names.length === 1 ? names[0]! : 'value', lines: lines(groupBy(entries, runName), valueOf) }
}

/** The curve in words: how p50 and throughput move from the smallest value to the largest. */
export function seriesHeadline(s: CompareSeries): string {
  const count = s.lines.reduce((n, l) => n + l.points.length, 0)
  const out = [
    `These ${count} entries are values of one series (${s.name}), not rivals: they are shown as a curve against ${s.name}.`,
  ]
  for (const line of s.lines) {
    const a = line.points[0]
    const b = line.points.at(-1)
    if (!a || !b || a === b) continue
    const who = s.lines.length > 1 ? `${line.name}: ` : ''
    const p50 =
      a.p50 > 0 && b.p50 > 0
        ? `p50 ${b.p50 >= a.p50 ? 'rises' : 'falls'} from ${fmtMetricValue('p50', a.p50)} at ${a.value} to ${fmtMetricValue('p50', b.p50)} at ${b.value} (${fmtRatio(b.p50 / a.p50)})`
        : null
    const thr = `throughput ${b.throughput >= a.throughput ? 'rises' : 'falls'} from ${fmtMetricValue('throughput', a.throughput)} to ${fmtMetricValue('throughput', b.throughput)}`
    out.push(`${who}${p50 ? `${p50}, ${thr}` : thr}.`)
  }
  return out.join(' ')
}

// A sweep's results: per target, throughput and p50/p95/p99 against the swept value, and the knee.
import { failedRequests, type StudyResults, type SweepPoint } from '../api/types.ts'
import { latencyStats, mergeEncoded } from '../metrics/hdr.ts'
import type { Db } from '../store/db.ts'
import { HistoryStore } from '../store/queries.ts'
import { readStudy } from '../store/studies.ts'

export type { StudyResults, SweepPoint }
export type SweepTarget = StudyResults['targets'][number]

/** Throughput gains below 10 % while p99 grows by 20 % or more: past the knee. */
export function findKnee(
  points: readonly SweepPoint[],
  minGain = 0.1,
  minLatencyGrowth = 0.2,
): number | null {
  const sorted = [...points].sort((a, b) => a.value - b.value)
  for (let i = 1; i < sorted.length; i++) {
    const prev = sorted[i - 1]!
    const cur = sorted[i]!
    const gain = prev.throughput > 0 ? (cur.throughput - prev.throughput) / prev.throughput : 0
    const growth = prev.p99 > 0 ? (cur.p99 - prev.p99) / prev.p99 : 0
    if (gain < minGain && growth >= minLatencyGrowth) return prev.value
  }
  return null
}

function sentenceFor(
  target: string,
  path: string,
  points: readonly SweepPoint[],
  knee: number | null,
): string {
  const name = path.split('.').at(-1)!
  if (points.length < 2) return `${target}: one value only, no trend.`
  if (knee === null)
    return `${target}: throughput kept rising (or latency stayed flat) up to ${name}=${points.at(-1)!.value}; no knee in this range.`
  const i = points.findIndex((p) => p.value === knee)
  const a = points[i]!
  const b = points[i + 1]!
  const gain = ((b.throughput - a.throughput) / a.throughput) * 100
  const growth = ((b.p99 - a.p99) / a.p99) * 100
  return `${target}: throughput stops rising after ${name}=${knee} (${gain >= 0 ? '+' : ''}${gain.toFixed(0)} % at ${b.value}) while p99 climbs ${growth.toFixed(0)} %.`
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
      const requests = rounds.reduce((s, r) => s + r.requests, 0)
      const errors = rounds.reduce((s, r) => s + failedRequests(r.errors), 0)
      const list = byTarget.get(target) ?? []
      list.push({
        value: run.value,
        runId: run.runId,
        throughput: rounds.reduce((s, r) => s + r.throughput, 0) / rounds.length,
        p50: lat.p50,
        p95: lat.p95,
        p99: lat.p99,
        errorRate: requests ? errors / requests : 0,
      })
      byTarget.set(target, list)
    }
  }
  return {
    studyId,
    name: study.name,
    path: study.path,
    values: study.values,
    targets: [...byTarget].map(([target, points]) => {
      const knee = findKnee(points)
      return { target, points, knee, sentence: sentenceFor(target, study.path, points, knee) }
    }),
  }
}

// A target's monitors' figures over one run of a study, for plotting against its throughput (the
// thesis' "memory against throughput", and any series a Prometheus monitor brought: JVM heap, GC
// share, event-loop lag, a query's own): CPU and memory as every view sums the target's instances,
// and each named series as its unit adds them up, averaged over the seconds the target was
// measured in (its rows of the per-second series), so a cooldown or the idle baseline before the
// run does not dilute them.
import type { SeriesFigure } from '../api/types.ts'
import type { Db } from '../db/db.ts'
import { HistoryStore } from '../store/history-store.ts'
import { metricSeconds, targetSeconds } from '../store/resource-samples.ts'

function figure(metric: string, values: readonly (number | null | undefined)[]): SeriesFigure | null {
  const present = values.filter((v): v is number => v !== null && v !== undefined)
  if (present.length === 0) return null
  return { metric, mean: present.reduce((a, v) => a + v, 0) / present.length, seconds: present.length }
}

export function seriesFigures(db: Db, runId: number, target: string): SeriesFigure[] {
  const measured = [
    ...new Set(
      new HistoryStore(db)
        .series(runId)
        .filter((s) => s.target === target)
        .map((s) => s.t),
    ),
  ]
  const own = targetSeconds(db, runId).get(target)
  const named = metricSeconds(db, runId).get(target) ?? new Map<string, Map<number, number>>()
  return [
    figure(
      'cpu_percent',
      measured.map((t) => own?.get(t)?.cpuPercent),
    ),
    figure(
      'memory_bytes',
      measured.map((t) => own?.get(t)?.memoryBytes),
    ),
    ...[...named.keys()].sort().map((metric) =>
      figure(
        metric,
        measured.map((t) => named.get(metric)?.get(t)),
      ),
    ),
  ].filter((f): f is SeriesFigure => f !== null)
}

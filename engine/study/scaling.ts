// Throughput against CPU per instance count (the thesis' figure 7.3 and table 7.1): for one run and
// one target, every second's throughput next to the CPU of all the target's instances together
// (app containers of a stack with replicas, processes, Cloud Foundry instances), and how much of
// what the instances had they used at the peak. The series and the samples share the run's
// timeline, so a second's throughput and CPU are the same second's.
import type { ScalingPoint } from '../api/types.ts'
import { figureReadings } from '../metrics/sources.ts'
import { sampleSecond } from '../metrics/resource-summary.ts'
import type { Db } from '../db/db.ts'
import { HistoryStore } from '../store/history-store.ts'
import { resourceLimits, resourcePoints } from '../store/resource-samples.ts'

export function scalingPoint(db: Db, runId: number, target: string): ScalingPoint | null {
  // CPU of the target's instances: not the generator's, not a database's connection counts.
  // With several CPU sources, the target's figure source (engine/metrics/sources.ts).
  const samples = figureReadings(resourcePoints(db, runId)).filter(
    (p) => p.target === target && p.source !== 'generator' && p.connections === null && p.cpuPercent !== null,
  )
  const instances = new Set(samples.map((p) => p.instance))
  if (instances.size === 0) return null
  // One sum per second, only where every instance reported: a partial sum would understate it.
  // Each instance's mean in the second, as every other view of the run takes it.
  const readings = new Map<number, Map<string, number[]>>()
  for (const p of samples) {
    const t = sampleSecond(p.t)
    const at = readings.get(t) ?? new Map<string, number[]>()
    at.set(p.instance, [...(at.get(p.instance) ?? []), p.cpuPercent!])
    readings.set(t, at)
  }
  const perSecond = new Map(
    [...readings].map(([t, at]) => [
      t,
      new Map([...at].map(([i, xs]) => [i, xs.reduce((a, x) => a + x, 0) / xs.length])),
    ]),
  )
  const throughput = new Map<number, number>()
  for (const s of new HistoryStore(db).series(runId)) {
    if (s.target === target) throughput.set(s.t, (throughput.get(s.t) ?? 0) + s.requests)
  }
  const seconds: ScalingPoint['seconds'] = []
  for (const [t, at] of [...perSecond].sort(([a], [b]) => a - b)) {
    const requests = throughput.get(t)
    if (requests === undefined || at.size < instances.size) continue
    seconds.push({ t, throughput: requests, cpu: round1([...at.values()].reduce((a, x) => a + x, 0)) })
  }
  const limit = resourceLimits(db, runId).find((l) => l.target === target)?.cpuLimit ?? null
  const capacityPerInstance = limit !== null && limit > 0 ? limit * 100 : null
  const peakCpu = seconds.reduce((a, s) => Math.max(a, s.cpu), 0)
  return {
    instances: instances.size,
    capacityPerInstance,
    peakCpu,
    utilization: capacityPerInstance ? peakCpu / (instances.size * capacityPerInstance) : null,
    peakThroughput: seconds.reduce((a, s) => Math.max(a, s.throughput), 0),
    seconds,
  }
}

const round1 = (x: number) => Math.round(x * 10) / 10

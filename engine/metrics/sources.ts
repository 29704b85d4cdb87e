// One target, one CPU and one memory figure. A target may have several monitors that read CPU and
// memory (the process monitor and Prometheus on the same server, as issue 22's evidence run does,
// or docker and process): every figure that sums a target's instances (the per-second CPU of
// exports and studies, throughput against CPU, the report's charts) takes them from one source, the
// first of FIGURE_SOURCES the target has, so two readings of the same CPU are never added up. The
// others stay stored and exported, and the run's charts draw each source beside the other.
import type { MonitorKind } from '../config/schema-monitor.ts'

/** The machine's own readings first, then the platforms', then Prometheus' (which reads an exporter). */
export const FIGURE_SOURCES: readonly Exclude<MonitorKind, 'postgres'>[] = [
  'docker',
  'process',
  'cloudfoundry',
  'kubernetes',
  'prometheus',
]

interface Reading {
  target: string
  source: string
  cpuPercent: number | null
  memoryBytes: number | null
}

const rank = (source: string): number => {
  const i = (FIGURE_SOURCES as readonly string[]).indexOf(source)
  return i < 0 ? FIGURE_SOURCES.length : i
}

/** Per target, the source its CPU and memory figures come from (of those that read either). */
export function primarySources(points: Iterable<Reading>): Map<string, string> {
  const out = new Map<string, string>()
  for (const p of points) {
    if (p.source === 'generator' || (p.cpuPercent === null && p.memoryBytes === null)) continue
    const current = out.get(p.target)
    if (current === undefined || rank(p.source) < rank(current)) out.set(p.target, p.source)
  }
  return out
}

/** The readings of each target's figure source (and every point that is no CPU or memory reading). */
export function figureReadings<P extends Reading>(points: readonly P[]): P[] {
  const primary = primarySources(points)
  return points.filter(
    (p) =>
      (p.cpuPercent === null && p.memoryBytes === null) || (primary.get(p.target) ?? p.source) === p.source,
  )
}

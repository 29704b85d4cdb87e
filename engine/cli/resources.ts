// `runs show`'s resources block (text and --json): per target its CPU and memory, mean and peak,
// for each instance and their sum, and its database's connections; engine/metrics/resource-summary.ts
// defines each figure (the report's resources table shows the same).
import type { MeanPeak, TargetResources } from '../metrics/resource-summary.ts'
import { formatTable } from './table.ts'

const pct = (m: MeanPeak | null, k: keyof MeanPeak): string => (m ? m[k].toFixed(1) : '-')
const mib = (m: MeanPeak | null, k: keyof MeanPeak): string => (m ? (m[k] / 2 ** 20).toFixed(1) : '-')
const round = (m: MeanPeak | null, digits: number): MeanPeak | null =>
  m && { mean: Number(m.mean.toFixed(digits)), peak: Number(m.peak.toFixed(digits)) }

/** The block as JSON: CPU in % (100 = one core, 1 decimal), memory in bytes, connections per state. */
export function resourcesJson(summary: readonly TargetResources[]) {
  return summary.map((t) => ({
    target: t.target,
    seconds: t.seconds,
    cpuPercent: round(t.sum.cpu, 1),
    memoryBytes: round(t.sum.memory, 0),
    instances: t.instances.map((i) => ({
      instance: i.instance,
      source: i.source,
      cpuPercent: round(i.cpu, 1),
      memoryBytes: round(i.memory, 0),
      firstSampleAt: i.firstSampleAt,
      firstCpuAt: i.firstCpuAt,
    })),
    connections: t.connections.map((c) => ({
      state: c.state,
      mean: Number(c.mean.toFixed(1)),
      peak: c.peak,
    })),
  }))
}

/** The block as text: a row per target (its sum) and per instance beneath it. */
export function resourceLines(summary: readonly TargetResources[]): string[] {
  const monitored = summary.filter((t) => t.instances.length || t.connections.length)
  if (monitored.length === 0) return ['resources: no target was monitored']
  const rows: string[][] = []
  for (const t of monitored) {
    if (!t.instances.length) continue
    const several = t.instances.length > 1
    rows.push([
      t.target,
      several ? `sum of ${t.instances.length}` : t.instances[0]!.instance,
      ...cells(t.sum),
    ])
    if (several) for (const i of t.instances) rows.push(['', `  ${i.instance}`, ...cells(i)])
  }
  const out = [`resources (mean / peak over each target's seconds under load):`]
  if (rows.length)
    out.push(
      formatTable(
        ['TARGET', 'INSTANCE', 'CPU % MEAN', 'CPU % PEAK', 'MEMORY MiB MEAN', 'MEMORY MiB PEAK'],
        rows,
        [2, 3, 4, 5],
      ).trimEnd(),
    )
  for (const t of monitored)
    if (t.connections.length)
      out.push(
        `db connections ${t.target}: ${t.connections.map((c) => `${c.state} ${c.mean.toFixed(1)} / ${c.peak}`).join(', ')}`,
      )
  const late = monitored.flatMap((t) =>
    t.instances
      .filter((i) => i.firstCpuAt !== null && i.firstCpuAt > i.firstSampleAt)
      .map((i) => `${t.target} ${i.instance} from ${i.firstCpuAt} s (sampled from ${i.firstSampleAt} s)`),
  )
  if (late.length)
    out.push(
      `first CPU values (a CPU % needs two readings, so it comes a second or two after an instance's first sample): ${late.join(', ')}`,
    )
  return out
}

function cells(x: { cpu: MeanPeak | null; memory: MeanPeak | null }): string[] {
  return [pct(x.cpu, 'mean'), pct(x.cpu, 'peak'), mib(x.memory, 'mean'), mib(x.memory, 'peak')]
}

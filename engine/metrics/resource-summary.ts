// A run's resources in figures, defined once for `runs show` (text and --json), the report's
// resources table and its page 1 (CPU and memory columns): per target, each instance's CPU and
// memory (mean and peak) and their sum, and its database's connections per state. Every figure
// is over the target's own seconds under load (the seconds its series has), from each instance's
// mean in a second (a monitor may sample twice in one); a target's sum in a second adds its
// instances' values. An instance's first CPU value comes a second or two after its first sample
// (a CPU % is the difference of two readings): `firstCpuAt` says when, so a missing start reads
// as what it is. Pure: the samples and the series are handed in.
import type { ResourcePoint, SeriesPoint } from '../api/types.ts'

export interface MeanPeak {
  mean: number
  peak: number
}

export interface InstanceResources {
  instance: string
  source: string
  cpu: MeanPeak | null
  memory: MeanPeak | null
  /** Seconds since the run's start of its first sample and of its first CPU value (null: none). */
  firstSampleAt: number
  firstCpuAt: number | null
}

export interface TargetResources {
  target: string
  /** Seconds under load the figures cover. */
  seconds: number
  instances: InstanceResources[]
  /** The instances added up, second by second. */
  sum: { cpu: MeanPeak | null; memory: MeanPeak | null }
  /** The postgres monitor: connections per state (max in a second), mean and peak. */
  connections: ({ state: string } & MeanPeak)[]
}

/**
 * The second of the run a resource sample belongs to: the one it covers (issue 28, Must 5). A
 * monitor's reading at t covers (t − 1, t] (a CPU % is the difference from the reading a second
 * before; the generator's sample of second k is stored at k + 1), so it belongs to the second that
 * holds the middle of that interval: a sample at 20.67 s is second 20's, one at 21.0 too, one at
 * 20.2 s second 19's. The run page, Compare, the study page, `runs show`, the CSV and the PDF all
 * place samples with it (and engine/store/resource-samples.ts's SQL with SAMPLE_SECOND_SQL, the same rule).
 */
export function sampleSecond(t: number): number {
  return Math.floor(t - 0.5)
}

/** Each target's seconds under load: the whole seconds its series has. */
export function loadSeconds(series: readonly Pick<SeriesPoint, 'target' | 't'>[]): Map<string, Set<number>> {
  const out = new Map<string, Set<number>>()
  for (const p of series) out.set(p.target, (out.get(p.target) ?? new Set()).add(Math.floor(p.t)))
  return out
}

function meanPeak(values: readonly number[]): MeanPeak | null {
  if (values.length === 0) return null
  return { mean: values.reduce((s, v) => s + v, 0) / values.length, peak: Math.max(...values) }
}

const avg = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / xs.length

type Cell = { cpu: number[]; mem: number[]; conn: number[] }

type Entry = { source: string; instance: string; first: number; seconds: Map<number, Cell> }

/** Per target, per (source, instance), per whole second: the values sampled in it. */
function cells(resources: readonly ResourcePoint[]): Map<string, Map<string, Entry>> {
  const out = new Map<string, Map<string, Entry>>()
  for (const r of resources) {
    if (r.source === 'generator') continue
    const byInstance = out.get(r.target) ?? new Map<string, Entry>()
    const key = `${r.source}\u0000${r.instance}`
    const entry: Entry = byInstance.get(key) ?? {
      source: r.source,
      instance: r.instance,
      first: r.t,
      seconds: new Map<number, Cell>(),
    }
    entry.first = Math.min(entry.first, r.t)
    const t = sampleSecond(r.t)
    const cell: Cell = entry.seconds.get(t) ?? { cpu: [], mem: [], conn: [] }
    if (r.cpuPercent !== null) cell.cpu.push(r.cpuPercent)
    if (r.memoryBytes !== null) cell.mem.push(r.memoryBytes)
    if (r.connections !== null && r.connections !== undefined) cell.conn.push(r.connections)
    entry.seconds.set(t, cell)
    byInstance.set(key, entry)
    out.set(r.target, byInstance)
  }
  return out
}

export function resourceSummary(
  resources: readonly ResourcePoint[],
  series: readonly Pick<SeriesPoint, 'target' | 't'>[],
): TargetResources[] {
  const load = loadSeconds(series)
  const out: TargetResources[] = []
  for (const [target, byInstance] of cells(resources)) {
    const seconds = load.get(target) ?? new Set<number>()
    const sumCpu = new Map<number, number>()
    const sumMem = new Map<number, number>()
    const instances: InstanceResources[] = []
    const connections: TargetResources['connections'] = []
    for (const e of byInstance.values()) {
      const cpu: number[] = []
      const mem: number[] = []
      const conn: number[] = []
      let firstCpuAt: number | null = null
      for (const [t, c] of [...e.seconds].sort((a, b) => a[0] - b[0])) {
        if (c.cpu.length && firstCpuAt === null) firstCpuAt = t
        if (!seconds.has(t)) continue
        if (c.cpu.length) cpu.push(avg(c.cpu))
        if (c.mem.length) mem.push(avg(c.mem))
        if (c.conn.length) conn.push(Math.max(...c.conn))
        if (c.cpu.length) sumCpu.set(t, (sumCpu.get(t) ?? 0) + avg(c.cpu))
        if (c.mem.length) sumMem.set(t, (sumMem.get(t) ?? 0) + avg(c.mem))
      }
      if (e.source === 'postgres') {
        const mp = meanPeak(conn)
        if (mp) connections.push({ state: e.instance, ...mp })
        continue
      }
      instances.push({
        instance: e.instance,
        source: e.source,
        cpu: meanPeak(cpu),
        memory: meanPeak(mem),
        firstSampleAt: sampleSecond(e.first),
        firstCpuAt,
      })
    }
    out.push({
      target,
      seconds: seconds.size,
      instances,
      sum: { cpu: meanPeak([...sumCpu.values()]), memory: meanPeak([...sumMem.values()]) },
      connections,
    })
  }
  return out
}

// CPU and memory per target and second for the charts: each instance's mean in the second (a
// monitor may sample twice in one), summed per target, and where a target has several instances
// (a process tree's processes, a replicated stack's containers, Cloud Foundry's instances) each
// instance as its own line beside the sum: what is stored per instance is shown per instance.
import type { ResourcePoint } from '#engine/api/types.ts'
import type { Row } from './chart-types.ts'
import { sampleSecond } from '#engine/metrics/resource-summary.ts'

/** A line of an instance: its key in the rows, its target and its name. */
export interface InstanceLine {
  key: string
  target: string
  instance: string
}

export interface ResourceRows {
  cpu: Row[]
  memory: Row[]
  /** The targets (and sources, the generator) with a sum line, in order of first appearance. */
  targets: string[]
  /** Targets with two or more instances: a line each. */
  instances: InstanceLine[]
  /** Per instance line, the first second with a CPU value (a CPU % needs two readings). */
  firstCpu: Map<string, number>
}

export const instanceKey = (target: string, instance: string): string => `${target} · ${instance}`

type Acc = { cpu: number[]; mem: number[] }

/**
 * Per target, the key its lines go by: the target, or `target · source` for each source where two
 * read it (a process monitor and Prometheus on the same server): two readings of one CPU are never
 * added up.
 */
function targetKeys(points: readonly ResourcePoint[]): (p: ResourcePoint) => string {
  const sources = new Map<string, Set<string>>()
  for (const p of points) {
    if (p.cpuPercent === null && p.memoryBytes === null) continue
    sources.set(p.target, (sources.get(p.target) ?? new Set()).add(p.source))
  }
  return (p) => ((sources.get(p.target)?.size ?? 0) > 1 ? `${p.target} · ${p.source}` : p.target)
}

/** Per (target or target · source, instance, second): the values sampled in it. */
function bySecond(points: readonly ResourcePoint[]) {
  const cells = new Map<string, Map<string, Map<number, Acc>>>()
  const keyOf = targetKeys(points)
  for (const p of points) {
    if (p.cpuPercent === null && p.memoryBytes === null) continue // a connection count, a named series
    // The second the sample covers, as every screen, the CSV and the PDF place it.
    const t = sampleSecond(p.t)
    const target = keyOf(p)
    const instances = cells.get(target) ?? new Map<string, Map<number, Acc>>()
    const seconds = instances.get(p.instance) ?? new Map<number, Acc>()
    const acc = seconds.get(t) ?? { cpu: [], mem: [] }
    if (p.cpuPercent !== null) acc.cpu.push(p.cpuPercent)
    if (p.memoryBytes !== null) acc.mem.push(p.memoryBytes / (1024 * 1024))
    seconds.set(t, acc)
    instances.set(p.instance, seconds)
    cells.set(target, instances)
  }
  return cells
}

const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / xs.length

export function resourceRows(points: readonly ResourcePoint[]): ResourceRows {
  const cpu = new Map<number, Row>()
  const memory = new Map<number, Row>()
  const instances: InstanceLine[] = []
  const firstCpu = new Map<string, number>()
  const add = (rows: Map<number, Row>, t: number, key: string, v: number) => {
    const row = rows.get(t) ?? { t }
    row[key] = (row[key] ?? 0) + v
    rows.set(t, row)
  }
  const cells = bySecond(points)
  for (const [target, byInstance] of cells) {
    const several = byInstance.size > 1
    for (const [instance, seconds] of byInstance) {
      const key = instanceKey(target, instance)
      if (several) instances.push({ key, target, instance })
      for (const [t, acc] of seconds) {
        if (acc.cpu.length) {
          add(cpu, t, target, mean(acc.cpu))
          if (several) add(cpu, t, key, mean(acc.cpu))
          if (t < (firstCpu.get(key) ?? Infinity)) firstCpu.set(key, t)
        }
        if (acc.mem.length) {
          add(memory, t, target, mean(acc.mem))
          if (several) add(memory, t, key, mean(acc.mem))
        }
      }
    }
  }
  const sort = (m: Map<number, Row>) => [...m.values()].sort((a, b) => a.t - b.t)
  return { cpu: sort(cpu), memory: sort(memory), targets: [...cells.keys()], instances, firstCpu }
}

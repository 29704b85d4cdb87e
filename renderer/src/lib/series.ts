// Turning engine series (one row per second, target and round) into chart rows (one row per
// second, one column per series). Pure functions, called inside useMemo. On the run's timeline a
// target is one series: its rounds never overlap in time, so they share its legend entry and
// colour (rounds.ts overlays them instead, with a band).
import type { ResourcePoint, SeriesPoint } from '#engine/api/types.ts'
import { figureReadings } from '#engine/metrics/sources.ts'
import { kindLabel } from '#engine/metrics/units.ts'
import { sampleSecond } from '#engine/metrics/resource-summary.ts'
import type { Marker, Row } from './chart-types.ts'

/** The targets of some points, in order of first appearance. */
export function keysOf(points: readonly { target: string }[]): string[] {
  return [...new Set(points.map((p) => p.target))]
}

/** Rows by second, a column per target; a second without a value is null (a gap, not a zero). */
export function pivot<P extends { target: string; t: number }>(
  points: readonly P[],
  value: (p: P) => number | null,
  suffix = '',
): Row[] {
  const rows = new Map<number, Row>()
  for (const p of points) {
    let row = rows.get(p.t)
    if (!row) {
      row = { t: p.t }
      rows.set(p.t, row)
    }
    row[p.target + suffix] = value(p)
  }
  return [...rows.values()].sort((a, b) => a.t - b.t)
}

/** Merge several pivots (e.g. p50, p95, p99 of each target) into one row per second. */
export function mergeRows(...sets: readonly Row[][]): Row[] {
  const rows = new Map<number, Row>()
  for (const set of sets) for (const r of set) rows.set(r.t, { ...(rows.get(r.t) ?? { t: r.t }), ...r })
  return [...rows.values()].sort((a, b) => a.t - b.t)
}

/** Points a stored run's charts ask for, all series of a view together (runs.series downsamples). */
export const MAX_CHART_POINTS = 2000

const MAX_MARKERS = 40

/**
 * Markers where a target/round starts and where its phase changes. Computed per series, so
 * interleaved rounds do not produce a marker per second; beyond MAX_MARKERS only phase changes
 * are kept (and then only the last ones): a chart with hundreds of reference lines is unreadable.
 */
export function phaseMarkers(points: readonly SeriesPoint[]): Marker[] {
  const groups = new Map<string, SeriesPoint[]>()
  for (const p of points) {
    const key = `${p.target}\u0000${p.round}`
    const list = groups.get(key)
    if (list) list.push(p)
    else groups.set(key, [p])
  }
  const starts: Marker[] = []
  const phases: Marker[] = []
  for (const list of groups.values()) {
    list.sort((a, b) => a.t - b.t)
    let last: SeriesPoint | null = null
    for (const p of list) {
      if (!last) starts.push({ t: p.t, label: p.phase === 'main' ? p.target : `${p.target} · ${p.phase}` })
      else if (last.phase !== p.phase) phases.push({ t: p.t, label: p.phase })
      last = p
    }
  }
  // One series in one phase: a marker at its start says nothing.
  const all = groups.size > 1 ? [...starts, ...phases] : phases
  const chosen = all.length <= MAX_MARKERS ? all : phases.slice(-MAX_MARKERS)
  return chosen.sort((a, b) => a.t - b.t)
}

export { resourceRows } from './resource-rows.ts'

/**
 * Database connections per target, state and second (the postgres monitor). Each sample is a
 * count at an instant, so a second with two samples keeps the later one, never their sum.
 */
export function dbConnectionRows(points: readonly ResourcePoint[]): { rows: Row[]; keys: string[] } {
  const rows = new Map<number, Row>()
  const keys = new Set<string>()
  for (const p of [...points].sort((a, b) => a.t - b.t)) {
    if (p.connections === null || p.connections === undefined) continue
    const t = sampleSecond(p.t)
    const key = `${p.target} ${p.instance}`
    keys.add(key)
    const row = rows.get(t) ?? { t }
    row[key] = p.connections
    rows.set(t, row)
  }
  return { rows: [...rows.values()].sort((a, b) => a.t - b.t), keys: [...keys].sort() }
}

/** Pair each second's throughput with the same second's CPU and memory of that target. */
export function throughputVsResources(
  series: readonly SeriesPoint[],
  resources: readonly ResourcePoint[],
  target: string,
): { cpu: { x: number; y: number }[]; memory: { x: number; y: number }[] } {
  // Each instance's mean in the second, summed over the instances, as the CPU chart, the study
  // page and the PDF take it. With several CPU sources, the target's figure source.
  const cells = new Map<number, Map<string, { cpu: number[]; mem: number[] }>>()
  for (const r of figureReadings(resources)) {
    if (r.target !== target) continue
    const t = sampleSecond(r.t)
    const at = cells.get(t) ?? new Map<string, { cpu: number[]; mem: number[] }>()
    const cell = at.get(r.instance) ?? { cpu: [], mem: [] }
    if (r.cpuPercent !== null) cell.cpu.push(r.cpuPercent)
    if (r.memoryBytes !== null) cell.mem.push(r.memoryBytes / (1024 * 1024))
    at.set(r.instance, cell)
    cells.set(t, at)
  }
  const mean = (xs: number[]) => xs.reduce((a, x) => a + x, 0) / xs.length
  const byT = new Map<number, { cpu: number | null; mem: number | null }>()
  for (const [t, at] of cells) {
    const e: { cpu: number | null; mem: number | null } = { cpu: null, mem: null }
    for (const c of at.values()) {
      if (c.cpu.length) e.cpu = (e.cpu ?? 0) + mean(c.cpu)
      if (c.mem.length) e.mem = (e.mem ?? 0) + mean(c.mem)
    }
    byT.set(t, e)
  }
  const cpu: { x: number; y: number }[] = []
  const memory: { x: number; y: number }[] = []
  for (const p of series) {
    if (p.target !== target) continue
    const r = byT.get(p.t)
    if (!r) continue
    // Efficiency figures: throughput vs CPU (x = responses/s, y = CPU %), memory vs throughput.
    if (r.cpu !== null) cpu.push({ x: p.responses, y: r.cpu })
    if (r.mem !== null) memory.push({ x: p.responses, y: r.mem })
  }
  return { cpu, memory }
}

/**
 * Errors by kind per second, all targets summed (a stacked chart), the kinds named as on every
 * screen. Requests in flight at the end are not errors: not in it.
 */
export function errorRows(points: readonly SeriesPoint[]): { rows: Row[]; kinds: string[] } {
  const kinds = new Set<string>()
  const rows = new Map<number, Row>()
  for (const p of points) {
    const row = rows.get(p.t) ?? { t: p.t }
    for (const [kind, n] of Object.entries(p.errorsByKind)) {
      if (!n || kind === 'inflight') continue
      const label = kindLabel(kind)
      kinds.add(label)
      row[label] = (row[label] ?? 0) + n
    }
    rows.set(p.t, row)
  }
  const list = [...kinds]
  const out = [...rows.values()].sort((a, b) => a.t - b.t)
  for (const r of out) for (const k of list) r[k] ??= 0
  return { rows: out, kinds: list }
}

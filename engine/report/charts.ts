// The report's charts, built from stored data with the primitives in svg.ts: the load schedule,
// throughput, latency percentiles and errors over time, the latency distribution (HdrHistogram's
// percentile plot) and the targets' resources against their throughput, joined per second.
// Throughput is responses per second and latency is drawn only where something was answered
// (engine/metrics/figures.ts): a second of timeouts is a gap in latency and a bar of errors.
import type { Plan, PreviewPoint } from '../config/compile.ts'
import { ERROR_KINDS, type ErrorKind, type ResourcePoint, type SeriesPoint } from '../api/types.ts'
import { figureReadings } from '../metrics/sources.ts'
import { sampleSecond } from '../metrics/resource-summary.ts'
import { NINES_FROM, NINES_TICKS } from '../metrics/distribution.ts'
import { kindLabel } from '../metrics/units.ts'
import { esc } from './format.ts'
import { colourFor, paletteColour, tint } from './palette.ts'
import { compact, lineChart, niceMax, scatterChart, splitAtGaps, type LineSeries } from './svg.ts'

const ms = (us: number) => us / 1000

/** A stable colour per target name across every chart of a report (the app uses the same). */
export const colorFor = colourFor

/**
 * A target's points as line segments: one per round (rounds are not joined), split at pauses and
 * where a second has no value (no response: no latency).
 */
function segmentsOf(
  points: readonly SeriesPoint[],
  y: (p: SeriesPoint) => number | null,
): [number, number][][] {
  const rounds = new Map<number, [number, number][][]>()
  for (const p of points) {
    const segs = rounds.get(p.round) ?? [[]]
    const v = y(p)
    if (v === null) segs.push([])
    else segs[segs.length - 1]!.push([p.t, v])
    rounds.set(p.round, segs)
  }
  return [...rounds.values()].flatMap((segs) =>
    segs.filter((s) => s.length > 0).flatMap((s) => splitAtGaps(s)),
  )
}

function byTarget(series: readonly SeriesPoint[]): Map<string, SeriesPoint[]> {
  const out = new Map<string, SeriesPoint[]>()
  for (const p of series) {
    const list = out.get(p.target) ?? []
    list.push(p)
    out.set(p.target, list)
  }
  for (const list of out.values()) list.sort((a, b) => a.t - b.t)
  return out
}

export function scheduleChart(points: readonly PreviewPoint[], plan: Plan, segments: number): string {
  if (points.length === 0) return '<p class="muted">No schedule: the load profile could not be compiled.</p>'
  const line: [number, number][] = points.map((p) => [p.t, p.connections])
  const last = points[points.length - 1]!
  line.push([last.t + 1, last.connections])
  const estimated = points.some((p) => p.estimated)
  const phases = plan.phases.length > 1 ? `Phases: ${plan.phases.join(', ')}. ` : ''
  return lineChart([{ label: 'connections', color: '#334155', segments: [line] }], {
    title: 'Load profile: scheduled connections per second',
    x: { label: 'seconds from the start of each segment', zero: true },
    y: { label: 'connections' },
    height: 170,
    step: true,
    note: `${phases}Played once per target and round (${segments} segment${segments === 1 ? '' : 's'}).${
      estimated ? ' Request-bound steps are drawn 10 s long: their real length depends on the target.' : ''
    }`,
  })
}

/** The throughput chart's lines: responses per second, per target (rounds as separate segments). */
export function throughputLines(series: readonly SeriesPoint[], color: (t: string) => string): LineSeries[] {
  return [...byTarget(series)].map(([target, pts]) => ({
    label: target,
    color: color(target),
    segments: segmentsOf(pts, (p) => p.responses),
  }))
}

export function throughputChart(series: readonly SeriesPoint[], color: (t: string) => string): string {
  const lines = throughputLines(series, color)
  if (lines.length === 0) return ''
  return lineChart(lines, {
    title: 'Throughput over time (responses per second)',
    x: { label: 'seconds since run start', zero: true },
    bucket: 1,
    y: { label: 'responses/s' },
  })
}

/** Errors per second by kind, every target together; requests in flight at the end are not errors. */
export function errorsChart(series: readonly SeriesPoint[]): string {
  type Kind = Exclude<ErrorKind, 'none' | 'inflight'>
  const kinds = ERROR_KINDS.filter(
    (k): k is Kind => k !== 'none' && k !== 'inflight' && series.some((p) => (p.errorsByKind[k] ?? 0) > 0),
  )
  if (series.length === 0) return ''
  if (kinds.length === 0) return '<p class="muted">Errors over time: no second had an error.</p>'
  const seconds = [...new Set(series.map((p) => p.t))].sort((a, b) => a - b)
  const sums = new Map<number, Partial<Record<string, number>>>()
  for (const p of series) {
    const row = sums.get(p.t) ?? {}
    for (const k of kinds) row[k] = (row[k] ?? 0) + (p.errorsByKind[k] ?? 0)
    sums.set(p.t, row)
  }
  const lines: LineSeries[] = kinds.map((k, i) => ({
    label: kindLabel(k),
    // Not a target: colours from the far end of the palette, so no kind looks like a target.
    color: paletteColour(-1 - i),
    segments: splitAtGaps(seconds.map((t): [number, number] => [t, sums.get(t)?.[k] ?? 0])),
  }))
  return lineChart(lines, {
    title: 'Errors over time, by kind (all targets)',
    x: { label: 'seconds since run start', zero: true },
    bucket: 1,
    y: { label: 'errors/s' },
    height: 170,
  })
}

// p99 in the target's full colour (the tail is what a reader looks for), p95 and p50 lighter.
// Shades, not dash patterns: Chromium's PDF output turns a dashed line of hundreds of points into
// thousands of separate strokes (megabytes per chart).
const PERCENTILE_SHADES: { key: 'p50' | 'p95' | 'p99'; tint: number }[] = [
  { key: 'p50', tint: 0.65 },
  { key: 'p95', tint: 0.35 },
  { key: 'p99', tint: 0 },
]

/**
 * The latency charts' lines, per target: p50, p95 and p99 in ms. Only seconds with responses have
 * a latency: a second of timeouts is a gap in the line, never 0 ms.
 */
export function latencyLines(
  series: readonly SeriesPoint[],
  color: (t: string) => string,
): { target: string; lines: LineSeries[] }[] {
  return [...byTarget(series)]
    .filter(([, pts]) => pts.some((p) => p.p99 !== null))
    .map(([target, pts]) => ({
      target,
      lines: PERCENTILE_SHADES.map(({ key, tint: amount }) => ({
        label: `${target} ${key}`,
        color: tint(color(target), amount),
        segments: segmentsOf(pts, (p) => (p[key] === null ? null : ms(p[key]))),
      })),
    }))
}

/** Latency percentiles over time: one chart per target, on the same axes so they compare. */
export function latencyOverTimeChart(series: readonly SeriesPoint[], color: (t: string) => string): string {
  const targets = latencyLines(series, color)
  if (targets.length === 0) return ''
  const xMax = Math.max(...series.map((p) => p.t)) + 1
  const yMax = niceMax(Math.max(...series.map((p) => ms(p.p99 ?? 0))))
  return targets
    .map(({ target, lines }) =>
      lineChart(lines, {
        title: `Latency percentiles over time: ${target}`,
        x: { label: 'seconds since run start', min: 0, max: xMax },
        bucket: 1,
        y: { label: 'latency (ms)', min: 0, max: yMax },
        height: 190,
      }),
    )
    .join('\n')
}

export function distributionChart(
  entries: readonly {
    label: string
    color: string
    points: [number, number][]
    band?: [number, number][] | null
  }[],
  title = 'Latency distribution (all rounds merged, from the HDR histograms)',
): string {
  const drawn = entries.filter((e) => e.points.length > 0)
  if (drawn.length === 0) return ''
  const top = Math.max(...drawn.map((e) => e.points[e.points.length - 1]![0]))
  const max = Math.ceil(top)
  const bands = drawn.some((e) => e.band)
  return lineChart(
    drawn.map((e) => ({
      label: e.label,
      color: e.color,
      segments: [e.points.map(([x, y]) => [x, ms(y)])],
      ...(e.band
        ? {
            band: e.points.map(([x], i): [number, number, number] => [
              x,
              ms(e.band![i]![0]),
              ms(e.band![i]![1]),
            ]),
          }
        : {}),
    })),
    {
      title,
      x: {
        label: 'percentile (log scale of the tail)',
        min: NINES_FROM,
        max,
        ticks: NINES_TICKS.filter((t) => t.value <= max),
      },
      y: { label: 'latency (ms)' },
      note: `Each curve ends at its maximum, at the resolution its request count supports (1 000 requests reach the 99.9th percentile).${bands ? ' Shaded: the fastest and the slowest round at each percentile.' : ''}`,
    },
  )
}

interface Joined {
  t: number
  throughput: number
  cpu: number | null
  memory: number | null
}

/**
 * Resource samples of one target joined to its per-second series by t (sums over instances; with
 * several CPU sources, the target's figure source's: engine/metrics/sources.ts).
 */
export function joinPerSecond(points: readonly SeriesPoint[], all: readonly ResourcePoint[]): Joined[] {
  if (points.length === 0) return []
  const resources = figureReadings(all)
  let step = Infinity
  for (let i = 1; i < points.length; i++) step = Math.min(step, Math.max(1, points[i]!.t - points[i - 1]!.t))
  if (!Number.isFinite(step)) step = 1
  const buckets = new Map<number, Map<string, { cpu: number[]; mem: number[] }>>()
  for (const r of resources) {
    // The series point whose [t, t + step) holds the second this sample covers (sampleSecond).
    const second = sampleSecond(r.t)
    let lo = 0
    let hi = points.length - 1
    let hit = -1
    while (lo <= hi) {
      const mid = (lo + hi) >> 1
      if (points[mid]!.t <= second) {
        hit = mid
        lo = mid + 1
      } else hi = mid - 1
    }
    if (hit < 0 || second >= points[hit]!.t + step) continue
    const perInstance = buckets.get(hit) ?? new Map<string, { cpu: number[]; mem: number[] }>()
    const inst = perInstance.get(r.instance) ?? { cpu: [], mem: [] }
    if (r.cpuPercent !== null) inst.cpu.push(r.cpuPercent)
    if (r.memoryBytes !== null) inst.mem.push(r.memoryBytes)
    perInstance.set(r.instance, inst)
    buckets.set(hit, perInstance)
  }
  const avg = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length
  const out: Joined[] = []
  for (const [index, perInstance] of [...buckets].sort((a, b) => a[0] - b[0])) {
    let cpu: number | null = null
    let memory: number | null = null
    for (const { cpu: c, mem: m } of perInstance.values()) {
      if (c.length) cpu = (cpu ?? 0) + avg(c)
      if (m.length) memory = (memory ?? 0) + avg(m)
    }
    const p = points[index]!
    out.push({ t: p.t, throughput: p.responses, cpu, memory })
  }
  return out
}

/** Throughput vs CPU and memory vs throughput, where the targets were monitored. */
export function resourceCharts(
  series: readonly SeriesPoint[],
  resources: readonly ResourcePoint[],
  color: (t: string) => string,
): string {
  const cpuSets: { label: string; color: string; points: [number, number][] }[] = []
  const memSets: { label: string; color: string; points: [number, number][] }[] = []
  for (const [target, pts] of byTarget(series)) {
    const joined = joinPerSecond(
      pts,
      resources.filter((r) => r.target === target && r.source !== 'generator'),
    )
    const cpu = joined.filter((j) => j.cpu !== null).map((j): [number, number] => [j.cpu!, j.throughput])
    const mem = joined
      .filter((j) => j.memory !== null)
      .map((j): [number, number] => [j.throughput, j.memory! / 2 ** 20])
    if (cpu.length) cpuSets.push({ label: target, color: color(target), points: cpu })
    if (mem.length) memSets.push({ label: target, color: color(target), points: mem })
  }
  if (cpuSets.length === 0 && memSets.length === 0) {
    return '<p class="muted">No resource samples: no target of this run was monitored, so throughput vs CPU and memory vs throughput are not shown.</p>'
  }
  const parts: string[] = []
  if (cpuSets.length) {
    parts.push(
      scatterChart(cpuSets, {
        title: 'Throughput vs CPU (one point per second of load, CPU averaged in it)',
        x: { label: 'target CPU % (100 = one core)', zero: true },
        y: { label: 'responses/s' },
      }),
    )
  }
  if (memSets.length) {
    parts.push(
      scatterChart(memSets, {
        title: 'Memory vs throughput (one point per second of load)',
        x: { label: 'responses/s', zero: true },
        y: { label: 'memory (MiB)', format: compact },
      }),
    )
  }
  const unmonitored = [...byTarget(series).keys()].filter(
    (t) => !cpuSets.some((s) => s.label === t) && !memSets.some((s) => s.label === t),
  )
  if (unmonitored.length)
    parts.push(`<p class="muted">Not monitored: ${unmonitored.map(esc).join(', ')}.</p>`)
  return parts.join('\n')
}

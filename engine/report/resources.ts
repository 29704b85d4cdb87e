// A run's resources in the report: the table `runs show` prints (engine/metrics/resource-summary.ts: per
// target each instance's CPU and memory, mean and peak, their sum, database connections), and for
// a target of several instances (a process tree's processes, a replicated stack's containers) its
// CPU and memory over time with a line per instance beside the sum. Solid lines in tints of the
// target's colour (dashes are thousands of strokes in Chromium's PDF: README.md).
import type { ResourcePoint } from '../api/types.ts'
import { sampleSecond, type MeanPeak, type TargetResources } from '../metrics/resource-summary.ts'
import { esc, fmtBytes } from './format.ts'
import { tint } from './palette.ts'
import { lineChart, type LineSeries } from './svg.ts'

/** At most this many points per line (README.md, "Print rules"). */
const MAX_POINTS = 480

const pct = (m: MeanPeak | null, k: keyof MeanPeak) => (m ? m[k].toFixed(1) : '–')
const mem = (m: MeanPeak | null, k: keyof MeanPeak) => (m ? fmtBytes(m[k]) : '–')

function row(
  target: string,
  instance: string,
  x: { cpu: MeanPeak | null; memory: MeanPeak | null },
  cls = '',
) {
  return `<tr${cls ? ` class="${cls}"` : ''}><td class="name">${target}</td><td>${instance}</td><td class="num">${pct(x.cpu, 'mean')}</td><td class="num">${pct(x.cpu, 'peak')}</td><td class="num">${mem(x.memory, 'mean')}</td><td class="num">${mem(x.memory, 'peak')}</td></tr>`
}

export function resourcesTable(summary: readonly TargetResources[]): string {
  const rows: string[] = []
  const notes: string[] = []
  for (const t of summary) {
    const several = t.instances.length > 1
    if (t.instances.length)
      rows.push(
        row(
          `<b>${esc(t.target)}</b>`,
          several ? `sum of ${t.instances.length}` : esc(t.instances[0]!.instance),
          t.sum,
          several ? 'merged' : '',
        ),
      )
    if (several) for (const i of t.instances) rows.push(row('', esc(i.instance), i))
    if (t.connections.length)
      notes.push(
        `${esc(t.target)}'s database connections (mean / peak): ${t.connections.map((c) => `${esc(c.state)} ${c.mean.toFixed(1)} / ${c.peak}`).join(', ')}.`,
      )
    for (const i of t.instances)
      if (i.firstCpuAt !== null && i.firstCpuAt > i.firstSampleAt)
        notes.push(
          `${esc(t.target)} ${esc(i.instance)}: sampled from ${i.firstSampleAt} s, its first CPU value at ${i.firstCpuAt} s (a CPU % is the difference of two readings).`,
        )
  }
  if (rows.length === 0 && notes.length === 0) return ''
  const head = `<thead><tr><th rowspan="2" class="name">Target</th><th rowspan="2">Instance</th><th colspan="2" class="group">CPU % (100 = one core)</th><th colspan="2" class="group">Memory</th></tr>
<tr><th class="num">mean</th><th class="num">peak</th><th class="num">mean</th><th class="num">peak</th></tr></thead>`
  return `<h3>Resources</h3>${rows.length ? `<table class="figures resources">${head}<tbody>${rows.join('\n')}</tbody></table>` : ''}
<p class="note">Over each target's seconds under load, from each instance's mean in a second; a target's sum adds its instances second by second.</p>${notes.map((n) => `<p class="note">${n}</p>`).join('')}`
}

/** Per instance of a target: its mean in each second (second → value). */
function perInstance(
  resources: readonly ResourcePoint[],
  target: string,
  value: (r: ResourcePoint) => number | null,
) {
  const acc = new Map<string, Map<number, number[]>>()
  for (const r of resources) {
    const v = r.target === target && r.source !== 'generator' && r.source !== 'postgres' ? value(r) : null
    if (v === null) continue
    const byT = acc.get(r.instance) ?? new Map<number, number[]>()
    const t = sampleSecond(r.t)
    byT.set(t, [...(byT.get(t) ?? []), v])
    acc.set(r.instance, byT)
  }
  return new Map(
    [...acc].map(([i, byT]) => [
      i,
      new Map([...byT].map(([t, vs]) => [t, vs.reduce((s, v) => s + v, 0) / vs.length])),
    ]),
  )
}

/** A line through (second, value), averaged into buckets so that it has at most MAX_POINTS. */
function line(byT: ReadonlyMap<number, number>, bucket: number): [number, number][] {
  const buckets = new Map<number, number[]>()
  for (const [t, v] of byT) {
    const b = Math.floor(t / bucket) * bucket
    buckets.set(b, [...(buckets.get(b) ?? []), v])
  }
  return [...buckets]
    .sort((a, b) => a[0] - b[0])
    .map(([t, vs]) => [t, vs.reduce((s, v) => s + v, 0) / vs.length])
}

function instanceChart(
  resources: readonly ResourcePoint[],
  target: string,
  colour: string,
  what: 'cpu' | 'memory',
): string {
  const byInstance = perInstance(resources, target, (r) =>
    what === 'cpu' ? r.cpuPercent : r.memoryBytes === null ? null : r.memoryBytes / 2 ** 20,
  )
  if (byInstance.size < 2) return ''
  const sum = new Map<number, number>()
  for (const byT of byInstance.values()) for (const [t, v] of byT) sum.set(t, (sum.get(t) ?? 0) + v)
  const ts = [...sum.keys()]
  const bucket = Math.max(1, Math.ceil((Math.max(...ts) - Math.min(...ts) + 1) / MAX_POINTS))
  const lines: LineSeries[] = [
    { label: `${target} (sum)`, color: colour, segments: [line(sum, bucket)] },
    ...[...byInstance].map(([instance, byT], i): LineSeries => ({
      label: instance,
      color: tint(colour, 0.35 + 0.15 * (i % 3)),
      segments: [line(byT, bucket)],
    })),
  ]
  return lineChart(lines, {
    title: `${what === 'cpu' ? 'CPU' : 'Memory'} per instance over time: ${target}`,
    x: { label: 'seconds since run start' },
    y: { label: what === 'cpu' ? 'CPU % (100 = one core)' : 'memory (MiB)', min: 0 },
    bucket,
    height: 190,
  })
}

/** CPU and memory over time per instance, for each target with several. */
export function instanceCharts(
  resources: readonly ResourcePoint[],
  targets: readonly string[],
  color: (t: string) => string,
): string {
  return targets
    .flatMap((t) => [
      instanceChart(resources, t, color(t), 'cpu'),
      instanceChart(resources, t, color(t), 'memory'),
    ])
    .filter(Boolean)
    .join('\n')
}

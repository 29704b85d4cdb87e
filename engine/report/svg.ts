// Small vector chart primitives for the report: axes with "nice" ticks, line charts (gaps where a
// series pauses, e.g. between rounds) and scatter plots. Plain SVG strings, no script: the PDF is
// printed from them as vectors and they need nothing at print time.
import { esc } from './format.ts'

export { PALETTE, tint } from './palette.ts'

export interface Tick {
  value: number
  label: string
}

export interface AxisSpec {
  label: string
  /** Fixed ends; otherwise from the data (y starts at 0 unless `zero` is false). */
  min?: number
  max?: number
  zero?: boolean
  /** Explicit ticks (a non-linear axis drawn in transformed units, say). */
  ticks?: Tick[]
  format?: (v: number) => string
}

export interface LineSeries {
  label: string
  color: string
  dash?: string
  /** Each segment is drawn as one polyline; segments are not joined. */
  segments: [number, number][][]
  /** A shaded range under the line: [x, low, high] (the spread over rounds, say). */
  band?: [number, number, number][]
}

export interface ScatterSet {
  label: string
  color: string
  points: [number, number][]
}

export interface ChartSpec {
  title: string
  x: AxisSpec
  y: AxisSpec
  height?: number
  /** Draw lines as steps (a connection schedule). */
  step?: boolean
  /** Width in x of one point's bucket (a second): a lone point is drawn across it, not as a dot. */
  bucket?: number
  note?: string
}

const W = 720
const M = { left: 62, right: 16, top: 12, bottom: 42 }

/** Round numbers 1, 2, 2.5, 5 × 10^k spanning [min, max], about `count` of them. */
export function niceTicks(min: number, max: number, count = 5): number[] {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return [0]
  if (max <= min) max = min + 1
  const raw = (max - min) / count
  const mag = 10 ** Math.floor(Math.log10(raw))
  const step = ([1, 2, 2.5, 5, 10].find((m) => m * mag >= raw) ?? 10) * mag
  const out: number[] = []
  for (let v = Math.ceil(min / step - 1e-9) * step; v <= max + step * 1e-9; v += step) {
    out.push(Math.abs(v) < step * 1e-9 ? 0 : v)
  }
  return out
}

/** The axis end above `v` with 4 % headroom, on a round tick. */
export function niceMax(v: number): number {
  if (!(v > 0)) return 1
  const ticks = niceTicks(0, v * 1.04)
  const last = ticks[ticks.length - 1]!
  const step = ticks.length > 1 ? ticks[1]! - ticks[0]! : last
  return last < v * 1.04 ? last + step : last
}

/** Compact tick labels: 12k, 1.5M, 0.25. */
export function compact(v: number): string {
  const a = Math.abs(v)
  if (a >= 1e6) return `${+(v / 1e6).toFixed(2)}M`
  if (a >= 1e4) return `${+(v / 1e3).toFixed(1)}k`
  if (a >= 100 || a === 0) return `${Math.round(v)}`
  if (a >= 1) return `${+v.toFixed(2)}`
  return `${+v.toPrecision(2)}`
}

interface Frame {
  sx: (v: number) => number
  sy: (v: number) => number
  body: string[]
  height: number
}

/** An axis' ends; `pad` (the y axis) adds headroom and rounds up to the next tick. */
function domain(axis: AxisSpec, values: number[], zeroDefault: boolean, pad: boolean): [number, number] {
  const finite = values.filter(Number.isFinite)
  let lo = axis.min ?? (finite.length ? Math.min(...finite) : 0)
  let hi = axis.max ?? (finite.length ? Math.max(...finite) : 1)
  if ((axis.zero ?? zeroDefault) && axis.min === undefined) lo = Math.min(0, lo)
  if (hi <= lo) hi = lo + (lo === 0 ? 1 : Math.abs(lo) * 0.1)
  if (pad && axis.max === undefined && axis.ticks === undefined) {
    hi += (hi - lo) * 0.04 // headroom: a line at the maximum is not drawn on the frame
    const ticks = niceTicks(lo, hi)
    const step = ticks.length > 1 ? ticks[1]! - ticks[0]! : 1
    const last = ticks[ticks.length - 1]!
    if (last < hi - 1e-9) hi = last + step
    else hi = Math.max(hi, last)
  }
  return [lo, hi]
}

function frame(spec: ChartSpec, xs: number[], ys: number[], padX = false): Frame {
  const height = spec.height ?? 250
  const [x0, x1] = domain(spec.x, xs, false, padX)
  const [y0, y1] = domain(spec.y, ys, true, true)
  const pw = W - M.left - M.right
  const ph = height - M.top - M.bottom
  const sx = (v: number) => M.left + ((v - x0) / (x1 - x0)) * pw
  const sy = (v: number) => M.top + ph - ((v - y0) / (y1 - y0)) * ph
  const body: string[] = []
  const xTicks =
    spec.x.ticks ?? niceTicks(x0, x1, 8).map((v) => ({ value: v, label: (spec.x.format ?? compact)(v) }))
  const yTicks =
    spec.y.ticks ?? niceTicks(y0, y1, 5).map((v) => ({ value: v, label: (spec.y.format ?? compact)(v) }))
  for (const t of yTicks) {
    if (t.value < y0 - 1e-9 || t.value > y1 + 1e-9) continue
    const y = sy(t.value).toFixed(1)
    body.push(`<line class="grid" x1="${M.left}" x2="${W - M.right}" y1="${y}" y2="${y}"/>`)
    body.push(
      `<text class="tick" x="${M.left - 6}" y="${y}" text-anchor="end" dominant-baseline="middle">${esc(t.label)}</text>`,
    )
  }
  for (const t of xTicks) {
    if (t.value < x0 - 1e-9 || t.value > x1 + 1e-9) continue
    const x = sx(t.value)
    // A label at the right edge would be cut: it ends at its tick instead of centring on it.
    const anchor = x > W - M.right - 20 ? 'end' : 'middle'
    body.push(
      `<line class="grid" x1="${x.toFixed(1)}" x2="${x.toFixed(1)}" y1="${M.top}" y2="${M.top + ph}"/>`,
    )
    body.push(
      `<text class="tick" x="${x.toFixed(1)}" y="${M.top + ph + 14}" text-anchor="${anchor}">${esc(t.label)}</text>`,
    )
  }
  body.push(`<rect class="plot" x="${M.left}" y="${M.top}" width="${pw}" height="${ph}"/>`)
  body.push(
    `<text class="axis" x="${M.left + pw / 2}" y="${height - 6}" text-anchor="middle">${esc(spec.x.label)}</text>`,
  )
  body.push(
    `<text class="axis" transform="translate(13 ${M.top + ph / 2}) rotate(-90)" text-anchor="middle">${esc(spec.y.label)}</text>`,
  )
  return { sx, sy, body, height }
}

function figure(
  spec: ChartSpec,
  f: Frame,
  legend: { label: string; color: string; dash?: string; dot?: boolean }[],
): string {
  const items = legend
    .map((l) => {
      const mark = l.dot
        ? `<svg width="12" height="10"><circle cx="6" cy="5" r="3.5" fill="${l.color}"/></svg>`
        : `<svg width="22" height="10"><line x1="1" x2="21" y1="5" y2="5" stroke="${l.color}" stroke-width="2.5"${l.dash ? ` stroke-dasharray="${l.dash}"` : ''}/></svg>`
      return `<span class="key">${mark}${esc(l.label)}</span>`
    })
    .join('')
  return `<figure class="chart"><figcaption>${esc(spec.title)}</figcaption>
<svg viewBox="0 0 ${W} ${f.height}" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="${esc(spec.title)}">${f.body.join('')}</svg>
<div class="legend">${items}</div>${spec.note ? `<p class="note">${esc(spec.note)}</p>` : ''}</figure>`
}

function pathFor(points: [number, number][], f: Frame, step: boolean): string {
  const out: string[] = []
  points.forEach(([x, y], i) => {
    const px = f.sx(x).toFixed(1)
    const py = f.sy(y).toFixed(1)
    if (i === 0) out.push(`M${px} ${py}`)
    else if (step) out.push(`H${px}V${py}`)
    else out.push(`L${px} ${py}`)
  })
  return out.join('')
}

export function lineChart(series: LineSeries[], spec: ChartSpec): string {
  const all = series.flatMap((s) => [
    ...s.segments.flat(),
    ...(s.band ?? []).flatMap(([x, lo, hi]): [number, number][] => [
      [x, lo],
      [x, hi],
    ]),
  ])
  if (spec.bucket !== undefined) for (const p of [...all]) all.push([p[0] + spec.bucket, p[1]])
  const f = frame(
    spec,
    all.map((p) => p[0]),
    all.map((p) => p[1]),
  )
  // Bands first, under every line: one filled path each, the upper edge out and the lower back.
  for (const s of series) {
    if (!s.band || s.band.length < 2) continue
    const upper = s.band.map(([x, , hi]) => `${f.sx(x).toFixed(1)} ${f.sy(hi).toFixed(1)}`)
    const lower = [...s.band].reverse().map(([x, lo]) => `${f.sx(x).toFixed(1)} ${f.sy(lo).toFixed(1)}`)
    f.body.push(`<path class="band" d="M${[...upper, ...lower].join('L')}Z" fill="${s.color}"/>`)
  }
  for (const s of series) {
    const dash = s.dash ? ` stroke-dasharray="${s.dash}"` : ''
    for (const seg of s.segments) {
      if (seg.length === 0) continue
      const lone = seg.length === 1 ? seg[0]! : null
      if (lone && spec.bucket === undefined) {
        f.body.push(
          `<circle cx="${f.sx(lone[0]).toFixed(1)}" cy="${f.sy(lone[1]).toFixed(1)}" r="2" fill="${s.color}"/>`,
        )
        continue
      }
      // A lone per-second value stands for its whole second: drawn across it.
      const points: [number, number][] = lone ? [lone, [lone[0] + (spec.bucket ?? 0), lone[1]]] : seg
      f.body.push(
        `<path class="line" d="${pathFor(points, f, spec.step ?? false)}" stroke="${s.color}"${dash}/>`,
      )
    }
  }
  return figure(
    spec,
    f,
    series.map((s) => ({ label: s.label, color: s.color, dash: s.dash })),
  )
}

export function scatterChart(sets: ScatterSet[], spec: ChartSpec): string {
  const all = sets.flatMap((s) => s.points)
  const f = frame(
    spec,
    all.map((p) => p[0]),
    all.map((p) => p[1]),
    true,
  )
  // One path of zero-length round-capped strokes per set, not one <circle> per point: Chromium's
  // PDF output grows by an object per element (23 000 circles made a 4 MB report).
  for (const s of sets) {
    const d = s.points.map(([x, y]) => `M${f.sx(x).toFixed(1)} ${f.sy(y).toFixed(1)}h0`).join('')
    if (d) f.body.push(`<path class="dots" d="${d}" stroke="${s.color}"/>`)
  }
  return figure(
    spec,
    f,
    sets.map((s) => ({ label: s.label, color: s.color, dot: true })),
  )
}

/**
 * Split (x, y) points (ascending x) into segments wherever x jumps by more than `gap` (a pause,
 * another round). The default gap is 1.5 × the smallest spacing, so downsampled series (one point
 * per several seconds) stay joined.
 */
export function splitAtGaps(points: [number, number][], gap?: number): [number, number][][] {
  let step = Infinity
  for (let i = 1; i < points.length; i++) {
    const d = points[i]![0] - points[i - 1]![0]
    if (d > 0 && d < step) step = d
  }
  const limit = gap ?? 1.5 * (Number.isFinite(step) ? step : 1)
  const out: [number, number][][] = []
  let cur: [number, number][] = []
  for (const p of points) {
    const last = cur[cur.length - 1]
    if (last && p[0] - last[0] > limit) {
      out.push(cur)
      cur = []
    }
    cur.push(p)
  }
  if (cur.length) out.push(cur)
  return out
}

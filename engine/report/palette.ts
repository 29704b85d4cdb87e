// One palette for every chart, in the app and in the report: a target keeps its colour on every
// screen and page. Colours are keyed by a target's position in the list of names a view shows (a
// run's targets in config order; across runs, names in order of first appearance), so "node-http"
// is the same colour in run detail, compare and the PDF of the same runs. Pure: the renderer
// imports it too.

/** Readable on the app's light and dark themes and in print. */
export const PALETTE = [
  '#2563eb',
  '#dc2626',
  '#059669',
  '#d97706',
  '#7c3aed',
  '#0891b2',
  '#db2777',
  '#65a30d',
] as const

export function paletteColour(i: number): string {
  return PALETTE[((i % PALETTE.length) + PALETTE.length) % PALETTE.length]!
}

/**
 * A colour per name: its index in `names`; a name not in the list gets the colours after the
 * list's, in the order it is first asked for (so it is stable within one view).
 */
export function colourFor(names: readonly string[]): (name: string) => string {
  const extra: string[] = []
  return (name) => {
    const i = names.indexOf(name)
    if (i >= 0) return paletteColour(i)
    let j = extra.indexOf(name)
    if (j < 0) j = extra.push(name) - 1
    return paletteColour(names.length + j)
  }
}

/** Distinct names in order of first appearance (targets across the runs of a comparison). */
export function targetOrder(names: Iterable<string>): string[] {
  return [...new Set(names)]
}

/** `color` (#rrggbb) mixed with white: 0 keeps it, 1 is white. */
export function tint(color: string, amount: number): string {
  const m = /^#([0-9a-f]{6})$/i.exec(color)
  if (!m) return color
  const n = parseInt(m[1]!, 16)
  const mix = (c: number) => Math.round(c + (255 - c) * amount)
  const rgb = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map(mix)
  return `#${rgb.map((c) => c.toString(16).padStart(2, '0')).join('')}`
}

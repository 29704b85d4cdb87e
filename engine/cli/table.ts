// Plain-text tables for the terminal: columns padded to their widest cell, every cell printable
// (a name's line break or ESC escaped: text.ts).
import { printable } from './text.ts'

/** Columns padded to their widest cell; `right` lists the columns aligned right (numbers). */
export function formatTable(
  head: readonly string[],
  rows: readonly (readonly string[])[],
  right: readonly number[] = [],
): string {
  rows = rows.map((r) => r.map(printable))
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)))
  const line = (cells: readonly string[]): string =>
    cells
      .map((c, i) => (right.includes(i) ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd()
  return [line(head), ...rows.map(line)].join('\n') + '\n'
}

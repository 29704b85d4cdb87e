// One self-rewriting progress line on a terminal: elapsed / total, target, responses/s (the
// throughput, engine/metrics/figures.ts), p99 of the second's responses, errors.
import type { ProgressEvent } from '../api/types.ts'
import { msText } from '../metrics/units.ts'

export class ProgressLine {
  private readonly out: NodeJS.WritableStream
  private last = ''
  constructor(out: NodeJS.WritableStream) {
    this.out = out
  }

  update(e: ProgressEvent): void {
    const width = 24
    const frac = e.totalSeconds ? Math.min(1, e.elapsedSeconds / e.totalSeconds) : 0
    const bar = e.totalSeconds ? `[${'#'.repeat(Math.round(frac * width)).padEnd(width, '.')}] ` : ''
    const total = e.totalSeconds ? `/${Math.round(e.totalSeconds)}s` : 's'
    const p = e.point
    const warn = e.generatorSaturated ? '  ⚠ generator saturated' : ''
    this.last = `${bar}${e.elapsedSeconds}${total}  ${e.target}#${e.round} ${p.phase}  ${p.connections} conn  ${p.responses} req/s  p99 ${p.p99 === null ? '–' : `${msText(p.p99)} ms`}  errors ${e.totals.errors}${warn}`
    this.out.write(`\r\x1b[2K${this.last}`)
  }

  clear(): void {
    if (this.last) this.out.write('\r\x1b[2K')
  }
}

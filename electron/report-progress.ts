// Progress of PDF reports in the desktop app. The engine writes the report's HTML and main prints
// it (api-ipc.ts, print.ts), so the engine's events describe an HTML report: main shows them as the
// PDF's stages. Pure: electron/report-progress.test.ts.
import type { ReportProgressEvent } from '../engine/api/types.ts'

/**
 * A PDF report is an HTML report from the engine printed by main. The engine's events for that
 * HTML pass are shown as the PDF's stages (format 'pdf'), without its early 'done'; main adds
 * 'rendering pdf' and the final 'done'.
 */
export class PdfReports {
  readonly #printing = new Map<string, number>()

  begin(runIds: readonly number[]): void {
    const key = runIds.join(',')
    this.#printing.set(key, (this.#printing.get(key) ?? 0) + 1)
  }

  end(runIds: readonly number[]): void {
    const key = runIds.join(',')
    const n = (this.#printing.get(key) ?? 1) - 1
    if (n > 0) this.#printing.set(key, n)
    else this.#printing.delete(key)
  }

  /** What the page should see of an engine report event (null: nothing). */
  translate(e: ReportProgressEvent): ReportProgressEvent | null {
    if (e.format !== 'html' || !this.#printing.has(e.runIds.join(','))) return e
    return e.stage === 'done' ? null : { ...e, format: 'pdf' }
  }
}

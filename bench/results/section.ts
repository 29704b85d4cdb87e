// What a template of docs/results.md is (sections-*.ts each give one per experiment; doc.ts puts
// them together): apart from doc.ts, which imports the templates, so they do not import it back.
import type { Result } from './figures.ts'
import type { Shot } from './pages.ts'

/** One experiment's part of the doc: its charts, its row of the summary table, its section. */
export interface Section {
  /** The target each run's other targets are compared against (runs.compare's baseline). */
  baseline?: string
  shots(r: Result): Shot[]
  /** The summary table's cells: what the study reported, what this run measured. */
  summary(r: Result): { study: string; run: string }
  /** The section's body; `images` are the shots' markdown, in order. */
  body(r: Result, images: string[]): string
}

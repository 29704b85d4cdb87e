// A run's summary table (renderer/src/views/detail/): a row per target and round, its "all" row
// over the rounds and the rows under them (connect, corrected, schedule, steps), on the run's page
// and again per run on Compare.
import type { Locator } from 'playwright-core'

export class SummaryTable {
  readonly root: Locator
  constructor(root: Locator) {
    this.root = root
  }
  /** Rows by what they are: a target ('stalls'), its "all" ('quick-all'), a row under one ('quick-all-corrected', 'demo-step'). */
  rows(id: string): Locator {
    return this.root.getByTestId(`detail-summary-${id}`)
  }
  /** The cells of the first such row, once it is there: Time, Requests, Throughput, Mean, Std dev, p50, p95, p99, p99.9, Max, Errors, In flight. */
  async cells(id: string): Promise<string[]> {
    const row = this.rows(id).first()
    await row.waitFor()
    return row.locator('td').allTextContents()
  }
  /** The text of each such row. */
  async texts(id: string): Promise<string[]> {
    return this.rows(id).allTextContents()
  }
  /** The connect-time rows, under each target and round. */
  async connectRows(): Promise<string[]> {
    return this.root.locator('[data-testid^="detail-summary-"][data-testid$="-connect"]').allTextContents()
  }
  async text(): Promise<string> {
    return (await this.root.textContent()) ?? ''
  }
}

// Compare (renderer/src/views/compare/): the headline, pairs, method and baseline, the charts, each
// run's summary, a series of sizes of one thing, and its report.
import type { Locator } from 'playwright-core'
import { Chart } from './chart.ts'
import { PageObject } from './page-object.ts'
import { ReportExport } from './report.ts'
import { SummaryTable } from './summary.ts'

export class ComparePage extends PageObject {
  readonly root = this.locate('compare')
  /** Waits for the comparison (the engine's answer). */
  async ready(): Promise<void> {
    await this.locate('compare-result').waitFor()
  }
  /** The runs compared, listed above the result. */
  readonly runs = this.locate('compare-runs')
  readonly headline = this.locate('compare-headline')
  readonly pairs = this.locate('compare-pairs')
  /** The table of one target against the baseline. */
  pair(runId: number, target: string): Locator {
    return this.locate(`compare-pair-${runId}-${target}`)
  }
  /** The verdict (higher, lower, same…) the pair's table gives a metric ('p50'), by its row. */
  async verdictOf(runId: number, target: string, metric: string): Promise<string | null> {
    const row = this.pair(runId, target)
      .locator('tr[data-verdict]')
      .filter({
        has: this.page.locator('th', {
          hasText: new RegExp(`^${metric.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`),
        }),
      })
    return (await row.count()) === 1 ? row.getAttribute('data-verdict') : null
  }
  /** The words of the pair's verdicts, a metric a row, in the table's order. */
  async verdictWords(runId: number, target: string): Promise<string[]> {
    const rows = this.pair(runId, target).locator('tr[data-verdict]')
    const words: string[] = []
    for (const row of await rows.all()) words.push((await row.locator('td').last().textContent()) ?? '')
    return words
  }
  readonly method = this.locate('compare-method')
  /** Compare against another baseline: `<runId>:<target>`. */
  async setBaseline(value: string): Promise<void> {
    await this.locate('compare-baseline').selectOption(value)
  }
  /** Mark the entries as sizes of one thing: a curve against the value in their names. */
  async asSeries(): Promise<void> {
    await this.locate('compare-as-series').check()
  }
  chart(name: 'throughput' | 'latency' | 'distribution'): Chart {
    return new Chart(this.page, `compare-chart-${name}`)
  }
  seriesChart(i: number, name: 'latency'): Chart {
    return new Chart(this.page, `compare-series-chart-${i}-${name}`)
  }
  summary(runId: number): SummaryTable {
    return new SummaryTable(this.locate(`compare-summary-${runId}`))
  }
  get report(): ReportExport {
    return new ReportExport(this.page, 'compare-report')
  }
  /** How many rounds each run ran and why they stopped. */
  readonly rounds = this.locate('compare-rounds')
}

// A run's page (renderer/src/views/detail/): its summary and thresholds, charts, the slowest
// samples, the ledger (its size, pruning it, rows kept elsewhere), exports, load agents, warnings.
import type { Locator } from 'playwright-core'
import { firstNumber } from '../support/cli.ts'
import { Chart } from './chart.ts'
import { PageObject } from './page-object.ts'
import { SummaryTable } from './summary.ts'

export class RunDetailPage extends PageObject {
  get root(): Locator {
    return this.page.getByTestId('detail')
  }
  get summary(): SummaryTable {
    return new SummaryTable(this.page.getByTestId('detail-summary'))
  }
  get thresholds(): Locator {
    return this.page.getByTestId('detail-thresholds')
  }
  chart(name: 'throughput' | 'latency' | 'distribution' | 'connections' | 'cpu'): Chart {
    return new Chart(this.page, `detail-chart-${name}`)
  }
  warning(i: number): Locator {
    return this.page.getByTestId(`detail-warnings-${i}`)
  }
  /** Show the slowest requests in the samples table. */
  async showSlowest(): Promise<void> {
    await this.page.getByTestId('samples-slowest').click()
    await this.page.getByTestId('samples-table').waitFor()
  }
  /** "1,234 requests, ≈ 0.1 MB on disk." */
  get ledgerSize(): Locator {
    return this.page.getByTestId('detail-ledger-size')
  }
  /** Drop the raw ledger (yes to the question), and wait for the page to say so. */
  async pruneLedger(): Promise<void> {
    this.page.once('dialog', (d) => void d.accept())
    await this.page.getByTestId('detail-ledger-prune').click()
    await this.page.getByTestId('detail-ledger-pruned').waitFor()
  }
  /** Where requests kept by load agents are, and the command that brings them in. */
  get ledgerElsewhere(): Locator {
    return this.page.getByTestId('detail-ledger-elsewhere')
  }
  async exportCsv(): Promise<void> {
    await this.page.getByTestId('detail-export-csv').click()
  }
  async exportJson(): Promise<void> {
    await this.page.getByTestId('detail-export-json').click()
  }
  /** The link to the CSV of every request, once it is written. */
  get csvSamplesLink(): Locator {
    return this.page.getByTestId('detail-export-csv-samples-file-download')
  }
  /** Why an export was refused. */
  get exportError(): Locator {
    return this.page.getByTestId('detail-export-error')
  }
  /** What the JSON export says it lacks. */
  get jsonMissing(): Locator {
    return this.page.getByTestId('detail-export-json-missing')
  }
  get studyLink(): Locator {
    return this.page.getByTestId('detail-study-link')
  }
  /** The per-agent breakdown: its table and chart. */
  get agents(): Locator {
    return this.page.getByTestId('detail-agents')
  }
  get agentsTable(): Locator {
    return this.page.getByTestId('detail-agents-table')
  }
  get agentsChart(): Chart {
    return new Chart(this.page, 'detail-agents-chart')
  }
  /** A figure of agent i for a target's segment (`<target>#<round>`), as stored. */
  async agentFigure(i: number, segment: string, what: 'requests' | 'throughput'): Promise<number> {
    return Number(
      await this.page.getByTestId(`detail-agent-${i}-${segment}-${what}`).getAttribute('data-value'),
    )
  }
  /** The sum of the agents' figure, or the run's own, as the table prints it. */
  async agentsTotal(of: 'sum' | 'run', segment: string, what: 'requests'): Promise<number> {
    return firstNumber(
      (await this.page.getByTestId(`detail-agents-${of}-${segment}-${what}`).textContent()) ?? '',
    )
  }
}

// A run's page (renderer/src/views/detail/): its targets, summary and thresholds, charts, the slowest
// samples, the ledger (its size, pruning it, rows kept elsewhere), exports, load agents, warnings.
import type { Locator } from 'playwright-core'
import { firstNumber } from '../support/cli.ts'
import { Chart } from './chart.ts'
import { PageObject } from './page-object.ts'
import { SummaryTable } from './summary.ts'

export class RunDetailPage extends PageObject {
  readonly root = this.locate('detail')
  get summary(): SummaryTable {
    return new SummaryTable(this.locate('detail-summary'))
  }
  readonly thresholds = this.locate('detail-thresholds')
  /** Target i as the run page describes it: what it sends and over what protocol. */
  target(i: number): Locator {
    return this.locate(`detail-target-${i}`)
  }
  chart(name: 'throughput' | 'latency' | 'distribution' | 'connections' | 'cpu'): Chart {
    return new Chart(this.page, `detail-chart-${name}`)
  }
  warning(i: number): Locator {
    return this.locate(`detail-warnings-${i}`)
  }
  /** Show the slowest requests in the samples table. */
  async showSlowest(): Promise<void> {
    await this.locate('samples-slowest').click()
    await this.locate('samples-table').waitFor()
  }
  /** "1,234 requests, ≈ 0.1 MB on disk." */
  readonly ledgerSize = this.locate('detail-ledger-size')
  /** Drop the raw ledger (yes to the question), and wait for the page to say so. */
  async pruneLedger(): Promise<void> {
    this.page.once('dialog', (d) => void d.accept())
    await this.locate('detail-ledger-prune').click()
    await this.locate('detail-ledger-pruned').waitFor()
  }
  /** Where requests kept by load agents are, and the command that brings them in. */
  readonly ledgerElsewhere = this.locate('detail-ledger-elsewhere')
  async exportCsv(): Promise<void> {
    await this.locate('detail-export-csv').click()
  }
  async exportJson(): Promise<void> {
    await this.locate('detail-export-json').click()
  }
  /** The link to the CSV of every request, once it is written. */
  readonly csvSamplesLink = this.locate('detail-export-csv-samples-file-download')
  /** Why an export was refused. */
  readonly exportError = this.locate('detail-export-error')
  /** What the JSON export says it lacks. */
  readonly jsonMissing = this.locate('detail-export-json-missing')
  readonly studyLink = this.locate('detail-study-link')
  /** The per-agent breakdown: its table and chart. */
  readonly agents = this.locate('detail-agents')
  readonly agentsTable = this.locate('detail-agents-table')
  get agentsChart(): Chart {
    return new Chart(this.page, 'detail-agents-chart')
  }
  /** A figure of agent i for a target's segment (`<target>#<round>`), as stored. */
  async agentFigure(i: number, segment: string, what: 'requests' | 'throughput'): Promise<number> {
    return Number(await this.locate(`detail-agent-${i}-${segment}-${what}`).getAttribute('data-value'))
  }
  /** The sum of the agents' figure, or the run's own, as the table prints it. */
  async agentsTotal(of: 'sum' | 'run', segment: string, what: 'requests'): Promise<number> {
    return firstNumber((await this.locate(`detail-agents-${of}-${segment}-${what}`).textContent()) ?? '')
  }
  /** What limited a target (the "What limited each target" card's row; its kind in data-kind). */
  limit(target: string): Locator {
    return this.locate(`detail-limit-${target}`)
  }
  /** The warm-up load.warmup: auto found in a segment (data-settled: whether it settled). */
  steady(target: string, round: number): Locator {
    return this.locate(`detail-steady-${target}-${round}`)
  }
  /** The Rounds card: how many rounds ran and why they stopped, each round's order, their noise. */
  readonly roundsStop = this.locate('detail-rounds-stop')
  readonly roundsOrder = this.locate('detail-rounds-order')
  readonly roundsNoise = this.locate('detail-rounds-noise')
  /** Unfold "What shared the machine": a row per target and round. */
  async openNoise(): Promise<void> {
    await this.locate('detail-noise').locator('summary').click()
  }
  readonly noiseRows = this.locate('detail-noise-row')
  readonly disturbedNoiseRows = this.page.locator('[data-testid="detail-noise-row"][data-disturbed="true"]')
}

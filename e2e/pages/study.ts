// A study's page (renderer/src/views/studies/): each target's points, sentence and charts, the
// series a monitor brought against throughput, scaling against CPU, and the study's runs.
import type { Locator } from 'playwright-core'
import { Chart } from './chart.ts'
import { PageObject } from './page-object.ts'

export class StudyPage extends PageObject {
  readonly root = this.locate('study')
  /** Waits until target i of the study shows `n` points (the page follows the runs as they end). */
  async waitForPoints(i: number, n: number, timeout = 60_000): Promise<Locator> {
    const data = this.page.locator(`[data-testid="study-target-${i}-data"][data-points="${n}"]`)
    await data.waitFor({ timeout })
    return data
  }
  /** Waits until every run of the study has ended. */
  async complete(): Promise<void> {
    await this.page.locator('[data-testid="study"][data-complete="true"]').waitFor()
  }
  sentence(i: number): Locator {
    return this.locate(`study-sentence-${i}`)
  }
  chart(i: number, name: 'throughput' | 'latency'): Chart {
    return new Chart(this.page, `study-chart-${i}-${name}`)
  }
  /** The table of target i's points: Value, Run, Throughput, p50, p95, p99, Error rate. */
  async pointCells(i: number): Promise<string[]> {
    const table = this.locate(`study-points-${i}`)
    await table.locator('tbody tr').first().waitFor()
    return table.locator('tbody td').allTextContents()
  }
  /** The link to one of the study's runs. */
  run(runId: number): Locator {
    return this.locate(`study-run-${runId}`)
  }
  /** Target i's series against throughput: the metric picked, its choices and its chart. */
  series(i: number): Locator {
    return this.locate(`study-series-${i}`)
  }
  seriesPicker(i: number): Locator {
    return this.locate(`study-series-${i}-metric`)
  }
  seriesChart(i: number): Chart {
    return new Chart(this.page, `study-series-${i}-chart`)
  }
  /** Target i's scaling: its section, its row for one value, its chart. */
  scaling(i: number): Locator {
    return this.locate(`study-scaling-${i}`)
  }
  scalingRow(i: number, value: number): Locator {
    return this.locate(`study-scaling-${i}-row-${value}`)
  }
  /** The peak CPU the scaling table shows for one value (its fourth cell's stored figure). */
  async scalingPeakCpu(i: number, value: number): Promise<number> {
    return Number(await this.scalingRow(i, value).locator('td').nth(3).getAttribute('data-value'))
  }
  /** The series a target's picker offers, by name, in its order. */
  async seriesChoices(i: number): Promise<string[]> {
    return this.seriesPicker(i).locator('option').allTextContents()
  }
  scalingChart(i: number): Chart {
    return new Chart(this.page, `study-scaling-${i}-chart`)
  }
  /** Line i's capacity at the study's latency target. */
  capacity(i: number): Locator {
    return this.locate(`study-capacity-${i}`)
  }
  /** The badge on the run the capacity was read from, and the rule the study read it by. */
  capacityBadge(runId: number | null): Locator {
    return this.locate(`study-capacity-badge-${runId}`)
  }
  readonly capacityRule = this.locate('study-capacity-rule')
}

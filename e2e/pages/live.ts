// The live view of a run (renderer/src/views/live/): its figures and charts as the run goes, what
// comes next, its load agents, its warnings, its end and the way to its page or study.
import type { Locator } from 'playwright-core'
import { RUN_ENDS } from '../../engine/api/types.ts'
import { firstNumber } from '../support/cli.ts'
import { Chart } from './chart.ts'
import { PageObject } from './page-object.ts'

export class LivePage extends PageObject {
  readonly root = this.locate('live')
  async runId(): Promise<number> {
    return Number(await this.root.getAttribute('data-run-id'))
  }
  /** Waits until the run has an end (done, partial, aborted or failed) and returns it. */
  async waitForEnd(timeout = 60_000): Promise<string> {
    await this.page
      .locator(RUN_ENDS.map((end) => `[data-testid="live"][data-status="${end}"]`).join(', '))
      .waitFor({ timeout })
    return (await this.root.getAttribute('data-status')) ?? ''
  }
  /** What the view says once the run is done. */
  readonly done = this.locate('live-done')
  chartPlot(name: string): Locator {
    return this.locate(`live-chart-${name}-plot`)
  }
  chart(name: 'throughput' | 'latency' | 'cpu' | 'memory'): Chart {
    return new Chart(this.page, `live-chart-${name}`)
  }
  /** A figure of the run so far, as a number. */
  async stat(name: 'requests' | 'errors' | 'inflight'): Promise<number> {
    const tile = this.locate(`live-${name}`)
    const value = tile.locator('.stat-value')
    return firstNumber(((await value.count()) ? await value.textContent() : await tile.textContent()) ?? '')
  }
  /** A figure's tile (it shows once the view has the run's totals). */
  statTile(name: 'requests' | 'errors' | 'inflight'): Locator {
    return this.locate(`live-${name}`)
  }
  /** "0:12 elapsed", and what is running now and next. */
  readonly elapsed = this.locate('live-elapsed')
  readonly current = this.locate('live-current')
  readonly upNext = this.locate('live-up-next')
  /** The i-th warning of the run (a monitor that could not read its source). */
  warning(i: number): Locator {
    return this.locate(`live-warnings-${i}`)
  }
  async stop(): Promise<void> {
    await this.locate('live-stop').click()
  }
  async openDetail(): Promise<void> {
    await this.locate('live-open-detail').click()
  }
  /** The banner of a run that is one value of a study, and its link to the study. */
  readonly studyBanner = this.locate('live-study')
  async openStudy(): Promise<void> {
    await this.locate('live-study-link').click()
  }
  /** Load agent i's row, in a state (joined, running, done…) when given. */
  agent(i: number, state?: string): Locator {
    return this.page.locator(`[data-testid="live-agent-${i}"]${state ? `[data-state="${state}"]` : ''}`)
  }
  /** Waits until agent i has requests in the last second. */
  async agentHasRequests(i: number): Promise<void> {
    await this.page.locator(`[data-testid="live-agent-${i}-requests"]:not([data-value="0"])`).waitFor()
  }
  async agentRequests(i: number): Promise<number> {
    return firstNumber((await this.locate(`live-agent-${i}-requests`).textContent()) ?? '')
  }
  async agentRows(): Promise<number> {
    return this.locate('live-agents-table').locator('tbody tr').count()
  }
  /** Where the rounds stand ("round 2 of at most 4: …"), and once ended how many ran and why. */
  readonly rounds = this.locate('live-rounds')
}

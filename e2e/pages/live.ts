// The live view of a run (renderer/src/views/live/): its charts, figures and end.
import type { Locator } from 'playwright-core'
import { RUN_ENDS } from '../../engine/api/types.ts'
import { PageObject } from './page-object.ts'

export class LivePage extends PageObject {
  get root(): Locator {
    return this.page.getByTestId('live')
  }
  /** Waits until the run has an end (done, partial, aborted or failed) and returns it. */
  async waitForEnd(timeout = 60_000): Promise<string> {
    await this.page
      .locator(RUN_ENDS.map((end) => `[data-testid="live"][data-status="${end}"]`).join(', '))
      .waitFor({ timeout })
    return (await this.root.getAttribute('data-status')) ?? ''
  }
  chartPlot(name: string): Locator {
    return this.page.getByTestId(`live-chart-${name}-plot`)
  }
  /** The i-th warning of the run (a monitor that could not read its source). */
  warning(i: number): Locator {
    return this.page.getByTestId(`live-warnings-${i}`)
  }
  async stop(): Promise<void> {
    await this.page.getByTestId('live-stop').click()
  }
}

// A study's page (renderer/src/views/studies/): its points, charts and runs.
import type { Locator } from 'playwright-core'
import { PageObject } from './page-object.ts'

export class StudyPage extends PageObject {
  get root(): Locator {
    return this.page.getByTestId('study')
  }
  /** Waits until target i of the study shows `n` points (the page follows the runs as they end). */
  async waitForPoints(i: number, n: number, timeout = 60_000): Promise<Locator> {
    const data = this.page.locator(`[data-testid="study-target-${i}-data"][data-points="${n}"]`)
    await data.waitFor({ timeout })
    return data
  }
}

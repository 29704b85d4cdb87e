// Page objects: what a test does, in the user's words, over data-testid locators.
import type { Locator, Page } from 'playwright-core'

export class Nav {
  readonly page: Page
  constructor(page: Page) {
    this.page = page
  }
  async go(to: 'new' | 'live' | 'history' | 'compare' | 'stacks' | 'settings'): Promise<void> {
    await this.page.getByTestId(`nav-${to}`).click()
  }
}

export class WizardPage {
  readonly page: Page
  constructor(page: Page) {
    this.page = page
  }
  get root(): Locator {
    return this.page.getByTestId('wizard')
  }
  async reset(): Promise<void> {
    await this.page.getByTestId('wizard-reset').click()
  }
  async addDemoTarget(): Promise<void> {
    const button = this.page.getByTestId('targets-add-demo')
    await button.and(this.page.locator(':enabled')).waitFor()
    await button.click()
  }
  targetUrl(i: number): Locator {
    return this.page.getByTestId(`target-${i}-url`)
  }
  async next(): Promise<void> {
    await this.page.getByTestId('wizard-next').click()
  }
  async setLoad(opts: { connections: number; duration: number }): Promise<void> {
    await this.page.getByTestId('load-connections').fill(String(opts.connections))
    await this.page.getByTestId('load-duration').fill(String(opts.duration))
  }
  async setName(name: string): Promise<void> {
    await this.page.getByTestId('review-name').fill(name)
  }
  async start(): Promise<number> {
    await this.page.getByTestId('wizard-start').click()
    const live = this.page.getByTestId('live')
    await live.waitFor()
    return Number(await live.getAttribute('data-run-id'))
  }
}

export class LivePage {
  readonly page: Page
  constructor(page: Page) {
    this.page = page
  }
  get root(): Locator {
    return this.page.getByTestId('live')
  }
  /** Waits until the run has an end (done, aborted or failed) and returns it. */
  async waitForEnd(timeout = 60_000): Promise<string> {
    await this.page
      .locator(
        '[data-testid="live"][data-status="done"], [data-testid="live"][data-status="aborted"], [data-testid="live"][data-status="failed"]',
      )
      .waitFor({ timeout })
    return (await this.root.getAttribute('data-status')) ?? ''
  }
  chartPlot(name: string): Locator {
    return this.page.getByTestId(`live-chart-${name}-plot`)
  }
}

export class HistoryPage {
  readonly page: Page
  constructor(page: Page) {
    this.page = page
  }
  row(runId: number): Locator {
    return this.page.getByTestId(`history-row-${runId}`)
  }
  async tag(runId: number, tags: string): Promise<void> {
    await this.page.getByTestId(`history-tags-edit-${runId}`).click()
    await this.page.getByTestId(`history-tags-input-${runId}`).fill(tags)
    await this.page.getByTestId(`history-tags-save-${runId}`).click()
    await this.page.getByTestId(`history-tags-input-${runId}`).waitFor({ state: 'detached' })
  }
  async select(runId: number): Promise<void> {
    await this.page.getByTestId(`history-select-${runId}`).check()
  }
  async compare(): Promise<void> {
    await this.page.getByTestId('history-compare').click()
  }
}

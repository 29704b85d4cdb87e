// A report's export, wherever a screen offers one (history, compare): create it and read its result.
import type { Locator, Page } from 'playwright-core'

/** What ReportExport uses of the page's globals. */
interface StagePage {
  __reportStages: string[]
  document: {
    body: unknown
    querySelector(selector: string): { getAttribute(name: string): string | null } | null
  }
  MutationObserver: new (cb: () => void) => { observe(target: unknown, options: object): void }
}

export class ReportExport {
  readonly page: Page
  readonly testId: string
  constructor(page: Page, testId: string) {
    this.page = page
    this.testId = testId
  }
  /**
   * Create the report and wait for its result (a download link in web mode, Open / Save as… on the
   * desktop). The stages the busy line showed are recorded as they appear (stagesShown).
   */
  async create(timeout = 60_000): Promise<Locator> {
    await this.page.evaluate((testId) => {
      // Runs in the page (this file is typed without the DOM library).
      const g = globalThis as unknown as StagePage
      const seen: string[] = []
      g.__reportStages = seen
      const record = () => {
        const stage = g.document.querySelector(`[data-testid="${testId}-stage"]`)?.getAttribute('data-stage')
        if (stage && seen[seen.length - 1] !== stage) seen.push(stage)
      }
      new g.MutationObserver(record).observe(g.document.body, {
        subtree: true,
        childList: true,
        attributes: true,
        attributeFilter: ['data-stage'],
      })
    }, this.testId)
    await this.page.getByTestId(`${this.testId}-create`).click()
    const result = this.page.getByTestId(`${this.testId}-file`)
    const failed = this.page.getByTestId(`${this.testId}-error`)
    await result.or(failed).waitFor({ timeout })
    if (await failed.isVisible()) throw new Error(`the report failed: ${await failed.textContent()}`)
    return result
  }
  /** The report stages the page showed during the last create(), in order. */
  async stagesShown(): Promise<string[]> {
    return this.page.evaluate(() => (globalThis as unknown as Partial<StagePage>).__reportStages ?? [])
  }
  downloadLink(): Locator {
    return this.page.getByTestId(`${this.testId}-file-download`)
  }
}

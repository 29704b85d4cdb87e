// History (renderer/src/views/history/): the runs, their tags, filters and selection, the way to a
// run's page, its study and a comparison, the demo run of an empty history, and a report.
import type { Locator } from 'playwright-core'
import { PageObject } from './page-object.ts'
import { ReportExport } from './report.ts'

export class HistoryPage extends PageObject {
  get root(): Locator {
    return this.page.getByTestId('history')
  }
  /** What an empty history shows, and its way to a new run. */
  get empty(): Locator {
    return this.page.getByTestId('history-empty')
  }
  get emptyNew(): Locator {
    return this.page.getByTestId('history-empty-new')
  }
  /** Start the demo run from an empty history. */
  async runDemo(): Promise<void> {
    await this.page.getByTestId('demo-run').and(this.page.locator(':enabled')).first().click()
  }
  row(runId: number): Locator {
    return this.page.getByTestId(`history-row-${runId}`)
  }
  /** The run's status badge (done, aborted…). */
  async status(runId: number): Promise<string> {
    return (await this.row(runId).getByTestId('status-badge').textContent()) ?? ''
  }
  async tag(runId: number, tags: string): Promise<void> {
    await this.page.getByTestId(`history-tags-edit-${runId}`).click()
    await this.page.getByTestId(`history-tags-input-${runId}`).fill(tags)
    await this.page.getByTestId(`history-tags-save-${runId}`).click()
    await this.page.getByTestId(`history-tags-input-${runId}`).waitFor({ state: 'detached' })
  }
  /** Show only the runs with this tag ('' for all). */
  async filterByTag(tag: string): Promise<void> {
    await this.page.getByTestId('history-tag').fill(tag)
  }
  /** Show only the runs whose name has this ('' for all). */
  async search(text: string): Promise<void> {
    await this.page.getByTestId('history-search').fill(text)
  }
  async select(runId: number): Promise<void> {
    await this.page.getByTestId(`history-select-${runId}`).check()
  }
  async compare(): Promise<void> {
    await this.page.getByTestId('history-compare').click()
  }
  async open(runId: number): Promise<void> {
    await this.page.getByTestId(`history-open-${runId}`).click()
  }
  /** Go to the study a run is a value of. */
  async openStudy(runId: number): Promise<void> {
    await this.page.getByTestId(`history-study-${runId}`).click()
  }
  /** The report of the selected runs. */
  get report(): ReportExport {
    return new ReportExport(this.page, 'history-report')
  }
}

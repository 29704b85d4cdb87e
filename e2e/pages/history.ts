// History (renderer/src/views/history/): the runs, their tags, filters and selection, the way to a
// run's page, its study and a comparison, the demo run of an empty history, and a report.
import type { Locator } from 'playwright-core'
import { Field, PageObject } from './page-object.ts'
import { ReportExport } from './report.ts'

export class HistoryPage extends PageObject {
  readonly root = this.locate('history')
  /** What an empty history shows, and its way to a new run. */
  readonly empty = this.locate('history-empty')
  readonly emptyNew = this.locate('history-empty-new')
  /** Start the demo run from an empty history. */
  async runDemo(): Promise<void> {
    await this.locate('demo-run').and(this.page.locator(':enabled')).first().click()
  }
  row(runId: number): Locator {
    return this.locate(`history-row-${runId}`)
  }
  /** The run's status badge (done, aborted…). */
  async status(runId: number): Promise<string> {
    return (await this.row(runId).getByTestId('status-badge').textContent()) ?? ''
  }
  async tag(runId: number, tags: string): Promise<void> {
    await this.locate(`history-tags-edit-${runId}`).click()
    await this.locate(`history-tags-input-${runId}`).fill(tags)
    await this.locate(`history-tags-save-${runId}`).click()
    await this.locate(`history-tags-input-${runId}`).waitFor({ state: 'detached' })
  }
  /** Show only the runs with this tag ('' for all). */
  async filterByTag(tag: string): Promise<void> {
    await this.locate('history-tag').fill(tag)
  }
  /** Show only the runs whose name has this ('' for all). */
  async search(text: string): Promise<void> {
    await this.locate('history-search').fill(text)
  }
  async select(runId: number): Promise<void> {
    await this.locate(`history-select-${runId}`).check()
  }
  async compare(): Promise<void> {
    await this.locate('history-compare').click()
  }
  async open(runId: number): Promise<void> {
    await this.locate(`history-open-${runId}`).click()
  }
  /** Go to the study a run is a value of. */
  async openStudy(runId: number): Promise<void> {
    await this.locate(`history-study-${runId}`).click()
  }
  /** The report of the selected runs. */
  get report(): ReportExport {
    return new ReportExport(this.page, 'history-report')
  }
  /** The first screen's quick run: a URL, connections and seconds. */
  quickRun(field: 'url' | 'connections' | 'seconds'): Field {
    return new Field(this.page, `quick-run-${field}`)
  }
  readonly quickRunStart = this.locate('quick-run-start')
  /** What is wrong with the URL typed. */
  readonly quickRunError = this.locate('quick-run-error')
}

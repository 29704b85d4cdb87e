// History (renderer/src/views/history/): the runs, their tags, filters and selection.
import type { Locator } from 'playwright-core'
import { PageObject } from './page-object.ts'

export class HistoryPage extends PageObject {
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

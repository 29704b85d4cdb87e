// The wizard's first card: a scenario made from requests a user has (HAR, curl, OpenAPI).
import type { Locator } from 'playwright-core'
import { PageObject } from './page-object.ts'

/** The wizard's "Start from requests you have" card (renderer/src/views/wizard/import/). */
export class ImportCard extends PageObject {
  get kind(): Locator {
    return this.page.getByTestId('import-kind')
  }
  get preview(): Locator {
    return this.page.getByTestId('import-preview')
  }
  get error(): Locator {
    return this.page.getByTestId('import-error')
  }
  /** The secrets the steps read, named by their variables. */
  get secrets(): Locator {
    return this.page.getByTestId('import-secrets')
  }
  /** What the import left out, and why. */
  get notes(): Locator {
    return this.page.getByTestId('import-notes')
  }
  async paste(text: string): Promise<void> {
    await this.page.getByTestId('import-text').fill(text)
  }
  async chooseFile(path: string): Promise<void> {
    // The page reads it (File.text()) into the text box: Make steps is enabled from then on, and
    // a click waits for that.
    await this.page.getByTestId('import-file').setInputFiles(path)
  }
  async base(url: string): Promise<void> {
    await this.page.getByTestId('import-base').fill(url)
  }
  /** Make steps and wait for the engine's answer: the steps it made, or why it could not. */
  async make(): Promise<'preview' | 'error'> {
    await this.page.getByTestId('import-run').click()
    await this.preview.or(this.error).waitFor()
    return (await this.preview.isVisible()) ? 'preview' : 'error'
  }
  /** The steps shown, per target: "METHOD path". */
  async steps(target: number): Promise<string[]> {
    const rows = await this.page.locator(`[data-testid^="import-step-${target}-"]`).all()
    return Promise.all(rows.map(async (r) => (await r.locator('td').allInnerTexts()).slice(0, 2).join(' ')))
  }
  async use(): Promise<void> {
    await this.page.getByTestId('import-use').click()
    await this.page.getByTestId('import-used').waitFor()
  }
}

// The wizard's first card: a scenario made from requests a user has (HAR, curl, OpenAPI).
import { PageObject } from './page-object.ts'

/** The wizard's "Start from requests you have" card (renderer/src/views/wizard/import/). */
export class ImportCard extends PageObject {
  readonly kind = this.locate('import-kind')
  readonly preview = this.locate('import-preview')
  readonly error = this.locate('import-error')
  /** The secrets the steps read, named by their variables. */
  readonly secrets = this.locate('import-secrets')
  /** What the import left out, and why. */
  readonly notes = this.locate('import-notes')
  async paste(text: string): Promise<void> {
    await this.locate('import-text').fill(text)
  }
  async chooseFile(path: string): Promise<void> {
    // The page reads it (File.text()) into the text box: Make steps is enabled from then on, and
    // a click waits for that.
    await this.locate('import-file').setInputFiles(path)
  }
  async base(url: string): Promise<void> {
    await this.locate('import-base').fill(url)
  }
  /** Make steps and wait for the engine's answer: the steps it made, or why it could not. */
  async make(): Promise<'preview' | 'error'> {
    await this.locate('import-run').click()
    await this.preview.or(this.error).waitFor()
    return (await this.preview.isVisible()) ? 'preview' : 'error'
  }
  /** The steps shown, per target: "METHOD path". */
  async steps(target: number): Promise<string[]> {
    const rows = await this.page.locator(`[data-testid^="import-step-${target}-"]`).all()
    return Promise.all(rows.map(async (r) => (await r.locator('td').allInnerTexts()).slice(0, 2).join(' ')))
  }
  async use(): Promise<void> {
    await this.locate('import-use').click()
    await this.locate('import-used').waitFor()
  }
}

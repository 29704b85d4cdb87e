// What every page object is: the page it acts on, and what it reads of the page in the user's words.
import type { Page } from 'playwright-core'

/** What every page object holds: the page it acts on. */
export abstract class PageObject {
  readonly page: Page
  constructor(page: Page) {
    this.page = page
  }
}

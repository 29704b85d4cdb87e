// The app's frame on every screen: the navigation bar, the theme, the skip link, and the app being
// ready (the first render, or after a reload).
import type { NavName } from '../../renderer/src/app/nav.ts'
import { PageObject } from './page-object.ts'

export class Nav extends PageObject {
  async go(to: NavName): Promise<void> {
    await this.locate(`nav-${to}`).click()
  }
  /** Waits until the app has rendered. */
  async ready(): Promise<void> {
    await this.locate('app-ready').waitFor()
  }
  /** Reload the page as a user does, and wait until the app is back. */
  async reload(): Promise<void> {
    await this.page.reload()
    await this.ready()
  }
  /** What a page opened without the token says. */
  async waitForNoToken(): Promise<void> {
    await this.locate('no-token').waitFor()
  }
  async toggleTheme(): Promise<void> {
    await this.locate('theme-toggle').click()
  }
  async theme(): Promise<string | null> {
    return this.page.locator('html').getAttribute('data-theme')
  }
  /** The words of the element that has focus (a link has no test id: the skip link). */
  async focusedText(): Promise<string | null | undefined> {
    return this.page.evaluate(
      () =>
        (globalThis as unknown as { document: { activeElement: { textContent: string } | null } }).document
          .activeElement?.textContent,
    )
  }
}

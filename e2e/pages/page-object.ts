// What every page object is: the page it acts on; and what pages share: a form field with the
// message beside it, read as a user reads it.
import type { Locator, Page } from 'playwright-core'

/** What every page object holds: the page it acts on. */
export abstract class PageObject {
  readonly page: Page
  constructor(page: Page) {
    this.page = page
  }

  /** The element with this data-testid: how every page object finds what it names. */
  protected locate(testId: string): Locator {
    return this.page.getByTestId(testId)
  }

  /** The data-testid of the element that has focus. */
  async focused(): Promise<string | null> {
    return this.page.evaluate(
      () =>
        (
          globalThis as unknown as {
            document: { activeElement: { getAttribute(n: string): string | null } | null }
          }
        ).document.activeElement?.getAttribute('data-testid') ?? null,
    )
  }
}

/**
 * A form field (renderer/src/ui/Field.tsx): its input, and the schema's message beside it, which
 * has the input's test id and `-error`.
 */
export class Field {
  readonly input: Locator
  readonly error: Locator
  constructor(page: Page, testId: string) {
    this.input = page.getByTestId(testId)
    this.error = page.getByTestId(`${testId}-error`)
  }
  async fill(value: string | number): Promise<void> {
    await this.input.fill(String(value))
  }
  async select(value: string): Promise<void> {
    await this.input.selectOption(value)
  }
  async value(): Promise<string> {
    return this.input.inputValue()
  }
  /** The message beside it, once there is one. */
  async message(): Promise<string> {
    return (await this.error.textContent()) ?? ''
  }
  /** Marked invalid for assistive technology (aria-invalid). */
  async invalid(): Promise<boolean> {
    return (await this.input.getAttribute('aria-invalid')) === 'true'
  }
  async visible(): Promise<boolean> {
    return this.input.isVisible()
  }
  async disabled(): Promise<boolean> {
    return this.input.isDisabled()
  }
  /** Its rendered width in CSS pixels (0 when not shown). */
  async width(): Promise<number> {
    return (await this.input.boundingBox())?.width ?? 0
  }
}

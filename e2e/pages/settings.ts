// Settings (renderer/src/views/settings/).
import type { Locator } from 'playwright-core'
import { PageObject } from './page-object.ts'

export class SettingsPage extends PageObject {
  field(name: 'docker-host' | 'cf-api' | 'cf-user' | 'retention' | 'pg-url'): Locator {
    return this.page.getByTestId(`settings-${name}`)
  }
  /** Save and wait for the engine's answer. */
  async save(): Promise<void> {
    await this.page.getByTestId('settings-save').click()
    await this.page.getByTestId('settings-saved').waitFor()
  }
}

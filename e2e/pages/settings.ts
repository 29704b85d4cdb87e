// Settings (renderer/src/views/settings/): its fields and their messages, Save, and the PostgreSQL
// connection's Test.
import type { Locator } from 'playwright-core'
import { Field, PageObject } from './page-object.ts'

type SettingsField = 'docker-host' | 'cf-api' | 'cf-user' | 'retention' | 'pg-url'

export class SettingsPage extends PageObject {
  field(name: SettingsField): Locator {
    return this.locate(`settings-${name}`)
  }
  /** A field with the message beside it. */
  input(name: SettingsField): Field {
    return new Field(this.page, `settings-${name}`)
  }
  readonly saveButton = this.locate('settings-save')
  /** Save and wait for the engine's answer. */
  async save(): Promise<void> {
    await this.saveButton.click()
    await this.locate('settings-saved').waitFor()
  }
  /** Test the PostgreSQL connection; its result is `pgTestResult`. */
  readonly pgTestButton = this.locate('settings-pg-test')
  readonly pgTestResult = this.locate('settings-pg-test-result')
}

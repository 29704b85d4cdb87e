// The wizard's Monitoring step: each target's resource source and its fields, found by the kind's
// form (engine/config/monitor-form.ts: the editor draws them from it), and the Test button.
import type { Locator } from 'playwright-core'
import { fieldsOf, MONITOR_FORMS, type FormValues } from '../../engine/config/monitor-form.ts'
import type { MonitorKind } from '../../engine/config/schema-monitor.ts'
import { Field, PageObject } from './page-object.ts'

export class MonitoringStep extends PageObject {
  readonly root = this.locate('step-monitoring')
  /** Target i's resource source. */
  kind(i: number): Field {
    return new Field(this.page, `monitor-${i}-kind`)
  }
  /** The sources the picker offers, by their names. */
  async kindNames(i: number): Promise<string[]> {
    return this.kind(i).input.locator('option').allTextContents()
  }
  /** The Test button of target i's monitor. */
  testButton(i: number): Locator {
    return this.locate(`monitor-${i}-test`)
  }
  /** A field of target i's monitor of this kind, by its key in the kind's form. */
  field<K extends MonitorKind>(i: number, kind: K, key: keyof FormValues<K> & string): Field {
    const f = fieldsOf(MONITOR_FORMS[kind]).find((x) => x.key === key)
    if (!f) throw new Error(`the ${kind} monitor's form has no field ${key}`)
    return new Field(this.page, `monitor-${i}-${f.testId}`)
  }
  /** Press Test and return what it found, once the engine has answered. */
  async test(i: number, timeout = 20_000): Promise<string> {
    await this.markResultSeen(i)
    await this.testButton(i).click()
    const fresh = this.page.locator(`[data-testid="monitor-${i}-test-result"]:not([data-seen])`)
    await fresh.waitFor({ timeout })
    return (await fresh.textContent()) ?? ''
  }
  testResult(i: number): Locator {
    return this.locate(`monitor-${i}-test-result`)
  }
  /** The result on the page is a new element once a test is done: the last one is marked before. */
  private async markResultSeen(i: number): Promise<void> {
    await this.page.evaluate((id) => {
      const doc = (
        globalThis as unknown as {
          document: { querySelector(s: string): { setAttribute(n: string, v: string): void } | null }
        }
      ).document
      doc.querySelector(`[data-testid="${id}"]`)?.setAttribute('data-seen', '')
    }, `monitor-${i}-test-result`)
  }
}

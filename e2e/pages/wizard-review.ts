// The wizard's Review step: the run's name, the run in words, its thresholds and its YAML.
import type { Locator } from 'playwright-core'
import { Field, PageObject } from './page-object.ts'

export class ReviewStep extends PageObject {
  readonly root = this.locate('step-review')
  get name(): Field {
    return new Field(this.page, 'review-name')
  }
  async yaml(): Promise<string> {
    return (await this.locate('review-yaml').textContent()) ?? ''
  }
  /** A line of the run in words. */
  summary(line: 'targets' | 'load-shape' | 'duration' | 'thresholds' | 'rounds'): Locator {
    return this.locate(`review-summary-${line}`)
  }
  /** Unfold "Thresholds and correlation header" and add a threshold (p99 ≤ 200 ms to start with). */
  async addThreshold(): Promise<void> {
    await this.page.getByText('Thresholds and correlation header').click()
    await this.locate('threshold-add').click()
  }
  /** What keeps the run from starting. */
  readonly issues = this.locate('review-issues')
}

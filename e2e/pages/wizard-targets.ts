// The wizard's Targets step: each target's name and URL, the statuses it counts as answered, its
// protocol and HTTP/2 streams, the Check of a URL, a scenario's steps and captures, the secrets an import named, and the question
// about a monitor on another server.
import type { Locator } from 'playwright-core'
import { Field, PageObject } from './page-object.ts'

export class TargetsStep extends PageObject {
  readonly root = this.locate('step-targets')
  name(i: number): Field {
    return new Field(this.page, `target-${i}-name`)
  }
  url(i: number): Field {
    return new Field(this.page, `target-${i}-url`)
  }
  /** The statuses target i counts as answered ("200-299, 304"; empty: 200–399). */
  expectedStatuses(i: number): Field {
    return new Field(this.page, `target-${i}-expect`)
  }
  /** How target i is spoken to: http1, h2 or h2c (a select; its message beside it). */
  protocol(i: number): Field {
    return new Field(this.page, `target-${i}-protocol`)
  }
  /** Target i's streams per HTTP/2 connection (shown only for h2 and h2c). */
  streams(i: number): Field {
    return new Field(this.page, `target-${i}-streams`)
  }
  /** Press Check without waiting: its result is `checkResult(i)`. */
  async pressCheck(i: number): Promise<void> {
    await this.locate(`target-${i}-check`).click()
  }
  checkResult(i: number): Locator {
    return this.locate(`target-${i}-check-result`)
  }
  /** One answer to the question about target i's monitor (its words, or count 0 when not offered). */
  answer(i: number, answer: 'keep' | 'follow' | 'remove'): Locator {
    return this.locate(`target-${i}-monitor-question-${answer}`)
  }
  /** Step j of target i's scenario. */
  step(i: number, j: number): Locator {
    return this.locate(`target-${i}-step-${j}`)
  }
  stepField(i: number, j: number, field: 'name' | 'path'): Field {
    return new Field(this.page, `target-${i}-step-${j}-${field}`)
  }
  async moveStep(i: number, j: number, where: 'up' | 'down'): Promise<void> {
    await this.locate(`target-${i}-step-${j}-${where}`).click()
  }
  /** Capture k of step j of target i: the name it is kept under. */
  captureName(i: number, j: number, k: number): Field {
    return new Field(this.page, `target-${i}-step-${j}-capture-${k}-name`)
  }
  /** The secrets target i's requests read, as the step names them. */
  secrets(i: number): Locator {
    return this.locate(`target-${i}-secrets`)
  }
}

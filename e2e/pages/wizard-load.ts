// The wizard's Load step: connections and length, the profile and its fields, the folded
// connection options (timeout, rounds, order, cool-down), the load generators and a sweep, and the
// schedule preview.
import type { Locator } from 'playwright-core'
import { Field, PageObject } from './page-object.ts'

/** The Load step's own fields (`load-<name>`). */
type LoadField =
  'connections' | 'duration' | 'timeout' | 'rounds' | 'rounds-mode' | 'schedule' | 'cooldown' | 'agents-count'

export class LoadStep extends PageObject {
  readonly root = this.locate('step-load')
  field(name: LoadField): Field {
    return new Field(this.page, `load-${name}`)
  }
  /** Fold or unfold "Connection options, rate, rounds". */
  async toggleOptions(): Promise<void> {
    await this.locate('load-advanced').click()
  }
  /** Rounds until the answer is clear: the group of its fields and the messages beside them. */
  readonly precise = this.locate('load-precise')
  preciseField(name: 'max' | 'precision' | 'budget'): Field {
    return new Field(this.page, `load-precise-${name}`)
  }
  /** What the step says instead of the order when there is one target. */
  readonly oneTarget = this.locate('load-schedule-one')
  get profile(): Field {
    return new Field(this.page, 'profile-kind')
  }
  /** A field of the ramp profile. */
  ramp(field: 'to'): Field {
    return new Field(this.page, `ramp-${field}`)
  }
  /** Phase i of the phases profile, and its fields. */
  phase(i: number): Locator {
    return this.locate(`phase-${i}`)
  }
  phaseField(i: number, field: 'name' | 'share' | 'by' | 'requests' | 'duration'): Field {
    return new Field(this.page, `phase-${i}-${field}`)
  }
  /** The load generators' choice: this machine, local agents, Docker, or agents started by hand. */
  generators(choice: 'machine' | 'local' | 'docker' | 'other'): Locator {
    return this.locate(`load-generators-${choice}`)
  }
  /** The command line each hand-started agent runs. */
  readonly agentsLine = this.locate('load-agents-line')
  /** Where agents other than local ones coordinate. */
  readonly agentsStore = this.locate('load-agents-store')
  sweep(field: 'path' | 'values'): Field {
    return new Field(this.page, `sweep-${field}`)
  }
  /** The schedule preview's sentence, or why there is none yet. */
  readonly preview = this.locate('schedule-preview-summary')
  readonly previewMissing = this.locate('schedule-preview-invalid')
}

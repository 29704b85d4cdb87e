// The New run wizard (renderer/src/views/wizard/): Start over, the stepper, Next and Start, and the
// common ways through it; each step's fields are its own object (wizard-*.ts), reached from here.
import type { Locator, Page } from 'playwright-core'
import { PageObject } from './page-object.ts'
import { LoadStep } from './wizard-load.ts'
import { MonitoringStep } from './wizard-monitoring.ts'
import { ReviewStep } from './wizard-review.ts'
import { TargetsStep } from './wizard-targets.ts'

export type WizardStep = 'targets' | 'load' | 'monitoring' | 'review'

export class WizardPage extends PageObject {
  readonly targets: TargetsStep
  readonly load: LoadStep
  readonly monitoring: MonitoringStep
  readonly review: ReviewStep
  constructor(page: Page) {
    super(page)
    this.targets = new TargetsStep(page)
    this.load = new LoadStep(page)
    this.monitoring = new MonitoringStep(page)
    this.review = new ReviewStep(page)
  }
  readonly root = this.locate('wizard')
  /** Go to a step by the stepper (any step, whatever its problems). */
  async goTo(step: WizardStep): Promise<void> {
    await this.locate(`wizard-step-${step}`).click()
  }
  /** Press Start over and wait for the question (a draft with something in it asks). */
  async askReset(): Promise<void> {
    await this.locate('wizard-reset').click()
    await this.resetDialog.waitFor()
  }
  /** Answer the question with Cancel. */
  async cancelReset(): Promise<void> {
    await this.locate('wizard-reset-dialog-cancel').click()
    await this.resetDialog.waitFor({ state: 'hidden' })
  }
  /** Whether the draft has something in it (Start over would ask). */
  async dirty(): Promise<boolean> {
    return (await this.locate('wizard-reset').getAttribute('data-dirty')) === 'true'
  }
  /** Start over; a draft with something in it asks first, and this answers yes. */
  async reset(): Promise<void> {
    const button = this.locate('wizard-reset')
    const dirty = (await button.getAttribute('data-dirty')) === 'true'
    await button.click()
    if (!dirty) return
    await this.locate('wizard-reset-dialog-confirm').click()
    await this.resetDialog.waitFor({ state: 'hidden' })
  }
  readonly resetDialog = this.locate('wizard-reset-dialog')
  /** The question under target i's URL about a monitor that watches another stack. */
  monitorQuestion(i: number): Locator {
    return this.locate(`target-${i}-monitor-question`)
  }
  async answerMonitorQuestion(i: number, answer: 'keep' | 'follow' | 'remove'): Promise<void> {
    await this.locate(`target-${i}-monitor-question-${answer}`).click()
    await this.monitorQuestion(i).waitFor({ state: 'detached' })
  }
  async addDemoTarget(): Promise<void> {
    const button = this.locate('targets-add-demo')
    await button.and(this.page.locator(':enabled')).waitFor()
    await button.click()
  }
  targetUrl(i: number): Locator {
    return this.locate(`target-${i}-url`)
  }
  /** Next, once the Targets step knows where the stacks are (it may ask about a monitor then). */
  async next(): Promise<void> {
    await this.page
      .locator('[data-testid="step-targets"][data-stacks="loading"]')
      .waitFor({ state: 'detached' })
    await this.locate('wizard-next').click()
  }
  /** A fresh wizard on the demo target, at the Load step with this load. */
  static async onDemoLoad(
    app: { page: Page; open(hash?: string): Promise<void> },
    load: { connections: number; duration: number },
  ): Promise<WizardPage> {
    await app.open('#/new')
    const wizard = new WizardPage(app.page)
    await wizard.reset()
    await wizard.addDemoTarget()
    await wizard.next()
    await wizard.setLoad(load)
    return wizard
  }
  async setLoad(opts: { connections: number; duration: number }): Promise<void> {
    await this.locate('load-connections').fill(String(opts.connections))
    await this.locate('load-duration').fill(String(opts.duration))
  }
  /** Fill the whole form from a bundled template (resources/templates/<id>.yaml). */
  async useTemplate(id: string): Promise<void> {
    const select = this.locate('template-select')
    await select.locator(`option[value="${id}"]`).waitFor({ state: 'attached' })
    await select.selectOption(id)
    await this.locate('template-load').click()
    await this.locate('template-loaded').waitFor()
  }
  /** Press Check on a target and return what it says once the engine has answered. */
  async check(i: number): Promise<{ ok: boolean; text: string }> {
    // A result shows only for the URL it is about, so a new URL starts without one.
    await this.locate(`target-${i}-check`).click()
    const result = this.locate(`target-${i}-check-result`)
    await result.waitFor()
    return { ok: (await result.getAttribute('data-ok')) === 'true', text: (await result.textContent()) ?? '' }
  }
  async setCooldown(seconds: number): Promise<void> {
    const cooldown = this.locate('load-cooldown')
    if (!(await cooldown.isVisible())) await this.locate('load-advanced').click()
    await cooldown.fill(String(seconds))
  }
  async setRounds(rounds: number): Promise<void> {
    const field = this.locate('load-rounds')
    if (!(await field.isVisible())) await this.locate('load-advanced').click()
    await field.fill(String(rounds))
  }
  async setSweep(path: string, values: string): Promise<void> {
    await this.locate('sweep-enabled').check()
    await this.locate('sweep-path').fill(path)
    await this.locate('sweep-values').fill(values)
  }
  async setName(name: string): Promise<void> {
    await this.locate('review-name').fill(name)
  }
  async start(): Promise<number> {
    await this.startButton.click()
    const live = this.locate('live')
    await live.waitFor()
    return Number(await live.getAttribute('data-run-id'))
  }
  /** Start (its words say what starts: "2 runs"). */
  readonly startButton = this.locate('wizard-start')
  /** What the engine said when it refused to start, and the link to the field it names. */
  readonly startError = this.locate('wizard-start-error')
  async goToStartError(): Promise<void> {
    await this.locate('wizard-start-error-go').click()
  }
  /** The problems of a step that no field shows, listed at its top, and one of them by its path. */
  readonly stepIssues = this.locate('step-issues')
  stepIssue(path: string): Locator {
    return this.locate(`step-issue-${path}`)
  }
}

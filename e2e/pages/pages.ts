// Page objects: what a test does, in the user's words, over data-testid locators.
import type { Locator, Page } from 'playwright-core'
import { RUN_ENDS } from '../../engine/api/types.ts'
import type { NavName } from '../../renderer/src/app/nav.ts'

/** What every page object holds: the page it acts on. */
abstract class PageObject {
  readonly page: Page
  constructor(page: Page) {
    this.page = page
  }
}

export class Nav extends PageObject {
  async go(to: NavName): Promise<void> {
    await this.page.getByTestId(`nav-${to}`).click()
  }
}

export class WizardPage extends PageObject {
  get root(): Locator {
    return this.page.getByTestId('wizard')
  }
  /** Start over; a draft with something in it asks first, and this answers yes. */
  async reset(): Promise<void> {
    const button = this.page.getByTestId('wizard-reset')
    const dirty = (await button.getAttribute('data-dirty')) === 'true'
    await button.click()
    if (!dirty) return
    await this.page.getByTestId('wizard-reset-dialog-confirm').click()
    await this.resetDialog.waitFor({ state: 'hidden' })
  }
  get resetDialog(): Locator {
    return this.page.getByTestId('wizard-reset-dialog')
  }
  /** The question under target i's URL about a monitor that watches another stack. */
  monitorQuestion(i: number): Locator {
    return this.page.getByTestId(`target-${i}-monitor-question`)
  }
  async answerMonitorQuestion(i: number, answer: 'keep' | 'follow' | 'remove'): Promise<void> {
    await this.page.getByTestId(`target-${i}-monitor-question-${answer}`).click()
    await this.monitorQuestion(i).waitFor({ state: 'detached' })
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
  async addDemoTarget(): Promise<void> {
    const button = this.page.getByTestId('targets-add-demo')
    await button.and(this.page.locator(':enabled')).waitFor()
    await button.click()
  }
  targetUrl(i: number): Locator {
    return this.page.getByTestId(`target-${i}-url`)
  }
  /** Next, once the Targets step knows where the stacks are (it may ask about a monitor then). */
  async next(): Promise<void> {
    await this.page
      .locator('[data-testid="step-targets"][data-stacks="loading"]')
      .waitFor({ state: 'detached' })
    await this.page.getByTestId('wizard-next').click()
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
  /** The rendered width in CSS pixels of each field (by data-testid), in the order asked. */
  async widths(testIds: readonly string[]): Promise<number[]> {
    return Promise.all(testIds.map(async (id) => (await this.page.getByTestId(id).boundingBox())?.width ?? 0))
  }
  async setLoad(opts: { connections: number; duration: number }): Promise<void> {
    await this.page.getByTestId('load-connections').fill(String(opts.connections))
    await this.page.getByTestId('load-duration').fill(String(opts.duration))
  }
  /** Fill the whole form from a bundled template (resources/templates/<id>.yaml). */
  async useTemplate(id: string): Promise<void> {
    const select = this.page.getByTestId('template-select')
    await select.locator(`option[value="${id}"]`).waitFor({ state: 'attached' })
    await select.selectOption(id)
    await this.page.getByTestId('template-load').click()
    await this.page.getByTestId('template-loaded').waitFor()
  }
  /** Press Check on a target and return what it says once the engine has answered. */
  async check(i: number): Promise<{ ok: boolean; text: string }> {
    // A result shows only for the URL it is about, so a new URL starts without one.
    await this.page.getByTestId(`target-${i}-check`).click()
    const result = this.page.getByTestId(`target-${i}-check-result`)
    await result.waitFor()
    return { ok: (await result.getAttribute('data-ok')) === 'true', text: (await result.textContent()) ?? '' }
  }
  async setCooldown(seconds: number): Promise<void> {
    const cooldown = this.page.getByTestId('load-cooldown')
    if (!(await cooldown.isVisible())) await this.page.getByTestId('load-advanced').click()
    await cooldown.fill(String(seconds))
  }
  async setRounds(rounds: number): Promise<void> {
    const field = this.page.getByTestId('load-rounds')
    if (!(await field.isVisible())) await this.page.getByTestId('load-advanced').click()
    await field.fill(String(rounds))
  }
  async setSweep(path: string, values: string): Promise<void> {
    await this.page.getByTestId('sweep-enabled').check()
    await this.page.getByTestId('sweep-path').fill(path)
    await this.page.getByTestId('sweep-values').fill(values)
  }
  async setName(name: string): Promise<void> {
    await this.page.getByTestId('review-name').fill(name)
  }
  async start(): Promise<number> {
    await this.page.getByTestId('wizard-start').click()
    const live = this.page.getByTestId('live')
    await live.waitFor()
    return Number(await live.getAttribute('data-run-id'))
  }
}

/** The wizard's "Start from requests you have" card (renderer/src/views/wizard/import/). */
export class ImportCard extends PageObject {
  get kind(): Locator {
    return this.page.getByTestId('import-kind')
  }
  get preview(): Locator {
    return this.page.getByTestId('import-preview')
  }
  get error(): Locator {
    return this.page.getByTestId('import-error')
  }
  async paste(text: string): Promise<void> {
    await this.page.getByTestId('import-text').fill(text)
  }
  async chooseFile(path: string): Promise<void> {
    // The page reads it (File.text()) into the text box: Make steps is enabled from then on, and
    // a click waits for that.
    await this.page.getByTestId('import-file').setInputFiles(path)
  }
  async base(url: string): Promise<void> {
    await this.page.getByTestId('import-base').fill(url)
  }
  /** Make steps and wait for the engine's answer: the steps it made, or why it could not. */
  async make(): Promise<'preview' | 'error'> {
    await this.page.getByTestId('import-run').click()
    await this.preview.or(this.error).waitFor()
    return (await this.preview.isVisible()) ? 'preview' : 'error'
  }
  /** The steps shown, per target: "METHOD path". */
  async steps(target: number): Promise<string[]> {
    const rows = await this.page.locator(`[data-testid^="import-step-${target}-"]`).all()
    return Promise.all(rows.map(async (r) => (await r.locator('td').allInnerTexts()).slice(0, 2).join(' ')))
  }
  async use(): Promise<void> {
    await this.page.getByTestId('import-use').click()
    await this.page.getByTestId('import-used').waitFor()
  }
}

export class LivePage extends PageObject {
  get root(): Locator {
    return this.page.getByTestId('live')
  }
  /** Waits until the run has an end (done, partial, aborted or failed) and returns it. */
  async waitForEnd(timeout = 60_000): Promise<string> {
    await this.page
      .locator(RUN_ENDS.map((end) => `[data-testid="live"][data-status="${end}"]`).join(', '))
      .waitFor({ timeout })
    return (await this.root.getAttribute('data-status')) ?? ''
  }
  chartPlot(name: string): Locator {
    return this.page.getByTestId(`live-chart-${name}-plot`)
  }
  /** The i-th warning of the run (a monitor that could not read its source). */
  warning(i: number): Locator {
    return this.page.getByTestId(`live-warnings-${i}`)
  }
  async stop(): Promise<void> {
    await this.page.getByTestId('live-stop').click()
  }
}

export class RunDetailPage extends PageObject {
  get root(): Locator {
    return this.page.getByTestId('detail')
  }
  warning(i: number): Locator {
    return this.page.getByTestId(`detail-warnings-${i}`)
  }
  /** What limited a target (the "What limited each target" card's row; its kind in data-kind). */
  limit(target: string): Locator {
    return this.page.getByTestId(`detail-limit-${target}`)
  }
  /** The warm-up load.warmup: auto found in a segment (data-settled: whether it settled). */
  steady(target: string, round: number): Locator {
    return this.page.getByTestId(`detail-steady-${target}-${round}`)
  }
}

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

export class HistoryPage extends PageObject {
  row(runId: number): Locator {
    return this.page.getByTestId(`history-row-${runId}`)
  }
  async tag(runId: number, tags: string): Promise<void> {
    await this.page.getByTestId(`history-tags-edit-${runId}`).click()
    await this.page.getByTestId(`history-tags-input-${runId}`).fill(tags)
    await this.page.getByTestId(`history-tags-save-${runId}`).click()
    await this.page.getByTestId(`history-tags-input-${runId}`).waitFor({ state: 'detached' })
  }
  async select(runId: number): Promise<void> {
    await this.page.getByTestId(`history-select-${runId}`).check()
  }
  async compare(): Promise<void> {
    await this.page.getByTestId('history-compare').click()
  }
}

export class StudyPage extends PageObject {
  get root(): Locator {
    return this.page.getByTestId('study')
  }
  /** Waits until target i of the study shows `n` points (the page follows the runs as they end). */
  async waitForPoints(i: number, n: number, timeout = 60_000): Promise<Locator> {
    const data = this.page.locator(`[data-testid="study-target-${i}-data"][data-points="${n}"]`)
    await data.waitFor({ timeout })
    return data
  }
  /** Line i's capacity at the study's latency target. */
  capacity(i: number): Locator {
    return this.page.getByTestId(`study-capacity-${i}`)
  }
}

/** What ReportExport uses of the page's globals. */
interface StagePage {
  __reportStages: string[]
  document: {
    body: unknown
    querySelector(selector: string): { getAttribute(name: string): string | null } | null
  }
  MutationObserver: new (cb: () => void) => { observe(target: unknown, options: object): void }
}

export class ReportExport {
  readonly page: Page
  readonly testId: string
  constructor(page: Page, testId: string) {
    this.page = page
    this.testId = testId
  }
  /**
   * Create the report and wait for its result (a download link in web mode, Open / Save as… on the
   * desktop). The stages the busy line showed are recorded as they appear (stagesShown).
   */
  async create(timeout = 60_000): Promise<Locator> {
    await this.page.evaluate((testId) => {
      // Runs in the page (this file is typed without the DOM library).
      const g = globalThis as unknown as StagePage
      const seen: string[] = []
      g.__reportStages = seen
      const record = () => {
        const stage = g.document.querySelector(`[data-testid="${testId}-stage"]`)?.getAttribute('data-stage')
        if (stage && seen[seen.length - 1] !== stage) seen.push(stage)
      }
      new g.MutationObserver(record).observe(g.document.body, {
        subtree: true,
        childList: true,
        attributes: true,
        attributeFilter: ['data-stage'],
      })
    }, this.testId)
    await this.page.getByTestId(`${this.testId}-create`).click()
    const result = this.page.getByTestId(`${this.testId}-file`)
    const failed = this.page.getByTestId(`${this.testId}-error`)
    await result.or(failed).waitFor({ timeout })
    if (await failed.isVisible()) throw new Error(`the report failed: ${await failed.textContent()}`)
    return result
  }
  /** The report stages the page showed during the last create(), in order. */
  async stagesShown(): Promise<string[]> {
    return this.page.evaluate(() => (globalThis as unknown as Partial<StagePage>).__reportStages ?? [])
  }
  downloadLink(): Locator {
    return this.page.getByTestId(`${this.testId}-file-download`)
  }
}

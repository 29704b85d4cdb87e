// The wizard never loses work or a problem silently: Start over asks first (Escape and Cancel keep
// the draft), Next refuses a step with a problem and puts focus on it (opening what hides it, or
// naming it at the step's top when no field shows it), and a template's monitor left on another
// server after the URL changed is asked about.
import { describe, expect, it } from 'vitest'
import { WizardPage } from './pages/pages.ts'
import { appPerTest } from './support/app.ts'
import { demoBase } from './support/runs.ts'

const { start } = appPerTest()

describe('wizard', () => {
  it('asks before Start over wipes the draft; Escape and Cancel keep it', async () => {
    const app = await start()
    const { page } = app
    await app.open('#/new')
    const wizard = new WizardPage(page)
    await wizard.reset()
    const name = page.getByTestId('target-0-name')
    await name.fill('keep-me')

    await page.getByTestId('wizard-reset').click()
    await wizard.resetDialog.waitFor()
    // Focus starts on the safe answer; Escape cancels and focus goes back to the button.
    expect(await wizard.focused()).toBe('wizard-reset-dialog-cancel')
    await app.screenshot('30-wizard-start-over')
    await page.keyboard.press('Escape')
    await wizard.resetDialog.waitFor({ state: 'hidden' })
    expect(await name.inputValue()).toBe('keep-me')
    expect(await wizard.focused()).toBe('wizard-reset')

    await page.getByTestId('wizard-reset').click()
    await page.getByTestId('wizard-reset-dialog-cancel').click()
    await wizard.resetDialog.waitFor({ state: 'hidden' })
    expect(await name.inputValue()).toBe('keep-me')

    // By keyboard: Tab to "Start over" in the dialog, Enter.
    await page.getByTestId('wizard-reset').click()
    await wizard.resetDialog.waitFor()
    await page.keyboard.press('Tab')
    expect(await wizard.focused()).toBe('wizard-reset-dialog-confirm')
    await page.keyboard.press('Enter')
    await wizard.resetDialog.waitFor({ state: 'hidden' })
    expect(await name.inputValue()).toBe('target-1')
    expect(await page.getByTestId('wizard-reset').getAttribute('data-dirty')).toBe('false')
  })

  it('refuses Next on a step with a problem: marks the field and focuses it, even when folded away', async () => {
    const app = await start()
    const { page } = app
    await app.open('#/new')
    const wizard = new WizardPage(page)
    await wizard.reset()
    // An empty URL: Next stays, the field is marked and has focus.
    await wizard.next()
    await expect.poll(() => wizard.focused()).toBe('target-0-url')
    expect(await wizard.targetUrl(0).getAttribute('aria-invalid')).toBe('true')
    expect(await page.getByTestId('target-0-url-error').textContent()).toMatch(/not a valid URL/)

    await wizard.addDemoTarget()
    await wizard.next()
    await page.getByTestId('step-load').waitFor()
    // A timeout of 0 inside the folded "Connection options": Next unfolds it and focuses the field.
    await page.getByTestId('load-advanced').click()
    await page.getByTestId('load-timeout').fill('0')
    await page.getByTestId('load-advanced').click()
    expect(await page.getByTestId('load-timeout').isVisible()).toBe(false)
    await wizard.next()
    await expect.poll(() => wizard.focused()).toBe('load-timeout')
    expect(await page.getByTestId('load-timeout').isVisible()).toBe(true)
    expect(await page.getByTestId('load-timeout-error').textContent()).toBe('must be greater than 0')
    await page.getByTestId('step-load').waitFor()
    await app.screenshot('31-wizard-next-refused')

    // The first of several, in page order; words, not schema text.
    await page.getByTestId('load-timeout').fill('10000')
    await page.getByTestId('load-connections').fill('')
    // Not marked before Next (the user may still be typing), but the preview says what is missing.
    await expect
      .poll(() => page.getByTestId('schedule-preview-invalid').textContent())
      .toBe('No schedule to draw yet: load › connections is required.')
    await wizard.setCooldown(-1)
    await wizard.next()
    await expect.poll(() => wizard.focused()).toBe('load-connections')
    expect(await page.getByTestId('load-connections-error').textContent()).toBe('is required')
    expect(await page.getByTestId('load-cooldown-error').textContent()).toBe('must be 0 or more')

    await page.getByTestId('load-connections').fill('2')
    await wizard.setCooldown(0)
    await wizard.next()
    await page.getByTestId('step-monitoring').waitFor()
  })

  it('names a problem no field shows at the top of the step and focuses it', async () => {
    const app = await start()
    const { page } = app
    await app.open('#/new')
    // The wizard (loaded lazily) keeps its draft once it has mounted: wait for that, or its first
    // save lands after the draft below and the reload finds a fresh one.
    await page.waitForFunction(() => globalThis.sessionStorage.getItem('cannonade.draft') !== null)
    const demo = await demoBase(app)
    // A draft kept from an older version of the form: a series value that is no number, which no
    // field of the Targets step edits.
    await page.evaluate(
      ({ url }) => {
        const g = globalThis as unknown as { sessionStorage: { setItem(k: string, v: string): void } }
        g.sessionStorage.setItem(
          'cannonade.draft',
          JSON.stringify({ targets: [{ name: 'demo', url, series: { name: 'size', value: null } }] }),
        )
      },
      { url: `${demo}/ads` },
    )
    await page.reload()
    await page.getByTestId('app-ready').waitFor()
    const wizard = new WizardPage(page)
    await wizard.next()
    const list = page.getByTestId('step-issues')
    await list.waitFor()
    await expect.poll(() => wizard.focused()).toBe('step-issues')
    expect(await page.getByTestId('step-issue-targets.0.series.value').textContent()).toBe(
      'target 1 › series › value (targets.0.series.value) must be a number',
    )
    await page.getByTestId('step-targets').waitFor()
  })

  it("asks about a template's monitor once the URL goes to another server, and does what the answer says", async () => {
    const app = await start()
    const { page } = app
    const demo = await demoBase(app)
    const demoPort = new URL(demo).port
    await app.open('#/new')
    const wizard = new WizardPage(page)

    // Follow the target to the process listening on the demo's port.
    await wizard.reset()
    await wizard.useTemplate('soa-burst')
    await wizard.targetUrl(0).fill(`${demo}/ads?limit=20`)
    const question = wizard.monitorQuestion(0)
    await question.waitFor()
    expect(await question.textContent()).toContain(
      `watches the java-tomcat stack (port 8084), but this URL goes to port ${demoPort}`,
    )
    await app.screenshot('32-wizard-monitor-question')
    // Unanswered, Next stays and points at the question.
    await wizard.next()
    await expect.poll(() => wizard.focused()).toBe('target-0-monitor-question')
    expect(await page.getByTestId('target-0-monitor-question-follow').textContent()).toBe(
      `Follow the target: watch the process on port ${demoPort}`,
    )
    await wizard.answerMonitorQuestion(0, 'follow')
    await wizard.next()
    await wizard.next()
    expect(await page.getByTestId('monitor-0-kind').inputValue()).toBe('process')
    expect(await page.getByTestId('monitor-0-port').inputValue()).toBe(demoPort)

    // Follow it to the bundled stack on the URL's port.
    await wizard.reset()
    await wizard.useTemplate('soa-burst')
    await wizard.targetUrl(0).fill('http://127.0.0.1:8082/ads?limit=20')
    await wizard.answerMonitorQuestion(0, 'follow')
    await wizard.next()
    await wizard.next()
    expect(await page.getByTestId('monitor-0-kind').inputValue()).toBe('docker')
    expect(await page.getByTestId('monitor-0-stack').inputValue()).toBe('node-http')

    // A remote server: nothing to follow; remove the monitor.
    await wizard.reset()
    await wizard.useTemplate('soa-burst')
    await wizard.targetUrl(0).fill('https://bench.example.com/ads')
    await wizard.monitorQuestion(0).waitFor()
    expect(await page.getByTestId('target-0-monitor-question-follow').count()).toBe(0)
    await wizard.answerMonitorQuestion(0, 'remove')
    await wizard.next()
    await wizard.next()
    expect(await page.getByTestId('monitor-0-kind').inputValue()).toBe('none')
  })

  it('keeps every field of the phases editor readable at window widths from 1,000 px up', async () => {
    const app = await start()
    const { page } = app
    const wizard = await WizardPage.onDemoLoad(app, { connections: 4, duration: 5 })
    await page.getByTestId('profile-kind').selectOption('phases')
    await page.getByTestId('phase-3').waitFor()
    // Phase 1 counts requests, the others seconds: both kinds of length field are measured.
    await page.getByTestId('phase-1-by').selectOption('requests')
    const fields = (i: number) =>
      ['name', 'share', 'by', i === 1 ? 'requests' : 'duration'].map((f) => `phase-${i}-${f}`)
    // Wide enough for "10000" and the number spinner in the form's 13 px font (it was 18 px below 1,400).
    const readable = 80
    for (const width of [1000, 1100, 1280, 1360, 1399, 1600]) {
      await page.setViewportSize({ width, height: 900 })
      for (const i of [0, 1, 2, 3]) {
        const ids = fields(i)
        const widths = await wizard.widths(ids)
        widths.forEach((w, k) =>
          expect(w, `${ids[k]} at a ${width} px wide window`).toBeGreaterThanOrEqual(readable),
        )
      }
    }
    await page.setViewportSize({ width: 1280, height: 900 })
    await app.screenshot('33-wizard-phases-1280')
  })

  it('speaks of an order only when there are targets to order, randomized by default', async () => {
    const app = await start()
    const { page } = app
    const wizard = await WizardPage.onDemoLoad(app, { connections: 2, duration: 2 })
    await page.getByTestId('load-advanced').click()
    // One target: no order to choose, and Review says its rounds follow each other.
    expect(await page.getByTestId('load-schedule').count()).toBe(0)
    await page.getByTestId('load-schedule-one').waitFor()
    await wizard.next()
    await wizard.next()
    const rounds = page.getByTestId('review-summary-rounds')
    expect(await rounds.textContent()).toBe('3 rounds, one after another, 5 s cool-down between segments')
    // Two targets: the order is theirs to choose and Review names it.
    await page.getByTestId('wizard-step-targets').click()
    await wizard.addDemoTarget()
    await page.getByTestId('target-1-url').waitFor()
    await page.getByTestId('wizard-step-review').click()
    expect(await rounds.textContent()).toBe(
      'randomized (each round in its own random order), 3 rounds, 5 s cool-down between segments',
    )
    await page.getByTestId('wizard-step-load').click()
    await page.getByTestId('load-advanced').click()
    expect(await page.getByTestId('load-schedule').inputValue()).toBe('randomized')
    // Rounds until the answer is clear: their fields, their messages, Review's words.
    await page.getByTestId('load-rounds-mode').selectOption('precise')
    await page.getByTestId('load-precise').waitFor()
    await page.getByTestId('load-precise-max').fill('2')
    await page.getByTestId('load-precise-max').blur()
    await expect.poll(() => page.getByTestId('load-precise').textContent()).toContain('must be at least 3')
    await page.getByTestId('load-precise-max').fill('12')
    await page.getByTestId('load-precise-precision').fill('3')
    await page.getByTestId('load-precise-budget').fill('10')
    await page.getByTestId('wizard-step-review').click()
    expect(await rounds.textContent()).toBe(
      'randomized (each round in its own random order), rounds until every headline interval is within ±3 % (3–12 rounds, 10 min at most), 5 s cool-down between segments',
    )
    expect(await page.getByTestId('review-yaml').textContent()).toMatch(
      /rounds:\n {2}min: 3\n {2}max: 12\n {2}precision: 3\n {2}budgetMinutes: 10\n/,
    )
  })
})

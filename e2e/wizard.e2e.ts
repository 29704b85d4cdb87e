// The wizard never loses work or a problem silently: Start over asks first (Escape and Cancel keep
// the draft), Next refuses a step with a problem and puts focus on it (opening what hides it, or
// naming it at the step's top when no field shows it), and a template's monitor left on another
// server after the URL changed is asked about.
import { describe, expect, it } from 'vitest'
import { Nav, WizardPage } from './pages/pages.ts'
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
    const name = wizard.targets.name(0)
    await name.fill('keep-me')

    await wizard.askReset()
    // Focus starts on the safe answer; Escape cancels and focus goes back to the button.
    expect(await wizard.focused()).toBe('wizard-reset-dialog-cancel')
    await app.screenshot('30-wizard-start-over')
    await page.keyboard.press('Escape')
    await wizard.resetDialog.waitFor({ state: 'hidden' })
    expect(await name.value()).toBe('keep-me')
    expect(await wizard.focused()).toBe('wizard-reset')

    await wizard.askReset()
    await wizard.cancelReset()
    expect(await name.value()).toBe('keep-me')

    // By keyboard: Tab to "Start over" in the dialog, Enter.
    await wizard.askReset()
    await page.keyboard.press('Tab')
    expect(await wizard.focused()).toBe('wizard-reset-dialog-confirm')
    await page.keyboard.press('Enter')
    await wizard.resetDialog.waitFor({ state: 'hidden' })
    expect(await name.value()).toBe('target-1')
    expect(await wizard.dirty()).toBe(false)
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
    const url = wizard.targets.url(0)
    expect(await url.invalid()).toBe(true)
    expect(await url.message()).toMatch(/not a valid URL/)

    await wizard.addDemoTarget()
    await wizard.next()
    const load = wizard.load
    await load.root.waitFor()
    // A timeout of 0 inside the folded "Connection options": Next unfolds it and focuses the field.
    const timeout = load.field('timeout')
    await load.toggleOptions()
    await timeout.fill(0)
    await load.toggleOptions()
    expect(await timeout.visible()).toBe(false)
    await wizard.next()
    await expect.poll(() => wizard.focused()).toBe('load-timeout')
    expect(await timeout.visible()).toBe(true)
    expect(await timeout.message()).toBe('must be greater than 0')
    await load.root.waitFor()
    await app.screenshot('31-wizard-next-refused')

    // The first of several, in page order; words, not schema text.
    await timeout.fill(10000)
    await load.field('connections').fill('')
    // Not marked before Next (the user may still be typing), but the preview says what is missing.
    await expect
      .poll(() => load.previewMissing.textContent())
      .toBe('No schedule to draw yet: load › connections is required.')
    await wizard.setCooldown(-1)
    await wizard.next()
    await expect.poll(() => wizard.focused()).toBe('load-connections')
    expect(await load.field('connections').message()).toBe('is required')
    expect(await load.field('cooldown').message()).toBe('must be 0 or more')

    await load.field('connections').fill(2)
    await wizard.setCooldown(0)
    await wizard.next()
    await wizard.monitoring.root.waitFor()
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
    await new Nav(page).reload()
    const wizard = new WizardPage(page)
    await wizard.next()
    await wizard.stepIssues.waitFor()
    await expect.poll(() => wizard.focused()).toBe('step-issues')
    expect(await wizard.stepIssue('targets.0.series.value').textContent()).toBe(
      'target 1 › series › value (targets.0.series.value) must be a number',
    )
    await wizard.targets.root.waitFor()
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
    expect(await wizard.targets.answer(0, 'follow').textContent()).toBe(
      `Follow the target: watch the process on port ${demoPort}`,
    )
    await wizard.answerMonitorQuestion(0, 'follow')
    await wizard.next()
    await wizard.next()
    const monitoring = wizard.monitoring
    expect(await monitoring.kind(0).value()).toBe('process')
    expect(await monitoring.field(0, 'process', 'port').value()).toBe(demoPort)

    // Follow it to the bundled stack on the URL's port.
    await wizard.reset()
    await wizard.useTemplate('soa-burst')
    await wizard.targetUrl(0).fill('http://127.0.0.1:8082/ads?limit=20')
    await wizard.answerMonitorQuestion(0, 'follow')
    await wizard.next()
    await wizard.next()
    expect(await monitoring.kind(0).value()).toBe('docker')
    expect(await monitoring.field(0, 'docker', 'stack').value()).toBe('node-http')

    // A remote server: nothing to follow; remove the monitor.
    await wizard.reset()
    await wizard.useTemplate('soa-burst')
    await wizard.targetUrl(0).fill('https://bench.example.com/ads')
    await wizard.monitorQuestion(0).waitFor()
    expect(await wizard.targets.answer(0, 'follow').count()).toBe(0)
    await wizard.answerMonitorQuestion(0, 'remove')
    await wizard.next()
    await wizard.next()
    expect(await monitoring.kind(0).value()).toBe('none')
  })

  it('keeps every field of the phases editor readable at window widths from 1,000 px up', async () => {
    const app = await start()
    const { page } = app
    const wizard = await WizardPage.onDemoLoad(app, { connections: 4, duration: 5 })
    const load = wizard.load
    await load.profile.select('phases')
    await load.phase(3).waitFor()
    // Phase 1 counts requests, the others seconds: both kinds of length field are measured.
    await load.phaseField(1, 'by').select('requests')
    const fields = (i: number) =>
      (['name', 'share', 'by', i === 1 ? 'requests' : 'duration'] as const).map((f) => ({
        name: `phase ${i} ${f}`,
        field: load.phaseField(i, f),
      }))
    // Wide enough for "10000" and the number spinner in the form's 13 px font (it was 18 px below 1,400).
    const readable = 80
    for (const width of [1000, 1100, 1280, 1360, 1399, 1600]) {
      await page.setViewportSize({ width, height: 900 })
      for (const i of [0, 1, 2, 3])
        for (const { name, field } of fields(i))
          expect(await field.width(), `${name} at a ${width} px wide window`).toBeGreaterThanOrEqual(readable)
    }
    await page.setViewportSize({ width: 1280, height: 900 })
    await app.screenshot('33-wizard-phases-1280')
  })

  it('speaks of an order only when there are targets to order, randomized by default', async () => {
    const app = await start()
    const wizard = await WizardPage.onDemoLoad(app, { connections: 2, duration: 2 })
    const load = wizard.load
    await load.toggleOptions()
    // One target: no order to choose, and Review says its rounds follow each other.
    expect(await load.field('schedule').input.count()).toBe(0)
    await load.oneTarget.waitFor()
    await wizard.next()
    await wizard.next()
    const rounds = wizard.review.summary('rounds')
    expect(await rounds.textContent()).toBe('3 rounds, one after another, 5 s cool-down between segments')
    // Two targets: the order is theirs to choose and Review names it.
    await wizard.goTo('targets')
    await wizard.addDemoTarget()
    await wizard.targets.url(1).input.waitFor()
    await wizard.goTo('review')
    expect(await rounds.textContent()).toBe(
      'randomized (each round in its own random order), 3 rounds, 5 s cool-down between segments',
    )
    await wizard.goTo('load')
    await load.toggleOptions()
    expect(await load.field('schedule').value()).toBe('randomized')
    // Rounds until the answer is clear: their fields, their messages, Review's words.
    await load.field('rounds-mode').select('precise')
    await load.precise.waitFor()
    await load.preciseField('max').fill(2)
    await load.preciseField('max').input.blur()
    await expect.poll(() => load.precise.textContent()).toContain('must be at least 3')
    await load.preciseField('max').fill(12)
    await load.preciseField('precision').fill(3)
    await load.preciseField('budget').fill(10)
    await wizard.goTo('review')
    expect(await rounds.textContent()).toBe(
      'randomized (each round in its own random order), rounds until every headline interval is within ±3 % (3–12 rounds, 10 min at most), 5 s cool-down between segments',
    )
    expect(await wizard.review.yaml()).toMatch(
      /rounds:\n {2}min: 3\n {2}max: 12\n {2}precision: 3\n {2}budgetMinutes: 10\n/,
    )
  })

  it("counts what a target says as answered: a wrong status named beside its field, the rule in Review's YAML", async () => {
    const app = await start()
    const wizard = await WizardPage.onDemoLoad(app, { connections: 2, duration: 2 })
    await wizard.goTo('targets')
    const statuses = wizard.targets.expectedStatuses(0)
    expect(await statuses.value()).toBe('')
    await statuses.fill('200, 2xxx')
    await wizard.next()
    await expect.poll(() => wizard.focused()).toBe('target-0-expect')
    expect(await statuses.invalid()).toBe(true)
    expect(await statuses.message()).toBe(
      `"2xxx" is not a status code (304), a range ('200-299') or a class ('2xx')`,
    )
    await statuses.fill('200-299, 304')
    await wizard.goTo('review')
    expect(await wizard.review.yaml()).toMatch(/ {4}expect:\n {6}status:\n {8}- 200-299\n {8}- 304\n/)
  })

  it('speaks HTTP/2 when a target says so: the protocol and streams in the form, a mismatch named beside it, both in Review', async () => {
    const app = await start()
    const wizard = await WizardPage.onDemoLoad(app, { connections: 2, duration: 2 })
    await wizard.goTo('targets')
    const protocol = wizard.targets.protocol(0)
    const streams = wizard.targets.streams(0)
    expect(await protocol.value()).toBe('http1')
    expect(await streams.visible()).toBe(false)
    // The demo's URL is http://: h2 (over TLS) is refused beside the protocol.
    await protocol.select('h2')
    await wizard.next()
    await expect.poll(() => wizard.focused()).toBe('target-0-protocol')
    expect(await protocol.invalid()).toBe(true)
    expect(await protocol.message()).toBe(
      "'h2' is HTTP/2 over TLS: it needs an https:// URL (use 'h2c' for cleartext)",
    )
    await protocol.select('h2c')
    expect(await streams.value()).toBe('1')
    await streams.fill(1001)
    await expect.poll(() => streams.message()).toBe('must be at most 1000')
    await streams.fill(8)
    await wizard.goTo('review')
    expect(await wizard.review.yaml()).toMatch(/ {4}protocol: h2c\n {4}streams: 8\n/)
    expect(await wizard.review.summary('targets').textContent()).toContain(
      'HTTP/2 cleartext (h2c), 8 streams per connection',
    )
    // Back to HTTP/1.1: no streams shown, and one stream in the YAML (HTTP/1.1 has no more).
    await wizard.goTo('targets')
    await protocol.select('http1')
    expect(await streams.visible()).toBe(false)
    await wizard.goTo('review')
    expect(await wizard.review.yaml()).toMatch(/ {4}protocol: http1\n {4}streams: 1\n/)
    expect(await wizard.review.summary('targets').textContent()).toContain('· HTTP/1.1')
  })
})

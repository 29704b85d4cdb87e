// The web UI against the real engine: a new user's first run through the wizard, the live view
// (through a cool-down too), history and the run's page, the wizard's inline validation, and the
// token and theme. Comparing runs is web-compare.e2e.ts. Each test has its own data directory and
// server.
import { describe, expect, it } from 'vitest'
import { HistoryPage, LivePage, Nav, RunDetailPage, WizardPage } from './pages/pages.ts'
import { appPerTest } from './support/app.ts'
import { demoBase } from './support/runs.ts'

const { start } = appPerTest()

describe('web UI', () => {
  it('runs the wizard against the demo target, shows it live, then in history', async () => {
    const app = await start()
    const { page } = app
    await app.open()
    const firstRender = await page.evaluate(
      () => (globalThis as { __cannonadeFirstRender?: number }).__cannonadeFirstRender ?? -1,
    )
    console.log(`first render: ${firstRender.toFixed(0)} ms after navigation start (target < 1500 ms)`)
    const history = new HistoryPage(page)
    await history.empty.waitFor()
    await app.screenshot('01-empty-history')

    const nav = new Nav(page)
    const wizard = new WizardPage(page)
    await nav.go('new')
    await wizard.reset()
    await wizard.addDemoTarget()
    const demoUrl = await wizard.targets.url(0).value()
    expect(demoUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/ads/)
    await wizard.targets.pressCheck(0)
    await expect.poll(() => wizard.targets.checkResult(0).textContent()).toContain('answered')
    await wizard.next()
    await wizard.setLoad({ connections: 2, duration: 3 })
    await expect.poll(() => wizard.load.preview.textContent()).toContain('Up to 2 connections')
    await app.screenshot('02-wizard-load')
    await wizard.next()
    // Monitoring: the demo target is served by the engine's process; watch it by its port.
    const monitoring = wizard.monitoring
    await monitoring.root.waitFor()
    const demoPort = new URL(demoUrl).port
    await monitoring.kind(0).select('process')
    await monitoring.field(0, 'process', 'port').fill(demoPort)
    expect(await monitoring.test(0)).toMatch(/✓/)
    await app.screenshot('03-wizard-monitoring')
    await wizard.next()
    const review = wizard.review
    await wizard.setName('e2e: demo via wizard')
    await expect.poll(() => review.yaml()).toContain('e2e: demo via wizard')
    // The run in words before its YAML.
    expect(await review.summary('targets').textContent()).toMatch(/demo: GET http:\/\/127\.0\.0\.1:\d+\/ads/)
    expect(await review.summary('load-shape').textContent()).toContain('2 connections')
    expect(await review.summary('duration').textContent()).toContain('3 s per target and round')
    // A threshold is entered in ms and shown in ms (stored in µs): never "≤ 200000".
    await review.addThreshold()
    await expect.poll(() => review.summary('thresholds').textContent()).toBe('p99 ≤ 200 ms on every target')
    await app.screenshot('03-wizard-review')
    expect(await review.yaml()).toContain('kind: process')
    const runId = await wizard.start()
    expect(runId).toBeGreaterThan(0)

    const live = new LivePage(page)
    await live.chartPlot('throughput').waitFor()
    await live.chartPlot('latency').waitFor()
    await expect.poll(() => live.stat('requests')).toBeGreaterThan(0)
    await app.screenshot('04-live')
    expect(await live.waitForEnd()).toBe('done')
    await live.done.waitFor()
    await live.chartPlot('cpu').waitFor()
    await live.chartPlot('memory').waitFor()
    await app.screenshot('05-live-done')

    await nav.go('history')
    await history.row(runId).waitFor()
    expect(await history.row(runId).textContent()).toContain('e2e: demo via wizard')
    expect(await history.status(runId)).toBe('done')
    await app.screenshot('06-history')

    await history.open(runId)
    const detail = new RunDetailPage(page)
    await detail.summary.root.waitFor()
    // Connect times are a row of their own under each target and round, apart from the requests'
    // latency: the run's 2 connections each time.
    const rows = await detail.summary.connectRows()
    expect(rows.length).toBeGreaterThan(0)
    for (const row of rows) expect(row).toMatch(/^↳ connect\s*2 conn\./)
    expect(await detail.thresholds.textContent()).toMatch(/p99 ≤ 200 ms on demo: [\d.]+ ms/)
    // What the target was sent, over what protocol, in Review's and the report's words.
    expect(await detail.target(0).textContent()).toMatch(
      /^demo: GET http:\/\/127\.0\.0\.1:\d+\/ads\S* · HTTP\/1\.1$/,
    )
    await detail.chart('throughput').plot.waitFor()
    await detail.showSlowest()
    await app.screenshot('07-run-detail')

    // The raw ledger's size, and dropping it keeps the run's summary.
    await detail.ledgerSize.waitFor()
    expect(await detail.ledgerSize.textContent()).toMatch(/^[\d,]+ requests, ≈ [\d.]+ MB on disk\.$/)
    await detail.pruneLedger()
    await detail.summary.root.waitFor()
  })

  it('keeps the live view moving through a cool-down, saying what comes next and when', async () => {
    const app = await start()
    const { page } = app
    const demo = await demoBase(app)
    const { runId } = await app.engine.runs.start({
      version: 1,
      name: 'e2e: cool-down',
      targets: [
        { name: 'first', url: `${demo}/ads?limit=5` },
        { name: 'second', url: `${demo}/ads?limit=5` },
      ],
      load: { connections: 1, duration: 1 },
      cooldownSeconds: 4,
    })
    await app.open(`#/live/${runId}`)
    const live = new LivePage(page)
    // No progress arrives while the runner cools down: the view says what is next and counts on.
    const next = live.upNext
    await expect.poll(() => next.textContent(), { timeout: 20_000 }).toMatch(/next second \(segment 2 of 2\)/)
    const elapsed = async () => Number(/^0:(\d+)/.exec((await live.elapsed.textContent()) ?? '')?.[1])
    const during = await elapsed()
    await expect.poll(elapsed, { timeout: 10_000 }).toBeGreaterThan(during)
    expect(await next.isVisible()).toBe(true)
    expect(await live.current.textContent()).toContain('cooling down')
    await app.screenshot('08b-live-cooldown')
    await live.done.waitFor({ timeout: 30_000 })
  })

  it('validates the wizard inline and will not start an invalid run', async () => {
    const app = await start()
    const { page } = app
    await app.open('#/new')
    const wizard = new WizardPage(page)
    await wizard.reset()
    const url = wizard.targets.url(0)
    await url.fill('ftp://example.com')
    await expect.poll(() => url.message()).toContain('http')
    // Next refuses the step, the field stays marked and has focus; the stepper still goes anywhere.
    await wizard.next()
    await expect.poll(() => wizard.focused()).toBe('target-0-url')
    await wizard.targets.root.waitFor()
    await wizard.goTo('load')
    const connections = wizard.load.field('connections')
    await connections.fill(0)
    await expect.poll(() => connections.message()).toContain('greater than 0')
    await wizard.load.profile.select('ramp')
    await wizard.load.ramp('to').fill(500)
    await expect.poll(() => wizard.load.ramp('to').message()).toContain('must not exceed')
    await wizard.goTo('review')
    await wizard.review.issues.waitFor()
    expect(await wizard.startButton.isDisabled()).toBe(true)
    await app.screenshot('09-wizard-invalid')

    // Valid by the schema, refused by the engine (nothing listens there): the message names the field.
    await wizard.goTo('targets')
    await url.fill('http://127.0.0.1:1/')
    await wizard.goTo('load')
    await connections.fill(2)
    await wizard.load.profile.select('constant')
    await wizard.goTo('review')
    await wizard.startButton.click()
    await expect.poll(() => wizard.startError.textContent()).toContain('cannot connect')
    await wizard.goToStartError()
    await wizard.targets.root.waitFor()
  })

  it('refuses a page without the token and switches themes', async () => {
    const app = await start()
    const { page } = app
    const nav = new Nav(page)
    await page.goto(app.server.origin + '/#/runs')
    await nav.ready()
    await expect.poll(() => new HistoryPage(page).root.textContent()).toContain('no valid token')
    await nav.waitForNoToken()

    await app.open()
    await nav.toggleTheme()
    expect(await nav.theme()).toBe('light')
    await nav.toggleTheme()
    expect(await nav.theme()).toBe('dark')
    await app.screenshot('10-dark-empty-state')
    // Keyboard: the first Tab on a fresh page reaches the skip link, then the navigation.
    await nav.reload()
    await page.keyboard.press('Tab')
    expect(await nav.focusedText()).toContain('Skip to content')
  })
})

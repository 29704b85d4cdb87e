// The web UI against the real engine: a new user's first run through the wizard, the live view
// (through a cool-down too), history and the run's page, the wizard's inline validation, and the
// token and theme. Comparing runs is web-compare.e2e.ts. Each test has its own data directory and
// server.
import { describe, expect, it } from 'vitest'
import { HistoryPage, LivePage, Nav, WizardPage } from './pages/pages.ts'
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
    await page.getByTestId('history-empty').waitFor()
    await app.screenshot('01-empty-history')

    const nav = new Nav(page)
    const wizard = new WizardPage(page)
    await nav.go('new')
    await wizard.reset()
    await wizard.addDemoTarget()
    const demoUrl = await wizard.targetUrl(0).inputValue()
    expect(demoUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/ads/)
    await page.getByTestId('target-0-check').click()
    await expect.poll(() => page.getByTestId('target-0-check-result').textContent()).toContain('answered')
    await wizard.next()
    await wizard.setLoad({ connections: 2, duration: 3 })
    await expect
      .poll(() => page.getByTestId('schedule-preview-summary').textContent())
      .toContain('Up to 2 connections')
    await app.screenshot('02-wizard-load')
    await wizard.next()
    // Monitoring: the demo target is served by the engine's process; watch it by its port.
    await page.getByTestId('step-monitoring').waitFor()
    const demoPort = new URL(demoUrl).port
    await page.getByTestId('monitor-0-kind').selectOption('process')
    await page.getByTestId('monitor-0-port').fill(demoPort)
    await page.getByTestId('monitor-0-test').click()
    await expect
      .poll(() => page.getByTestId('monitor-0-test-result').textContent(), { timeout: 20_000 })
      .toMatch(/✓/)
    await app.screenshot('03-wizard-monitoring')
    await wizard.next()
    await wizard.setName('e2e: demo via wizard')
    await expect.poll(() => page.getByTestId('review-yaml').textContent()).toContain('e2e: demo via wizard')
    // The run in words before its YAML.
    expect(await page.getByTestId('review-summary-targets').textContent()).toMatch(
      /demo: GET http:\/\/127\.0\.0\.1:\d+\/ads/,
    )
    expect(await page.getByTestId('review-summary-load-shape').textContent()).toContain('2 connections')
    expect(await page.getByTestId('review-summary-duration').textContent()).toContain(
      '3 s per target and round',
    )
    // A threshold is entered in ms and shown in ms (stored in µs): never "≤ 200000".
    await page.getByText('Thresholds and correlation header').click()
    await page.getByTestId('threshold-add').click()
    await expect
      .poll(() => page.getByTestId('review-summary-thresholds').textContent())
      .toBe('p99 ≤ 200 ms on every target')
    await app.screenshot('03-wizard-review')
    expect(await page.getByTestId('review-yaml').textContent()).toContain('kind: process')
    const runId = await wizard.start()
    expect(runId).toBeGreaterThan(0)

    const live = new LivePage(page)
    await live.chartPlot('throughput').waitFor()
    await live.chartPlot('latency').waitFor()
    await expect
      .poll(async () =>
        Number(
          (await page.getByTestId('live-requests').locator('.stat-value').textContent())?.replace(/\D/g, ''),
        ),
      )
      .toBeGreaterThan(0)
    await app.screenshot('04-live')
    expect(await live.waitForEnd()).toBe('done')
    await page.getByTestId('live-done').waitFor()
    await live.chartPlot('cpu').waitFor()
    await live.chartPlot('memory').waitFor()
    await app.screenshot('05-live-done')

    await nav.go('history')
    const history = new HistoryPage(page)
    await history.row(runId).waitFor()
    expect(await history.row(runId).textContent()).toContain('e2e: demo via wizard')
    expect(await history.row(runId).getByTestId('status-badge').textContent()).toBe('done')
    await app.screenshot('06-history')

    await page.getByTestId(`history-open-${runId}`).click()
    await page.getByTestId('detail-summary').waitFor()
    // Connect times are a row of their own under each target and round, apart from the requests'
    // latency: the run's 2 connections each time.
    const connect = page.locator('[data-testid^="detail-summary-"][data-testid$="-connect"]')
    const rows = await connect.allTextContents()
    expect(rows.length).toBeGreaterThan(0)
    for (const row of rows) expect(row).toMatch(/^↳ connect\s*2 conn\./)
    expect(await page.getByTestId('detail-thresholds').textContent()).toMatch(
      /p99 ≤ 200 ms on demo: [\d.]+ ms/,
    )
    await page.getByTestId('detail-chart-throughput-plot').waitFor()
    await page.getByTestId('samples-slowest').click()
    await page.getByTestId('samples-table').waitFor()
    await app.screenshot('07-run-detail')

    // The raw ledger's size, and dropping it keeps the run's summary.
    const size = page.getByTestId('detail-ledger-size')
    await size.waitFor()
    expect(await size.textContent()).toMatch(/^[\d,]+ requests, ≈ [\d.]+ MB on disk\.$/)
    page.once('dialog', (d) => void d.accept())
    await page.getByTestId('detail-ledger-prune').click()
    await page.getByTestId('detail-ledger-pruned').waitFor()
    await page.getByTestId('detail-summary').waitFor()
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
    // No progress arrives while the runner cools down: the view says what is next and counts on.
    const next = page.getByTestId('live-up-next')
    await expect.poll(() => next.textContent(), { timeout: 20_000 }).toMatch(/next second \(segment 2 of 2\)/)
    const elapsed = async () =>
      Number(/^0:(\d+)/.exec((await page.getByTestId('live-elapsed').textContent()) ?? '')?.[1])
    const during = await elapsed()
    await expect.poll(elapsed, { timeout: 10_000 }).toBeGreaterThan(during)
    expect(await next.isVisible()).toBe(true)
    expect(await page.getByTestId('live-current').textContent()).toContain('cooling down')
    await app.screenshot('08b-live-cooldown')
    await page.getByTestId('live-done').waitFor({ timeout: 30_000 })
  })

  it('validates the wizard inline and will not start an invalid run', async () => {
    const app = await start()
    const { page } = app
    await app.open('#/new')
    const wizard = new WizardPage(page)
    await wizard.reset()
    await wizard.targetUrl(0).fill('ftp://example.com')
    await expect.poll(() => page.getByTestId('target-0-url-error').textContent()).toContain('http')
    // Next refuses the step, the field stays marked and has focus; the stepper still goes anywhere.
    await wizard.next()
    await expect.poll(() => wizard.focused()).toBe('target-0-url')
    await page.getByTestId('step-targets').waitFor()
    await page.getByTestId('wizard-step-load').click()
    await page.getByTestId('load-connections').fill('0')
    await expect
      .poll(() => page.getByTestId('load-connections-error').textContent())
      .toContain('greater than 0')
    await page.getByTestId('profile-kind').selectOption('ramp')
    await page.getByTestId('ramp-to').fill('500')
    await expect.poll(() => page.getByTestId('ramp-to-error').textContent()).toContain('must not exceed')
    await page.getByTestId('wizard-step-review').click()
    await page.getByTestId('review-issues').waitFor()
    expect(await page.getByTestId('wizard-start').isDisabled()).toBe(true)
    await app.screenshot('09-wizard-invalid')

    // Valid by the schema, refused by the engine (nothing listens there): the message names the field.
    await page.getByTestId('wizard-step-targets').click()
    await wizard.targetUrl(0).fill('http://127.0.0.1:1/')
    await page.getByTestId('wizard-step-load').click()
    await page.getByTestId('load-connections').fill('2')
    await page.getByTestId('profile-kind').selectOption('constant')
    await page.getByTestId('wizard-step-review').click()
    await page.getByTestId('wizard-start').click()
    await expect.poll(() => page.getByTestId('wizard-start-error').textContent()).toContain('cannot connect')
    await page.getByTestId('wizard-start-error-go').click()
    await page.getByTestId('step-targets').waitFor()
  })

  it('refuses a page without the token and switches themes', async () => {
    const app = await start()
    const { page } = app
    await page.goto(app.server.origin + '/#/runs')
    await page.getByTestId('app-ready').waitFor()
    await expect.poll(() => page.getByTestId('history').textContent()).toContain('no valid token')
    await page.getByTestId('no-token').waitFor()

    await app.open()
    await page.getByTestId('theme-toggle').click()
    expect(await page.locator('html').getAttribute('data-theme')).toBe('light')
    await page.getByTestId('theme-toggle').click()
    expect(await page.locator('html').getAttribute('data-theme')).toBe('dark')
    await app.screenshot('10-dark-empty-state')
    // Keyboard: the first Tab on a fresh page reaches the skip link, then the navigation.
    await page.reload()
    await page.getByTestId('app-ready').waitFor()
    await page.keyboard.press('Tab')
    expect(
      await page.evaluate(
        () =>
          (globalThis as unknown as { document: { activeElement: { textContent: string } | null } }).document
            .activeElement?.textContent,
      ),
    ).toContain('Skip to content')
  })
})

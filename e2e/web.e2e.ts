// The web UI against the real engine: a new user's first run through the wizard, the live view,
// history, and a comparison of two runs. Each test has its own data directory and server.
import { readFileSync } from 'node:fs'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { HistoryPage, LivePage, Nav, WizardPage } from './pages/pages.ts'
import { appPerTest, DRAWN_LINE } from './support/app.ts'
import { demoBase, demoRun, runAndWait } from './support/runs.ts'

const { start } = appPerTest()

/**
 * The colour each of `targets` has in a chart's legend ("sleep-2ms (3 rounds)", "sleep-2ms p99"
 * are sleep-2ms's entries): every entry of a target is its colour or a lighter tint of it (the
 * report draws p50 and p95 lighter than p99).
 */
async function legendColours(page: Page, testId: string, targets: string[]): Promise<Record<string, string>> {
  const legend = page.getByTestId(testId).locator('.recharts-legend-item')
  await legend.first().waitFor()
  const items: { text: string; colour: string }[] = []
  for (const item of await legend.all())
    items.push({
      text: (await item.locator('.recharts-legend-item-text').textContent()) ?? '',
      colour: (await item.locator('.recharts-surface [stroke]').first().getAttribute('stroke')) ?? '',
    })
  return coloursByTarget(items, targets)
}

/** The y axis' tick values of a chart in ms, bottom up, from labels like "20 ms". */
async function yTicks(page: Page, testId: string): Promise<number[]> {
  const labels = await page
    .getByTestId(testId)
    .locator('.recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value')
    .allTextContents()
  return labels.map((l) => Number.parseFloat(l)).sort((a, b) => a - b)
}

const rgb = (hex: string): number[] => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16))

/** How much white `colour` has over `base` (0: the same), or null when it is another hue. */
function tintOf(colour: string, base: string): number | null {
  const [c, b] = [rgb(colour), rgb(base)]
  const amounts = b.map((v, i) => (v === 255 ? null : (c[i]! - v) / (255 - v))).filter((a) => a !== null)
  const a = amounts[0] ?? 0
  return amounts.every((x) => Math.abs(x - a) < 0.02) && a >= 0 && a < 1 ? a : null
}

function coloursByTarget(
  items: { text: string; colour: string }[],
  targets: string[],
): Record<string, string> {
  // Longest name first, so that "a-2" is not read as an entry of "a".
  const names = [...targets].sort((a, b) => b.length - a.length)
  const entries = items.flatMap(({ text, colour }) => {
    const name = names.find((n) => text.startsWith(n))
    return name ? [{ name, text, colour }] : []
  })
  const out: Record<string, string> = {}
  for (const name of targets) {
    const mine = entries.filter((e) => e.name === name)
    // The target's own colour is the least tinted of its entries.
    const base = mine.find((e) => mine.every((o) => tintOf(o.colour, e.colour) !== null))
    expect(base, `${name}: ${JSON.stringify(mine)}`).toBeDefined()
    out[name] = base!.colour
  }
  return out
}

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

  it('compares two runs', async () => {
    const app = await start()
    const { page } = app
    const a = await demoRun(app, 'e2e: 1 connection', 1)
    const b = await demoRun(app, 'e2e: 4 connections', 4)
    expect([a.status, b.status]).toEqual(['done', 'done'])

    await app.open('#/runs')
    const history = new HistoryPage(page)
    await history.row(a.runId).waitFor()
    // Tags and filters: tag the first run, find it by tag, then by name.
    await history.tag(a.runId, 'baseline, e2e')
    await page.getByTestId('history-tag').fill('baseline')
    await history.row(b.runId).waitFor({ state: 'detached' })
    expect(await history.row(a.runId).textContent()).toContain('baseline')
    await page.getByTestId('history-tag').fill('')
    await page.getByTestId('history-search').fill('4 connections')
    await history.row(a.runId).waitFor({ state: 'detached' })
    await page.getByTestId('history-search').fill('')
    await history.row(a.runId).waitFor()
    // Ticked newest first, as the list shows them: the older run is still the baseline.
    await history.select(b.runId)
    await history.select(a.runId)
    await history.compare()
    await expect.poll(() => new URL(page.url()).hash).toBe(`#/compare?runs=${a.runId},${b.runId}`)
    await page.getByTestId('compare-result').waitFor()
    await page.getByTestId('compare-chart-throughput-plot').waitFor()
    await page.getByTestId('compare-chart-distribution-plot').waitFor()
    // Two single-round runs of the same target: paired by name, the difference in their configs
    // named at the top, and what one round each cannot tell, once.
    const headline = (await page.getByTestId('compare-headline').textContent()) ?? ''
    expect(headline).toMatch(
      /^demo \(run \d+\)'s p50 is [\d.]+× demo \(run \d+\)'s and its p99 [\d.]+× \(no interval\)\./,
    )
    expect(headline).toContain(`Runs ${a.runId} and ${b.runId} differ in connections (1 vs 4).`)
    expect(headline.match(/Not enough rounds/g)).toHaveLength(1)
    expect(await page.getByTestId('compare-pairs').textContent()).toContain('throughput')
    await app.screenshot('08-compare')
  })

  it('compares the targets of one interleaved run: headline, pairs table, baseline, curve', async () => {
    const app = await start()
    const { page } = app
    const demo = await demoBase(app)
    const run = await runAndWait(app, {
      version: 1,
      name: 'e2e: 2 ms vs 8 ms',
      targets: [
        { name: 'sleep-2ms', url: `${demo}/slow?ms=2` },
        { name: 'sleep-8ms', url: `${demo}/slow?ms=8` },
      ],
      // 2 s a round: enough seconds for the rounds' band in the screenshots artifacts/screens/ keeps.
      load: { connections: 2, duration: 2 },
      rounds: 3,
      schedule: 'interleaved',
      cooldownSeconds: 0,
    })
    expect(run.status).toBe('done')
    await app.open(`#/compare?runs=${run.runId}`)
    const headline = page.getByTestId('compare-headline')
    await expect
      .poll(() => headline.textContent())
      .toMatch(/^sleep-8ms is slower than sleep-2ms at the median \(p50 [\d.]+×, 95 % CI [\d.]+–[\d.]+×/)
    const pair = page.getByTestId(`compare-pair-${run.runId}-sleep-8ms`)
    expect(await pair.locator('tr[data-verdict="higher"] th', { hasText: /^p50$/ }).count()).toBe(1)
    expect(await page.getByTestId('compare-method').textContent()).toMatch(
      /^Method: each round is one observation/,
    )
    // Rounds drawn as one line per target with a band, the distribution, each target in its colour.
    await page
      .getByTestId('compare-chart-distribution-plot')
      .locator('.recharts-line-curve')
      .first()
      .waitFor()
    // Latency on a log axis by default (a 1.4 vs 3.5 ms difference stays visible under a long
    // tail): every tick is 1, 2 or 5 of a power of ten; the linear choice starts at 0.
    const distribution = 'compare-chart-distribution'
    expect(await page.getByTestId(`${distribution}-scale-log`).getAttribute('aria-pressed')).toBe('true')
    const logTicks = await yTicks(page, distribution)
    expect(logTicks.length).toBeGreaterThan(1)
    for (const t of logTicks)
      expect(Number((t / 10 ** Math.floor(Math.log10(t) + 1e-9)).toFixed(6))).toBeOneOf([1, 2, 5])
    await page.getByTestId(`${distribution}-scale-linear`).click()
    await expect.poll(async () => (await yTicks(page, distribution))[0]).toBe(0)
    expect(await page.getByTestId(`${distribution}-scale-linear`).getAttribute('aria-pressed')).toBe('true')
    await page.getByTestId(`${distribution}-scale-log`).click()
    // One legend entry per target, not per round.
    await page
      .getByTestId('compare-chart-throughput-plot')
      .locator(DRAWN_LINE)
      .first()
      .waitFor({ state: 'attached' })
    expect(await page.getByTestId('compare-chart-throughput').locator('.recharts-legend-item').count()).toBe(
      2,
    )
    await app.screenshot('09-compare-rounds')
    await app.screen('compare')
    // Each target keeps one colour on every chart of every screen, and in the report.
    const names = ['sleep-2ms', 'sleep-8ms']
    const colours = await legendColours(page, 'compare-chart-distribution', names)
    expect(colours['sleep-2ms']).not.toBe(colours['sleep-8ms'])
    for (const chart of ['compare-chart-throughput', 'compare-chart-latency'])
      expect(await legendColours(page, chart, names)).toEqual(colours)
    await app.open(`#/runs/${run.runId}`)
    await page
      .getByTestId('detail-chart-distribution-plot')
      .locator(DRAWN_LINE)
      .first()
      .waitFor({ state: 'attached' })
    await page
      .getByTestId('detail-chart-latency-plot')
      .locator(DRAWN_LINE)
      .first()
      .waitFor({ state: 'attached' })
    expect(await page.getByTestId('detail-summary-sleep-8ms').count()).toBe(3)
    // p50 and p99 of each target: rounds are a band, not legend entries.
    expect(await page.getByTestId('detail-chart-latency').locator('.recharts-legend-item').count()).toBe(4)
    await app.screen('run-detail')
    for (const chart of [
      'detail-chart-distribution',
      'detail-chart-throughput',
      'detail-chart-latency',
      'detail-chart-connections',
    ])
      expect(await legendColours(page, chart, names)).toEqual(colours)
    await app.open(`#/live/${run.runId}`)
    for (const chart of ['live-chart-throughput', 'live-chart-latency'])
      expect(await legendColours(page, chart, names)).toEqual(colours)
    const html = readFileSync(
      (await app.engine.reports.create([run.runId], { format: 'html' })).path!,
      'utf8',
    )
    const keys = [
      ...html.matchAll(
        /<span class="key"><svg[^>]*>(?:<line[^>]*stroke="([^"]+)"|<circle[^>]*fill="([^"]+)")[^]*?<\/svg>([^<]*)<\/span>/g,
      ),
    ].map((m) => ({ text: m[3]!, colour: m[1] ?? m[2]! }))
    expect(coloursByTarget(keys, names)).toEqual(colours)
    await app.open(`#/compare?runs=${run.runId}`)
    // The baseline control turns the comparison around.
    await page.getByTestId('compare-baseline').selectOption(`${run.runId}:sleep-8ms`)
    await expect
      .poll(() => headline.textContent())
      .toMatch(/^sleep-2ms is faster than sleep-8ms at the median/)
    // Marked as sizes of one thing, the two are a curve against the value in their names.
    await page.getByTestId('compare-as-series').check()
    await page.getByTestId('compare-series-chart-0-latency-plot').waitFor()
    await expect
      .poll(() => headline.textContent())
      .toMatch(/^These 2 entries are values of one series .* p50 rises from [\d.]+ ms at 2 to [\d.]+ ms at 8/)
    await app.screenshot('10-compare-series')
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

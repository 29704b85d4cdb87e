// The web UI against the real engine, comparing runs: two runs picked from history (tags and
// filters on the way), then the targets of one interleaved run, each target in one colour on every
// chart of every screen and in the report. A run's own pages are web-run.e2e.ts. Each test has its
// own data directory and server.
import { readFileSync } from 'node:fs'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { HistoryPage } from './pages/pages.ts'
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
      // 2 s a round: enough seconds for the rounds' band in the screenshots artifacts/screens/ keeps
      // (`npm run docs:screens`).
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
})

// The web UI against the real engine, comparing runs: two runs picked from history (tags and
// filters on the way), then the targets of one interleaved run, each target in one colour on every
// chart of every screen and in the report. A run's own pages are web-run.e2e.ts. Each test has its
// own data directory and server.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { ComparePage, HistoryPage, LivePage, RunDetailPage, type Chart } from './pages/pages.ts'
import { appPerTest } from './support/app.ts'
import { demoBase, demoRun, runAndWait } from './support/runs.ts'

const { start } = appPerTest()

/**
 * The colour each of `targets` has in a chart's legend ("sleep-2ms (3 rounds)", "sleep-2ms p99"
 * are sleep-2ms's entries): every entry of a target is its colour or a lighter tint of it (the
 * report draws p50 and p95 lighter than p99).
 */
async function legendColours(chart: Chart, targets: string[]): Promise<Record<string, string>> {
  return coloursByTarget(await chart.legend(), targets)
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
    await history.filterByTag('baseline')
    await history.row(b.runId).waitFor({ state: 'detached' })
    expect(await history.row(a.runId).textContent()).toContain('baseline')
    await history.filterByTag('')
    await history.search('4 connections')
    await history.row(a.runId).waitFor({ state: 'detached' })
    await history.search('')
    await history.row(a.runId).waitFor()
    // Ticked newest first, as the list shows them: the older run is still the baseline.
    await history.select(b.runId)
    await history.select(a.runId)
    await history.compare()
    await expect.poll(() => new URL(page.url()).hash).toBe(`#/compare?runs=${a.runId},${b.runId}`)
    const compare = new ComparePage(page)
    await compare.ready()
    await compare.chart('throughput').plot.waitFor()
    await compare.chart('distribution').plot.waitFor()
    // Two single-round runs of the same target: paired by name, the difference in their configs
    // named at the top, and what one round each cannot tell, once.
    const headline = (await compare.headline.textContent()) ?? ''
    expect(headline).toMatch(
      /^demo \(run \d+\)'s p50 is [\d.]+× demo \(run \d+\)'s and its p99 [\d.]+× \(no interval\)\./,
    )
    expect(headline).toContain(`Runs ${a.runId} and ${b.runId} differ in connections (1 vs 4).`)
    expect(headline.match(/Not enough rounds/g)).toHaveLength(1)
    expect(await compare.pairs.textContent()).toContain('throughput')
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
    const compare = new ComparePage(page)
    const headline = compare.headline
    await expect
      .poll(() => headline.textContent())
      .toMatch(/^sleep-8ms is slower than sleep-2ms at the median \(p50 [\d.]+×, 95 % CI [\d.]+–[\d.]+×/)
    expect(await compare.verdictOf(run.runId, 'sleep-8ms', 'p50')).toBe('higher')
    expect(await compare.method.textContent()).toMatch(/^Method: each round is one observation/)
    // Rounds drawn as one line per target with a band, the distribution, each target in its colour.
    const distribution = compare.chart('distribution')
    await distribution.curve()
    // Latency on a log axis by default (a 1.4 vs 3.5 ms difference stays visible under a long
    // tail): every tick is 1, 2 or 5 of a power of ten; the linear choice starts at 0.
    expect(await distribution.scale('log').getAttribute('aria-pressed')).toBe('true')
    const logTicks = await distribution.yTicks()
    expect(logTicks.length).toBeGreaterThan(1)
    for (const t of logTicks)
      expect(Number((t / 10 ** Math.floor(Math.log10(t) + 1e-9)).toFixed(6))).toBeOneOf([1, 2, 5])
    await distribution.scale('linear').click()
    await expect.poll(async () => (await distribution.yTicks())[0]).toBe(0)
    expect(await distribution.scale('linear').getAttribute('aria-pressed')).toBe('true')
    await distribution.scale('log').click()
    // One legend entry per target, not per round.
    await compare.chart('throughput').drawn()
    expect(await compare.chart('throughput').legendCount()).toBe(2)
    await app.screenshot('09-compare-rounds')
    await app.screen('compare')
    // Each target keeps one colour on every chart of every screen, and in the report.
    const names = ['sleep-2ms', 'sleep-8ms']
    const colours = await legendColours(distribution, names)
    expect(colours['sleep-2ms']).not.toBe(colours['sleep-8ms'])
    for (const chart of [compare.chart('throughput'), compare.chart('latency')])
      expect(await legendColours(chart, names)).toEqual(colours)
    await app.open(`#/runs/${run.runId}`)
    const detail = new RunDetailPage(page)
    await detail.chart('distribution').drawn()
    await detail.chart('latency').drawn()
    expect(await detail.summary.rows('sleep-8ms').count()).toBe(3)
    // p50 and p99 of each target: rounds are a band, not legend entries.
    expect(await detail.chart('latency').legendCount()).toBe(4)
    await app.screen('run-detail')
    for (const chart of ['distribution', 'throughput', 'latency', 'connections'] as const)
      expect(await legendColours(detail.chart(chart), names)).toEqual(colours)
    await app.open(`#/live/${run.runId}`)
    const live = new LivePage(page)
    for (const chart of ['throughput', 'latency'] as const)
      expect(await legendColours(live.chart(chart), names)).toEqual(colours)
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
    // The baseline control turns the comparison around. The engine compares again each time, which
    // on a loaded machine takes longer than the poll's default 5 s.
    const compared = { timeout: 30_000 }
    await compare.setBaseline(`${run.runId}:sleep-8ms`)
    await expect
      .poll(() => headline.textContent(), compared)
      .toMatch(/^sleep-2ms is faster than sleep-8ms at the median/)
    // Marked as sizes of one thing, the two are a curve against the value in their names.
    await compare.asSeries()
    await compare.seriesChart(0, 'latency').plot.waitFor()
    await expect
      .poll(() => headline.textContent(), compared)
      .toMatch(/^These 2 entries are values of one series .* p50 rises from [\d.]+ ms at 2 to [\d.]+ ms at 8/)
    await app.screenshot('10-compare-series')
  })
})

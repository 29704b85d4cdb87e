// The report's layout in print, measured in Chromium: every table and chart fits the A4 page width
// (long target names wrap, many rounds are rows, many runs split the environment table), and no
// sentence is printed twice anywhere in the report. Skipped with the reason printed when Chromium
// is missing, unless CANNONADE_REQUIRE_DOCKER=1 (CI), where it fails.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromium, type Browser } from 'playwright-core'
import { openDb, type Db } from '../db/db.ts'
import { HistoryStore } from '../store/history-store.ts'
import { insertFixtureRun } from '../testing/fixtures.ts'
import { buildReportHtml } from './html.ts'
import { CHROMIUM_ARGS, chromiumPath, chromiumProblem } from './pdf.ts'

const required = process.env.CANNONADE_REQUIRE_DOCKER === '1'
const unavailable = chromiumProblem()
if (unavailable)
  console.warn(
    `[report layout] ${required ? 'FAILING (CANNONADE_REQUIRE_DOCKER=1)' : 'skipped'}: ${unavailable}`,
  )

/** A4 minus the 12 mm side margins pdf.ts prints with, in CSS pixels (96 per inch). */
const PRINT_WIDTH_PX = Math.floor(((210 - 2 * 12) / 25.4) * 96)
/** The longest name a target may have (engine/config/schema.ts), with no space to break at. */
const LONG_NAME = 'a-very-long-target-name-without-any-space-to-break-at-0123456789'

describe.skipIf(unavailable !== null && !required)('report layout in print', () => {
  let browser: Browser
  let db: Db
  let html: string

  beforeAll(async () => {
    if (unavailable) throw new Error(`report layout tests are required but ${unavailable}`)
    expect(LONG_NAME).toHaveLength(64)
    db = openDb(':memory:')
    const ids = [
      insertFixtureRun(db, { rounds: 3, seed: 1, name: 'first' }).runId,
      insertFixtureRun(db, { rounds: 3, seed: 2, name: 'second' }).runId,
      insertFixtureRun(db, {
        rounds: 12,
        seed: 3,
        name: 'many rounds',
        targets: [{ name: LONG_NAME, errorRate: 0.05 }, { name: 'node-http' }],
      }).runId,
      insertFixtureRun(db, { seed: 4, name: 'fourth' }).runId,
      insertFixtureRun(db, { seed: 5, name: 'fifth' }).runId,
    ]
    html = buildReportHtml(new HistoryStore(db), ids)
    browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS })
  })

  afterAll(async () => {
    await browser?.close()
    db?.close()
  })

  it('fits every table and chart into the width of an A4 page', async () => {
    const page = await browser.newPage({ viewport: { width: PRINT_WIDTH_PX, height: 1100 } })
    await page.emulateMedia({ media: 'print' })
    await page.setContent(html, { waitUntil: 'load' })
    // Evaluated in the page (a string: this file is typed without the DOM).
    const { width, scroll, wide } = await page.evaluate<{
      width: number
      scroll: number
      wide: string[]
    }>(`(() => {
      const doc = document.documentElement
      const outside = [...document.querySelectorAll('table, figure, svg, .legend')].filter(
        (el) => el.getBoundingClientRect().right > doc.clientWidth + 0.5,
      )
      // A cell whose text runs past its edge (a long name that does not wrap) does not fit either.
      const spilling = [...document.querySelectorAll('td, th')].filter((c) => c.scrollWidth > c.clientWidth + 1)
      const wide = [...outside, ...spilling].map(
        (el) => el.tagName.toLowerCase() + '.' + el.className + ': ' + (el.textContent || '').slice(0, 60),
      )
      return { width: doc.clientWidth, scroll: doc.scrollWidth, wide }
    })()`)
    expect(width).toBe(PRINT_WIDTH_PX)
    expect(wide).toEqual([])
    expect(scroll).toBeLessThanOrEqual(width)
    // The 12 rounds of the long-named target are all there, one row each.
    expect(html.match(/<td>12<\/td>/g)?.length).toBeGreaterThanOrEqual(2)
    expect(html).toContain(LONG_NAME)
    await page.close()
  })

  it('names the quantity and its unit on every chart axis', () => {
    const axes = [...html.matchAll(/<text class="axis"[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]!)
    // Throughput, latency, errors and schedule charts for each run, the distribution on page 1.
    expect(axes.length).toBeGreaterThanOrEqual(10)
    for (const label of axes)
      expect(label).toMatch(/\(ms\)|\(MiB\)|seconds|responses\/s|errors\/s|connections|percentile|%/)
    expect(axes.some((a) => a === 'responses/s')).toBe(true)
    expect(axes.some((a) => a === 'latency (ms)')).toBe(true)
  })

  it('says no sentence twice', async () => {
    const page = await browser.newPage({ viewport: { width: PRINT_WIDTH_PX, height: 1100 } })
    await page.setContent(html, { waitUntil: 'load' })
    // Prose only: chart titles and table headers are labels, and each run's charts carry the same ones.
    const blocks = await page.evaluate<string[]>(
      `[...document.querySelectorAll('p, li, .warning, .headline')].map((el) => el.innerText)`,
    )
    const sentences = blocks
      .flatMap((b) => b.split(/(?<=[.!?])\s+(?=[A-Z“"(])/))
      .map((s) => s.replace(/\s+/g, ' ').trim())
      .filter((s) => s.split(' ').length >= 5)
    const seen = new Set<string>()
    const twice = sentences.filter((s) => (seen.has(s) ? true : (seen.add(s), false)))
    expect(sentences.length).toBeGreaterThan(10)
    expect(twice).toEqual([])
    await page.close()
  })
})

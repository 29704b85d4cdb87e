// A chart on any screen (renderer/src/ui/charts/): a panel with a test id, its plot `<id>-plot`,
// its legend and axes as recharts draws them, and its scale buttons.
import type { Locator, Page } from 'playwright-core'
import { DRAWN_LINE } from '../support/app.ts'

export class Chart {
  readonly page: Page
  readonly testId: string
  readonly root: Locator
  readonly plot: Locator
  constructor(page: Page, testId: string) {
    this.page = page
    this.testId = testId
    this.root = page.getByTestId(testId)
    this.plot = page.getByTestId(`${testId}-plot`)
  }
  /**
   * Waits for a line drawn through two points at least. Attached, not visible: a flat line (a p50
   * that held for every second) has a box of zero height, which Playwright calls hidden.
   */
  async drawn(): Promise<void> {
    await this.plot.locator(DRAWN_LINE).first().waitFor({ state: 'attached' })
  }
  /** Waits for any line of the plot (the distribution's curves). */
  async curve(): Promise<void> {
    await this.plot.locator('.recharts-line-curve').first().waitFor()
  }
  /** Waits for the plot's drawing (an svg in it). */
  async rendered(): Promise<void> {
    await this.plot.locator('svg').first().waitFor()
  }
  /** Waits for the panel's drawing (an svg anywhere in it, the plot's or the legend's). */
  async shown(): Promise<void> {
    await this.root.locator('svg').first().waitFor()
  }
  async text(): Promise<string> {
    return (await this.root.textContent()) ?? ''
  }
  /** Each entry of the legend: its words and its colour. */
  async legend(): Promise<{ text: string; colour: string }[]> {
    const items = this.root.locator('.recharts-legend-item')
    await items.first().waitFor()
    const out: { text: string; colour: string }[] = []
    for (const item of await items.all())
      out.push({
        text: (await item.locator('.recharts-legend-item-text').textContent()) ?? '',
        colour: (await item.locator('.recharts-surface [stroke]').first().getAttribute('stroke')) ?? '',
      })
    return out
  }
  async legendCount(): Promise<number> {
    return this.root.locator('.recharts-legend-item').count()
  }
  /** The y axis' tick values, bottom up, from labels like "20 ms". */
  async yTicks(): Promise<number[]> {
    const labels = await this.root
      .locator('.recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value')
      .allTextContents()
    return labels.map((l) => Number.parseFloat(l)).sort((a, b) => a - b)
  }
  /** The y of every vertex of each line, and the y of the x axis (value 0), once a line is drawn. */
  async lineGeometry(): Promise<{ axis: number; lines: number[][] }> {
    await this.drawn()
    const axis = Number(
      await this.plot.locator('.recharts-xAxis line.recharts-cartesian-axis-line').getAttribute('y1'),
    )
    const paths: string[] = []
    for (const line of await this.plot.locator('.recharts-line-curve').all())
      paths.push((await line.getAttribute('d')) ?? '')
    const lines = paths.map((d) => [...d.matchAll(/[ML]\s*([-\d.]+)[ ,]([-\d.]+)/g)].map((m) => Number(m[2])))
    return { axis, lines }
  }
  /** Points drawn per line of the plot: one M or L command each. */
  async pointsPerLine(): Promise<number[]> {
    return this.plot
      .locator('.recharts-line-curve')
      .evaluateAll((paths: { getAttribute(name: string): string | null }[]) =>
        paths.map((p) => (p.getAttribute('d') ?? '').split(/[ML]/).length - 1),
      )
  }
  /** The log or linear scale button (aria-pressed when chosen). */
  scale(kind: 'log' | 'linear'): Locator {
    return this.page.getByTestId(`${this.testId}-scale-${kind}`)
  }
}

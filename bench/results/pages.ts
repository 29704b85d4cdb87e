// The doc's charts as PNG, drawn by the app itself: its web mode (e2e/support/app.ts) on the
// results database, each chart shot from the page a user would open (the study page, the compare
// page, a run's page), so the doc shows what the app draws from the same run.
import type { App } from '../../e2e/support/app.ts'

export interface Shot {
  /** The page: `#/studies/3`, `#/compare?runs=12`. */
  hash: string
  /** The element to draw (a chart's figure, a table's card). */
  testId: string
  /** Draw the element's parent instead (a study's two charts side by side). */
  parent?: boolean
  /** A table, not a chart: nothing to wait for but the element. */
  table?: boolean
  /** What the doc says the picture shows. */
  alt: string
}

export const studyShot = (studyId: number, i: number, alt: string): Shot => ({
  hash: `#/studies/${studyId}`,
  testId: `study-chart-${i}-throughput`,
  parent: true,
  alt,
})

export const runShot = (runId: number, chart: string, alt: string): Shot => ({
  hash: `#/runs/${runId}`,
  testId: `detail-chart-${chart}`,
  alt,
})

/** The compare page of a run's targets, against `baseline`: a chart of it, or its table of pairs. */
export const compareShot = (runId: number, baseline: string, testId: string, alt: string): Shot => ({
  hash: `#/compare?${new URLSearchParams({ runs: String(runId), baseline: `${runId}:${baseline}` }).toString()}`,
  testId,
  table: testId === 'compare-result',
  alt,
})

/** Opens the shot's page, waits for what it draws (a chart's svg, or the element), writes the PNG. */
export async function shoot(app: App, shot: Shot, path: string): Promise<void> {
  const { page } = app
  if (page.url().split('#')[1] !== shot.hash.slice(1)) await app.open(shot.hash)
  const el = page.getByTestId(shot.testId)
  await el.waitFor({ timeout: 60_000 })
  if (!shot.table) await el.locator('svg').first().waitFor({ timeout: 60_000 })
  const target = shot.parent ? el.locator('xpath=..') : el
  await target.scrollIntoViewIfNeeded()
  await target.screenshot({ path })
}

// The screenshots of docs/studies.md: every template, shortened, run against the demo target (a
// process monitor on this process, where the demo runs, gives the target's CPU and memory), and
// the page that shows its result: the study page for a sweep, the run's page (and the comparison
// of its targets) for a run. Written to docs/screens/, committed with the guide, so the guide
// shows what this version of the app draws. A stack a template sweeps is recorded, not restarted
// (engine/study/templates.test.ts runs the templates against their stacks under Docker).
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseRunConfig } from '../engine/config/load.ts'
import type { RunConfig } from '../engine/config/schema.ts'
import { openDb, type Db } from '../engine/store/db.ts'
import { runStudy } from '../engine/study/run.ts'
import { listTemplates } from '../engine/study/templates.ts'
import { shortenTemplate } from '../engine/testing/templates.ts'
import { launchBrowser, ROOT, startApp, type App } from './support/app.ts'

const SCREENS = join(ROOT, 'docs', 'screens')
const templates = listTemplates()

let browser: Browser
let app: App
let db: Db
let demo: string

beforeAll(async () => {
  mkdirSync(SCREENS, { recursive: true })
  browser = await launchBrowser()
  app = await startApp(browser, { viewport: { width: 1280, height: 860 } })
  db = openDb(join(app.dataDir, 'cannonade.db'))
  demo = await app.engine.demoUrl()
})
afterAll(async () => {
  db?.close()
  await app?.close()
  await browser?.close()
})

async function shoot(name: string): Promise<void> {
  await app.page.screenshot({ path: join(SCREENS, `${name}.png`), fullPage: true })
}

/** Run a single config through the engine, as the wizard does, and wait for its end. */
async function run(config: RunConfig): Promise<number> {
  const ended = new Set<number>()
  let wake: () => void = () => {}
  const off = app.engine.runs.onEnded((e) => {
    ended.add(e.runId)
    wake()
  })
  try {
    const { runId } = await app.engine.runs.start(config)
    while (!ended.has(runId)) await new Promise<void>((r) => (wake = r))
    return runId
  } finally {
    off()
  }
}

describe('the studies guide: each template and where its result shows', () => {
  for (const t of templates) {
    it(
      t.id,
      async () => {
        const config = parseRunConfig(
          shortenTemplate(
            t.config,
            (u) => {
              const url = new URL(u)
              return demo + url.pathname + url.search
            },
            { stack: true, monitors: false, monitor: { kind: 'process', pid: process.pid } },
          ),
        )
        const { page } = app
        if (config.sweep) {
          const { studyId, runs } = await runStudy(db, join(app.dataDir, 'cannonade.db'), config, {
            stacks: {
              snapshot: async (name) => ({
                name,
                running: false,
                native: false,
                env: {},
                replicas: 1,
                port: 0,
              }),
              apply: async () => {},
              restore: async () => {},
            },
          })
          expect(runs.every((r) => r.summary.status === 'done')).toBe(true)
          await app.open(`#/studies/${studyId}`)
          await page.locator('[data-testid="study"][data-complete="true"]').waitFor()
          await page.getByTestId('study-chart-0-throughput-plot').locator('svg').first().waitFor()
          await page.getByTestId('study-chart-0-latency-plot').locator('svg').first().waitFor()
          await shoot(t.id)
          return
        }
        const runId = await run(config)
        await app.open(`#/runs/${runId}`)
        await page.getByTestId('detail').waitFor()
        await page.getByTestId('detail-chart-throughput').locator('svg').first().waitFor()
        await page.getByTestId('detail-chart-cpu').locator('svg').first().waitFor()
        await shoot(t.id)
        if (config.targets.length > 1) {
          await app.open(`#/compare?runs=${runId}`)
          await page.getByTestId('compare').waitFor()
          await page.getByTestId('compare-runs').waitFor()
          await shoot(`${t.id}-compare`)
        }
      },
      120_000,
    )
  }
})

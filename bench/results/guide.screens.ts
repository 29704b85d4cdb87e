// The screenshots of docs/studies.md: every template and the page that shows its result (the study
// page for a sweep, the run's page and the comparison of its targets for a run), written to
// docs/screens/ and committed with the guide, so the guide shows what this version of the app draws.
// The six templates `npm run results` runs at full length (bench/results/experiments.ts) are shot
// from its results database (artifacts/results/), their real runs against their Docker stacks; the
// others run here, shortened, against the demo target (a process monitor on this process, where the
// demo runs, gives the target's CPU and memory), a stack a template sweeps recorded, not restarted
// (engine/study/templates.docker.test.ts runs the templates against their stacks under Docker).
import { existsSync, mkdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dbPathOf, experimentOf, findResult, RESULTS_DIR } from './experiments.ts'
import { parseRunConfig } from '../../engine/config/load.ts'
import type { RunConfig } from '../../engine/config/schema.ts'
import { openDb, type Db } from '../../engine/db/db.ts'
import { runStudy } from '../../engine/study/run-study.ts'
import { listTemplates, type Template } from '../../engine/study/templates.ts'
import { recordedStacks, shortenTemplate } from '../../engine/testing/templates.ts'
import { ComparePage, RunDetailPage, StudyPage } from '../../e2e/pages/pages.ts'
import { launchBrowser, ROOT, startApp, type App } from '../../e2e/support/app.ts'

const SCREENS = join(ROOT, 'docs', 'screens')
const templates = listTemplates()
const VIEWPORT = { width: 1280, height: 860 }

let browser: Browser
let app: App
/** The app on the results database, when `npm run results` has made one. */
let results: App | null = null
let db: Db
let demo: string

beforeAll(async () => {
  mkdirSync(SCREENS, { recursive: true })
  browser = await launchBrowser()
  app = await startApp(browser, { viewport: VIEWPORT })
  db = openDb(join(app.dataDir, 'cannonade.db'))
  demo = await app.engine.demoUrl()
  if (existsSync(dbPathOf(RESULTS_DIR)))
    results = await startApp(browser, { dataDir: RESULTS_DIR, keep: true, viewport: VIEWPORT })
})
afterAll(async () => {
  db?.close()
  await results?.close()
  await app?.close()
  await browser?.close()
})

async function shoot(on: App, name: string): Promise<void> {
  await on.page.screenshot({ path: join(SCREENS, `${name}.png`), fullPage: true })
}

/** A study's page, once its charts are drawn. */
async function shootStudy(on: App, studyId: number, name: string): Promise<void> {
  await on.open(`#/studies/${studyId}`)
  const study = new StudyPage(on.page)
  await study.complete()
  await study.chart(0, 'throughput').rendered()
  await study.chart(0, 'latency').rendered()
  await shoot(on, name)
}

/** A run's page, and the comparison of its targets when it has several. */
async function shootRun(on: App, runId: number, targets: number, name: string): Promise<void> {
  await on.open(`#/runs/${runId}`)
  const detail = new RunDetailPage(on.page)
  await detail.root.waitFor()
  await detail.chart('throughput').shown()
  await detail.chart('cpu').shown()
  await shoot(on, name)
  if (targets > 1) {
    await on.open(`#/compare?runs=${runId}`)
    const compare = new ComparePage(on.page)
    await compare.root.waitFor()
    await compare.runs.waitFor()
    await shoot(on, `${name}-compare`)
  }
}

/** A template `npm run results` ran at full length: its newest result in the results database. */
async function fromResults(t: Template, id: string): Promise<void> {
  const where = relative(ROOT, dbPathOf(RESULTS_DIR))
  if (!results)
    throw new Error(`${t.id}: no ${where}: run \`npm run results\` first (its screenshots come from there)`)
  const found = await findResult(results.engine, experimentOf(id)!)
  if (!found) throw new Error(`${t.id}: no result in ${where}: run \`npm run results -- --only ${id}\``)
  console.log(
    `${t.id}: from the full-length run (${found.studyId !== null ? `study ${found.studyId}` : `run ${found.runIds[0]}`} of ${where})`,
  )
  if (found.studyId !== null) await shootStudy(results, found.studyId, t.id)
  else await shootRun(results, found.runIds[0]!, t.config.targets.length, t.id)
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
    const exp = experimentOf(t.id)
    if (exp) {
      it(`${t.id} (from the full-length run of npm run results)`, () => fromResults(t, exp.id), 120_000)
      continue
    }
    it(`${t.id} (shortened, against the demo target)`, async () => {
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
      if (config.sweep) {
        const { studyId, runs } = await runStudy(db, join(app.dataDir, 'cannonade.db'), config, {
          stacks: recordedStacks(),
        })
        expect(runs.every((r) => r.summary.status === 'done')).toBe(true)
        await shootStudy(app, studyId, t.id)
        return
      }
      await shootRun(app, await run(config), config.targets.length, t.id)
    }, 120_000)
  }
})

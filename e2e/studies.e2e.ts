// Templates, sweeps (studies), reports and exports, and the engine-side checks (target probe,
// PostgreSQL connection test) in the web UI against the real engine. Each test has its own data
// directory and server; waits are on page state and engine events, never on time.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  ComparePage,
  HistoryPage,
  LivePage,
  Nav,
  RunDetailPage,
  SettingsPage,
  StudyPage,
  WizardPage,
} from './pages/pages.ts'
import { appPerTest } from './support/app.ts'
import { demoBase, demoRun } from './support/runs.ts'

const { start } = appPerTest()

describe('studies, templates, reports', () => {
  it('fills the wizard from a template and runs it shortened against the demo target', async () => {
    const app = await start()
    const { page } = app
    const demo = await demoBase(app)
    await app.open('#/new')
    const wizard = new WizardPage(page)
    await wizard.reset()
    await wizard.useTemplate('soa-burst')
    // The whole form is the template's: its target, URL (a bundled stack), profile and tags.
    expect(await wizard.targets.name(0).value()).toBe('java-tomcat')
    expect(await wizard.targets.url(0).value()).toBe('http://127.0.0.1:8084/payload')
    await app.screenshot('20-template-loaded')
    await wizard.targets.url(0).fill(`${demo}/payload`)
    // The template's monitor watches java-tomcat, which this URL is not: keep it, as asked.
    await wizard.answerMonitorQuestion(0, 'keep')
    await wizard.next()
    expect(await wizard.load.profile.value()).toBe('burst')
    expect(await wizard.load.field('connections').value()).toBe('35')
    await wizard.load.field('duration').fill(2)
    await wizard.next()
    expect(await wizard.monitoring.kind(0).value()).toBe('docker')
    await wizard.next()
    const yaml = await wizard.review.yaml()
    expect(yaml).toContain('kind: burst')
    expect(yaml).toContain('duration: 2')
    expect(yaml).toContain('- soa')
    const runId = await wizard.start()
    expect(await new LivePage(page).waitForEnd()).toBe('done')
    const run = await app.engine.runs.get(runId)
    expect(run.name).toBe('SOA thesis: periodic bursts of 35 clients, 30 s on / 10 s off')
    expect(run.results[0]?.requests).toBeGreaterThan(0)
    await app.screenshot('21-template-run-done')
  })

  it('edits the marketplace scenario from its template and runs it against the demo target', async () => {
    const app = await start()
    const { page } = app
    const demo = await demoBase(app)
    await app.open('#/new')
    const wizard = new WizardPage(page)
    await wizard.reset()
    await wizard.useTemplate('marketplace')
    const targets = wizard.targets
    const name = (j: number) => targets.stepField(0, j, 'name').value()
    expect([await name(0), await name(1), await name(2), await name(3)]).toEqual([
      'register',
      'login',
      'list ads',
      'create ad',
    ])
    expect(await targets.captureName(0, 1, 0).value()).toBe('token')
    // Reorder, and the schema's message next to a step's field.
    await targets.moveStep(0, 2, 'up')
    expect(await name(1)).toBe('list ads')
    await targets.moveStep(0, 1, 'down')
    expect(await name(1)).toBe('login')
    const path = targets.stepField(0, 2, 'path')
    await path.fill('ads')
    await expect.poll(() => path.message()).toContain('start with /')
    await path.fill('/ads?limit=20')
    await targets.url(0).fill(demo)
    await wizard.answerMonitorQuestion(0, 'keep')
    await app.screenshot('28-wizard-scenario')
    await wizard.next()
    await wizard.load.field('duration').fill(2)
    // The template runs 3 rounds (what a comparison needs); one is enough to see the steps.
    await wizard.setRounds(1)
    await wizard.next()
    await wizard.next()
    const runId = await wizard.start()
    const live = new LivePage(page)
    expect(await live.waitForEnd()).toBe('done')
    await live.openDetail()
    // The page loads the run, then its charts: wait for the table's fourth step row, then count.
    const summary = new RunDetailPage(page).summary
    await summary.rows('java-tomcat-step').nth(3).waitFor()
    expect(await summary.rows('java-tomcat-step').count()).toBe(4)
    expect(await summary.text()).toContain('step create ad')
    const steps = await summary.texts('java-tomcat-step')
    // Compare shows the same per-step rows.
    await app.open(`#/compare?runs=${runId}`)
    const compared = new ComparePage(page).summary(runId)
    await compared.rows('java-tomcat-step').nth(3).waitFor()
    expect(await compared.texts('java-tomcat-step')).toEqual(steps)
  })

  it('runs a sweep of load.connections over 1 and 2 and shows the study with both points', async () => {
    const app = await start()
    const { page } = app
    const wizard = await WizardPage.onDemoLoad(app, { connections: 2, duration: 1 })
    await wizard.setCooldown(0)
    await wizard.setSweep('load.nothing', '1, x')
    const values = wizard.load.sweep('values')
    const path = wizard.load.sweep('path')
    await expect.poll(() => values.message()).toContain('"x"')
    await values.fill('1, 2')
    await expect.poll(() => path.message()).toContain('not a setting')
    await path.fill('load.connections')
    await path.error.waitFor({ state: 'detached' })
    await app.screenshot('22-wizard-sweep')
    await wizard.next()
    await wizard.next()
    await wizard.setName('e2e: connections sweep')
    expect(await wizard.startButton.textContent()).toContain('2 runs')
    const first = await wizard.start()
    const live = new LivePage(page)
    await live.studyBanner.waitFor()
    // The live view follows the study to its next value when it starts.
    await expect.poll(() => live.runId(), { timeout: 60_000 }).not.toBe(first)
    // The banner names the run's place once the study index has it (it is read again when the run's
    // status changes), which on a busy machine can take longer than the poll's default 5 s.
    await expect
      .poll(() => live.studyBanner.textContent(), { timeout: 60_000 })
      .toMatch(/^Run 2 of 2 of the study/)
    await live.openStudy()

    const study = new StudyPage(page)
    await study.root.waitFor()
    const data = await study.waitForPoints(0, 2)
    await study.complete()
    expect(await study.sentence(0).textContent()).toMatch(/^demo: /)
    await study.chart(0, 'throughput').rendered()
    await study.chart(0, 'latency').rendered()
    expect(await data.getAttribute('data-points')).toBe('2')
    const [list] = await app.engine.studies.list()
    expect(list?.runIds).toContain(first)
    for (const id of list?.runIds ?? []) await study.run(id).waitFor()
    await app.screenshot('23-study')

    // A run of the study links back to it, from history and from its page.
    await new Nav(page).go('history')
    await new HistoryPage(page).openStudy(first)
    await study.root.waitFor()
    await study.run(first).click()
    await new RunDetailPage(page).studyLink.waitFor()
  })

  it('exports a report and a CSV and downloads them through the web route', async () => {
    const app = await start()
    const { page, server, dataDir } = app
    const run = await demoRun(app, 'e2e: report', 2, 1)
    expect(run.status).toBe('done')
    await app.open('#/runs')
    const history = new HistoryPage(page)
    await history.select(run.runId)
    const report = history.report
    await report.create()
    // The engine's progress events reach the page: the PDF stage was shown while Chromium printed.
    expect(await report.stagesShown()).toContain('rendering pdf')
    const link = report.downloadLink()
    await app.screenshot('24-history-report')
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()])
    const saved = await download.path()
    const pdf = await readFile(saved)
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-')
    expect(download.suggestedFilename()).toMatch(/\.pdf$/)

    // The route serves only the data folder's exports/ and reports/.
    const outside = await page.request.get(
      `${server.origin}/api/download?path=${encodeURIComponent(join(dataDir, 'cannonade.db'))}&token=${server.token}`,
    )
    expect(outside.status()).toBe(403)

    await history.open(run.runId)
    const detail = new RunDetailPage(page)
    await detail.exportCsv()
    const csvLink = detail.csvSamplesLink
    await csvLink.waitFor()
    const csv = await page.request.get(`${server.origin}${(await csvLink.getAttribute('href')) ?? ''}`)
    expect(csv.status()).toBe(200)
    expect((await csv.text()).split('\n').length).toBeGreaterThan(2)
    await app.screenshot('25-detail-exports')
  })

  it('checks a target through the engine and tests the PostgreSQL connection', async () => {
    const app = await start()
    const { page } = app
    const demo = await demoBase(app)
    await app.open('#/new')
    const wizard = new WizardPage(page)
    await wizard.reset()
    await wizard.targets.url(0).fill(`${demo}/ads?limit=20`)
    const answered = await wizard.check(0)
    expect(answered.ok).toBe(true)
    expect(answered.text).toMatch(/answered 200 in [\d.]+ ms/)
    await wizard.targets.url(0).fill('http://127.0.0.1:9/')
    const refused = await wizard.check(0)
    expect(refused.ok).toBe(false)
    expect(refused.text).toContain('connection refused')
    await app.screenshot('26-probe-refused')

    await new Nav(page).go('settings')
    const settings = new SettingsPage(page)
    const pgUrl = settings.input('pg-url')
    await pgUrl.fill('postgres://cannonade@127.0.0.1:9/results')
    await settings.pgTestButton.click()
    await expect.poll(() => settings.pgTestResult.textContent(), { timeout: 15_000 }).toContain('refused')
    // A password in the URL is refused (it belongs in the PGPASSWORD secret), and so is Test.
    await pgUrl.fill('postgres://cannonade:hunter2@127.0.0.1:9/results')
    await pgUrl.error.waitFor()
    expect(await settings.pgTestButton.isDisabled()).toBe(true)
    expect(await settings.saveButton.isDisabled()).toBe(true)
    await app.screenshot('27-settings-pg')
  })
})

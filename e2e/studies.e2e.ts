// Templates, sweeps (studies), reports and exports, and the engine-side checks (target probe,
// PostgreSQL connection test) in the web UI against the real engine. Each test has its own data
// directory and server; waits are on page state and engine events, never on time.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { LivePage, Nav, ReportExport, StudyPage, WizardPage } from './pages/pages.ts'
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
    expect(await page.getByTestId('target-0-name').inputValue()).toBe('java-tomcat')
    expect(await wizard.targetUrl(0).inputValue()).toBe('http://127.0.0.1:8084/payload')
    await app.screenshot('20-template-loaded')
    await wizard.targetUrl(0).fill(`${demo}/payload`)
    // The template's monitor watches java-tomcat, which this URL is not: keep it, as asked.
    await wizard.answerMonitorQuestion(0, 'keep')
    await wizard.next()
    expect(await page.getByTestId('profile-kind').inputValue()).toBe('burst')
    expect(await page.getByTestId('load-connections').inputValue()).toBe('35')
    await page.getByTestId('load-duration').fill('2')
    await wizard.next()
    expect(await page.getByTestId('monitor-0-kind').inputValue()).toBe('docker')
    await wizard.next()
    const yaml = (await page.getByTestId('review-yaml').textContent()) ?? ''
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
    const name = (j: number) => page.getByTestId(`target-0-step-${j}-name`).inputValue()
    expect([await name(0), await name(1), await name(2), await name(3)]).toEqual([
      'register',
      'login',
      'list ads',
      'create ad',
    ])
    expect(await page.getByTestId('target-0-step-1-capture-0-name').inputValue()).toBe('token')
    // Reorder, and the schema's message next to a step's field.
    await page.getByTestId('target-0-step-2-up').click()
    expect(await name(1)).toBe('list ads')
    await page.getByTestId('target-0-step-1-down').click()
    expect(await name(1)).toBe('login')
    await page.getByTestId('target-0-step-2-path').fill('ads')
    await expect
      .poll(() => page.getByTestId('target-0-step-2-path-error').textContent())
      .toContain('start with /')
    await page.getByTestId('target-0-step-2-path').fill('/ads?limit=20')
    await wizard.targetUrl(0).fill(demo)
    await wizard.answerMonitorQuestion(0, 'keep')
    await app.screenshot('28-wizard-scenario')
    await wizard.next()
    await page.getByTestId('load-duration').fill('2')
    // The template runs 3 rounds (what a comparison needs); one is enough to see the steps.
    await wizard.setRounds(1)
    await wizard.next()
    await wizard.next()
    const runId = await wizard.start()
    expect(await new LivePage(page).waitForEnd()).toBe('done')
    await page.getByTestId('live-open-detail').click()
    // The page loads the run, then its charts: wait for the table's fourth step row, then count.
    await page.getByTestId('detail-summary-java-tomcat-step').nth(3).waitFor()
    expect(await page.getByTestId('detail-summary-java-tomcat-step').count()).toBe(4)
    expect(await page.getByTestId('detail-summary').textContent()).toContain('step create ad')
    const steps = await page.getByTestId('detail-summary-java-tomcat-step').allTextContents()
    // Compare shows the same per-step rows.
    await app.open(`#/compare?runs=${runId}`)
    const compared = page
      .getByTestId(`compare-summary-${runId}`)
      .getByTestId('detail-summary-java-tomcat-step')
    await compared.nth(3).waitFor()
    expect(await compared.allTextContents()).toEqual(steps)
  })

  it('runs a sweep of load.connections over 1 and 2 and shows the study with both points', async () => {
    const app = await start()
    const { page } = app
    const wizard = await WizardPage.onDemoLoad(app, { connections: 2, duration: 1 })
    await wizard.setCooldown(0)
    await wizard.setSweep('load.nothing', '1, x')
    await expect.poll(() => page.getByTestId('sweep-values-error').textContent()).toContain('"x"')
    await page.getByTestId('sweep-values').fill('1, 2')
    await expect.poll(() => page.getByTestId('sweep-path-error').textContent()).toContain('not a setting')
    await page.getByTestId('sweep-path').fill('load.connections')
    await page.getByTestId('sweep-path-error').waitFor({ state: 'detached' })
    await app.screenshot('22-wizard-sweep')
    await wizard.next()
    await wizard.next()
    await wizard.setName('e2e: connections sweep')
    expect(await page.getByTestId('wizard-start').textContent()).toContain('2 runs')
    const first = await wizard.start()
    await page.getByTestId('live-study').waitFor()
    // The live view follows the study to its next value when it starts.
    await expect
      .poll(() => page.getByTestId('live').getAttribute('data-run-id'), { timeout: 60_000 })
      .not.toBe(String(first))
    // The banner names the run's place once the study index has it (it is read again when the run's
    // status changes), which on a busy machine can take longer than the poll's default 5 s.
    await expect
      .poll(() => page.getByTestId('live-study').textContent(), { timeout: 60_000 })
      .toMatch(/^Run 2 of 2 of the study/)
    await page.getByTestId('live-study-link').click()

    const study = new StudyPage(page)
    await study.root.waitFor()
    const data = await study.waitForPoints(0, 2)
    await page.locator('[data-testid="study"][data-complete="true"]').waitFor()
    expect(await page.getByTestId('study-sentence-0').textContent()).toMatch(/^demo: /)
    await page.getByTestId('study-chart-0-throughput-plot').locator('svg').first().waitFor()
    await page.getByTestId('study-chart-0-latency-plot').locator('svg').first().waitFor()
    expect(await data.getAttribute('data-points')).toBe('2')
    const [list] = await app.engine.studies.list()
    expect(list?.runIds).toContain(first)
    for (const id of list?.runIds ?? []) await page.getByTestId(`study-run-${id}`).waitFor()
    await app.screenshot('23-study')

    // A run of the study links back to it, from history and from its page.
    await new Nav(page).go('history')
    await page.getByTestId(`history-study-${first}`).click()
    await study.root.waitFor()
    await page.getByTestId(`study-run-${first}`).click()
    await page.getByTestId('detail-study-link').waitFor()
  })

  it('exports a report and a CSV and downloads them through the web route', async () => {
    const app = await start()
    const { page, server, dataDir } = app
    const run = await demoRun(app, 'e2e: report', 2, 1)
    expect(run.status).toBe('done')
    await app.open('#/runs')
    await page.getByTestId(`history-select-${run.runId}`).check()
    const report = new ReportExport(page, 'history-report')
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

    await page.getByTestId(`history-open-${run.runId}`).click()
    await page.getByTestId('detail-export-csv').click()
    const csvLink = page.getByTestId('detail-export-csv-samples-file-download')
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
    await wizard.targetUrl(0).fill(`${demo}/ads?limit=20`)
    const answered = await wizard.check(0)
    expect(answered.ok).toBe(true)
    expect(answered.text).toMatch(/answered 200 in [\d.]+ ms/)
    await wizard.targetUrl(0).fill('http://127.0.0.1:9/')
    const refused = await wizard.check(0)
    expect(refused.ok).toBe(false)
    expect(refused.text).toContain('connection refused')
    await app.screenshot('26-probe-refused')

    await new Nav(page).go('settings')
    await page.getByTestId('settings-pg-url').fill('postgres://cannonade@127.0.0.1:9/results')
    await page.getByTestId('settings-pg-test').click()
    await expect
      .poll(() => page.getByTestId('settings-pg-test-result').textContent(), { timeout: 15_000 })
      .toContain('refused')
    // A password in the URL is refused (it belongs in the PGPASSWORD secret), and so is Test.
    await page.getByTestId('settings-pg-url').fill('postgres://cannonade:hunter2@127.0.0.1:9/results')
    await page.getByTestId('settings-pg-url-error').waitFor()
    expect(await page.getByTestId('settings-pg-test').isDisabled()).toBe(true)
    expect(await page.getByTestId('settings-save').isDisabled()).toBe(true)
    await app.screenshot('27-settings-pg')
  })
})

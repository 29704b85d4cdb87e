// A URL is enough (issue 28, Must 9): the app's first screen takes a URL, connections and seconds
// and starts, as `cannonade run URL -c N -d S` does; the run opens live, ends, and is kept with the
// one-target config the CLI makes. A URL that is not one is named under the form.
import { describe, expect, it } from 'vitest'
import { HistoryPage } from './pages/pages.ts'
import { appPerTest } from './support/app.ts'
import { demoBase } from './support/runs.ts'

const { start } = appPerTest()

describe('the first screen takes a URL', () => {
  it('starts a run of the URL typed, with the connections and seconds typed', async () => {
    const app = await start()
    const { page } = app
    const history = new HistoryPage(page)
    await app.open()
    await history.empty.waitFor()
    const url = `${await demoBase(app)}/ads?limit=5`
    await history.quickRun('url').fill(url)
    await history.quickRun('connections').fill(2)
    await history.quickRun('seconds').fill(2)
    const ended = new Promise<number>((resolve) => {
      const off = app.engine.runs.onEnded((e) => {
        off()
        resolve(e.runId)
      })
    })
    await history.quickRun('url').input.press('Enter')
    await page.waitForURL(/#\/live\/\d+/)
    const runId = await ended
    const run = await app.engine.runs.get(runId)
    expect(run.status).toBe('done')
    expect(run.results[0]!.requests).toBeGreaterThan(0)
    const { config } = run
    expect(config.targets[0]!.url).toBe(url)
    expect(config.load).toMatchObject({ connections: 2, duration: 2 })
  })

  it('names what is wrong with a URL it cannot run', async () => {
    const app = await start()
    const history = new HistoryPage(app.page)
    await app.open()
    await history.quickRun('url').fill('ftp://127.0.0.1/x')
    await history.quickRunStart.click()
    await expect
      .poll(() => history.quickRunError.textContent())
      .toMatch(/must start with http:\/\/ or https:\/\//)
  })
})

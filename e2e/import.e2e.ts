// Scenarios from what users have, end to end: Chromium records the app's own web mode as a HAR
// (Playwright's recordHar), `cannonade import har` turns it into steps, and those steps, run for a
// second against the same app with the masked session token given as a CANNONADE_SECRET_…
// variable, are all answered with 2xx: the import kept what the page sent and nothing it could
// not replay. With CANNONADE_WRITE_FIXTURES=1 the recording is also kept as
// e2e/fixtures/web-mode.har (its token replaced), which engine/import/har.test.ts reads. And the
// wizard's first step takes the same as pasted text or a file and shows the steps it made.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { curlFixture } from '../engine/import/fixtures/requests.ts'
import { importScenario } from '../engine/import/index.ts'
import { HistoryPage, ImportCard, Nav, SettingsPage, WizardPage } from './pages/pages.ts'
import { appPerTest, ROOT, type App } from './support/app.ts'
import { runAndWait } from './support/runs.ts'

const { start } = appPerTest()
const FIXTURE = join(ROOT, 'e2e', 'fixtures', 'web-mode.har')
/** What the committed fixture holds instead of the recording's token (a dead one, but a secret's shape). */
const FIXTURE_TOKEN = 'recorded-session-token'

const dirs: string[] = []
const secrets: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
  for (const name of secrets.splice(0)) delete process.env[name]
})

/** The app opened and walked through its read-only pages, its traffic recorded into `har`. */
async function recordWebMode(har: string): Promise<App> {
  const app = await start({ recordHar: har })
  await app.open('#/runs')
  const history = new HistoryPage(app.page)
  await history.emptyNew.waitFor()
  const nav = new Nav(app.page)
  await nav.go('settings')
  await new SettingsPage(app.page).field('docker-host').waitFor()
  await nav.go('studies')
  await nav.go('history')
  await history.emptyNew.waitFor()
  // Closing the context writes the HAR; the app's server and engine stay up for the replay.
  await app.context.close()
  return app
}

describe('import har', () => {
  it("turns the app's own web mode, recorded by Chromium, into steps that replay it", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cannonade-har-'))
    dirs.push(dir)
    const har = join(dir, 'web-mode.har')
    const app = await recordWebMode(har)
    const text = readFileSync(har, 'utf8')
    expect(text).toContain(app.server.token)

    const made = importScenario('har', [text], { source: 'web-mode.har' })
    expect(made.config.targets).toHaveLength(1)
    const target = made.config.targets[0]!
    expect(target.url).toBe(app.server.url.replace(/\/\?token=.*$/, ''))
    const steps = target.steps!
    const calls = steps.filter((s) => s.path.startsWith('/api/'))
    expect(calls.map((s) => s.path)).toEqual(expect.arrayContaining(['/api/runs:list', '/api/settings:get']))
    expect(steps.some((s) => /\.(js|css|woff2?|svg)$/.test(s.path.split('?')[0]!))).toBe(false)
    expect(made.yaml).not.toContain(app.server.token)
    expect(made.secrets.map((s) => s.env).sort()).toEqual([
      'CANNONADE_SECRET_TOKEN',
      'CANNONADE_SECRET_X_CANNONADE_TOKEN',
    ])
    console.log(
      `[import har] ${steps.length} steps:\n${steps.map((s) => `  ${s.method} ${s.path}`).join('\n')}`,
    )

    // The steps run against the app itself, the token given the way a user would: in the environment.
    for (const s of made.secrets) {
      process.env[s.env] = app.server.token
      secrets.push(s.env)
    }
    const ended = await runAndWait(app, {
      ...made.config,
      load: { connections: 1, duration: 1 },
      rounds: 1,
      cooldownSeconds: 0,
    })
    expect(ended.status).toBe('done')
    const run = await app.engine.runs.get(ended.runId)
    const result = run.results[0]!
    for (const step of result.steps ?? []) {
      expect(step.ok, `${step.step}: ${JSON.stringify(step.statusClasses)}`).toBeGreaterThan(0)
      expect(step.ok, step.step).toBe(step.requests)
    }
    expect((result.steps ?? []).map((s) => s.step)).toEqual(steps.map((s) => s.name))
    // The stored config keeps the ${variables}, never the token.
    expect(JSON.stringify(run.config)).not.toContain(app.server.token)

    if (process.env.CANNONADE_WRITE_FIXTURES === '1') {
      writeFileSync(har, text.replaceAll(app.server.token, FIXTURE_TOKEN))
      copyFileSync(har, FIXTURE)
    }
  })
})

describe("the wizard's first step", () => {
  it('makes steps of pasted curl commands, shows them, and fills the targets with them', async () => {
    const app = await start()
    await app.open('#/new')
    const wizard = new WizardPage(app.page)
    await wizard.reset()
    const card = new ImportCard(app.page)
    await card.paste(curlFixture('chromium', 8080))
    expect(await card.kind.inputValue()).toBe('curl')
    expect(await card.make()).toBe('preview')
    expect(await card.steps(0)).toEqual([
      'GET /api/items?page=2&sort=price',
      'POST /api/items',
      'DELETE /api/items/7',
    ])
    const secrets = await card.secrets.innerText()
    for (const env of [
      'CANNONADE_SECRET_COOKIE',
      'CANNONADE_SECRET_X_CSRF_TOKEN',
      'CANNONADE_SECRET_AUTHORIZATION',
    ])
      expect(secrets).toContain(env)
    expect(await card.preview.innerText()).not.toContain('3f9a1c0e7b')
    await card.use()
    expect(await wizard.targets.url(0).value()).toBe('http://127.0.0.1:8080')
    await wizard.targets.step(0, 2).waitFor()
    expect(await wizard.targets.secrets(0).innerText()).toContain('CANNONADE_SECRET_COOKIE')
    await app.screenshot('wizard-import-curl')
    // A valid config: the wizard goes on to the load.
    await wizard.next()
    await wizard.load.field('connections').input.waitFor()
  })

  it('takes a HAR file and an OpenAPI document as files, and says what is wrong with text that is neither', async () => {
    const app = await start()
    await app.open('#/new')
    const card = new ImportCard(app.page)
    await card.chooseFile(FIXTURE)
    expect(await card.make()).toBe('preview')
    expect(await card.kind.inputValue()).toBe('har')
    const truth = importScenario('har', [readFileSync(FIXTURE, 'utf8')])
    expect(await card.steps(0)).toEqual(truth.config.targets[0]!.steps!.map((s) => `${s.method} ${s.path}`))
    expect(await card.notes.innerText()).toMatch(/left out \d+ static assets/)

    await card.chooseFile(join(ROOT, 'targets', 'openapi.yaml'))
    await card.base('http://127.0.0.1:8082')
    expect(await card.make()).toBe('preview')
    expect(await card.kind.inputValue()).toBe('openapi')
    expect((await card.steps(0)).slice(0, 3)).toEqual([
      'GET /health',
      'GET /ads?limit=20&offset=0&format=json',
      'POST /ads',
    ])
    expect(await card.steps(0)).toHaveLength(10)

    // Text that is no kind keeps the kind chosen: here curl commands, which it is not.
    await card.paste('wget http://127.0.0.1:8082/ads')
    expect(await card.kind.inputValue()).toBe('openapi')
    await card.kind.selectOption('curl')
    expect(await card.make()).toBe('error')
    expect(await card.error.innerText()).toMatch(/starts with "wget", not curl/)
  })
})

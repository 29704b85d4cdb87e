// Nothing fails silently in the app: a docker monitor naming a container that does not exist is a
// warning on the live view while the run goes on, on the run's page and in `cannonade runs show`;
// Settings keep what was saved and forget what was cleared, across a reload.
import { PassThrough } from 'node:stream'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runsCommand } from '../engine/cli/runs.ts'
import { LivePage, Nav, RunDetailPage, SettingsPage } from './pages/pages.ts'
import { appPerTest } from './support/app.ts'
import { demoBase } from './support/runs.ts'

const { start } = appPerTest()

describe('warnings and settings', () => {
  it('shows a failed docker monitor live, on the run page and in runs show', async () => {
    const app = await start()
    const { page } = app
    const demo = await demoBase(app)
    const container = 'cannonade-e2e-no-such-container'
    await app.open('#/runs')
    // Long enough to be watched; stopped as soon as the warning has been seen.
    const { runId } = await app.engine.runs.start({
      version: 1,
      name: 'e2e: missing container',
      targets: [{ name: 'demo', url: `${demo}/ads?limit=5`, monitor: { kind: 'docker', container } }],
      load: { connections: 1, duration: 60 },
      cooldownSeconds: 0,
    })
    await app.open(`#/live/${runId}`)
    const live = new LivePage(page)
    const warning = live.warning(0)
    await warning.waitFor()
    // Seen while the run goes on. With Docker here the engine says there is no such container;
    // without it, that Docker cannot be reached: either way the monitor is named and the message shown.
    expect(await live.root.getAttribute('data-status')).toBe('running')
    const text = (await warning.textContent()) ?? ''
    expect(text).toMatch(
      /^The docker monitor of demo \(targets\.0\.monitor\) failed from .+: .+\. No CPU or memory from it in this run\.$/,
    )
    expect(text).toMatch(new RegExp(`container ${container}: no such container|Docker engine not reachable`))
    await app.screenshot('33-live-monitor-warning')
    await live.stop()
    expect(await live.waitForEnd()).toBe('aborted')

    await live.openDetail()
    const detail = new RunDetailPage(page)
    await detail.root.waitFor()
    expect(await detail.warning(0).textContent()).toBe(text)

    const out: string[] = []
    const stdout = new PassThrough()
    stdout.on('data', (c: Buffer) => out.push(c.toString()))
    const code = await runsCommand(['show', String(runId)], {
      dbPath: join(app.dataDir, 'cannonade.db'),
      stdout,
      stderr: new PassThrough(),
      isTTY: false,
    })
    expect(code).toBe(0)
    expect(out.join('')).toContain(`warning: ${text}`)
  })

  it('keeps saved settings and forgets cleared ones across a reload', async () => {
    const app = await start()
    const { page } = app
    await app.open('#/settings')
    const settings = new SettingsPage(page)
    await settings.field('docker-host').fill('tcp://127.0.0.1:2375')
    await settings.field('cf-api').fill('https://api.cf.example.com')
    await settings.field('cf-user').fill('ops')
    await settings.field('retention').fill('30')
    await settings.save()
    const nav = new Nav(page)
    await nav.reload()
    await expect.poll(() => settings.field('docker-host').inputValue()).toBe('tcp://127.0.0.1:2375')
    expect(await settings.field('cf-api').inputValue()).toBe('https://api.cf.example.com')

    // Clear three of them, keep one.
    await settings.field('docker-host').fill('')
    await settings.field('cf-api').fill('')
    await settings.field('retention').fill('')
    await settings.save()
    await nav.reload()
    await expect.poll(() => settings.field('cf-user').inputValue()).toBe('ops')
    expect(await settings.field('docker-host').inputValue()).toBe('')
    expect(await settings.field('cf-api').inputValue()).toBe('')
    expect(await settings.field('retention').inputValue()).toBe('')
    const stored = await app.engine.settings.get()
    expect(stored).not.toHaveProperty('dockerHost')
    expect(stored).not.toHaveProperty('cfApi')
    expect(stored).not.toHaveProperty('ledgerRetentionDays')
    expect(stored).toMatchObject({ cfUsername: 'ops' })

    // A Docker host that is no address is refused in words before anything is saved.
    const dockerHost = settings.input('docker-host')
    await dockerHost.fill('/var/run/docker.sock')
    expect(await dockerHost.message()).toBe(
      'must be a Docker address such as unix:///var/run/docker.sock or tcp://127.0.0.1:2375',
    )
    expect(await settings.saveButton.isDisabled()).toBe(true)
  })
})

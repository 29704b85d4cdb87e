// Nothing fails silently: a monitor that cannot read its source is told live (runs:warning), kept
// with the run (runs.get, `runs show`, the report), and the run goes on. The Docker host setting
// is where every Docker call goes: dockerode (the monitor), the docker and compose commands (the
// run's environment, stacks). Both against stand-ins of a Docker engine elsewhere
// (engine/testing/docker-fake.ts), so the check needs no Docker and sees exactly what was asked;
// the other sources fail for real (no such pid, a closed port) or on the Cloud Foundry stand-in.
import { readFileSync, rmSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { dirname } from 'node:path'
import { PassThrough } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunEndedEvent, RunWarningEvent } from '../api/types.ts'
import { runsCommand } from '../cli/runs.ts'
import { formatSummary, jsonSummary } from '../cli/summary.ts'
import { createEngine, type EngineHost } from './index.ts'
import { warningLine } from '../monitor/warnings.ts'
import { FakeCloudFoundry } from '../testing/cf-fake.ts'
import {
  fakeDockerCli,
  startFakeDockerEngine,
  type FakeDockerCli,
  type FakeDockerEngine,
} from '../testing/docker-fake.ts'
import { tempDbPath } from '../testing/run-config.ts'
import { startTarget, type CountingTarget } from '../testing/target.ts'

let host: EngineHost
let target: CountingTarget
let engine: FakeDockerEngine
let cli: FakeDockerCli
const path = process.env.PATH
beforeAll(async () => {
  engine = await startFakeDockerEngine()
  cli = fakeDockerCli()
  process.env.PATH = `${cli.dir}:${path ?? ''}`
  host = await createEngine({ dbPath: tempDbPath() })
  target = await startTarget()
})
afterAll(async () => {
  process.env.PATH = path
  await host.close()
  await target.close()
  await engine.close()
  cli.close()
  rmSync(dirname(host.dbPath), { recursive: true, force: true })
})

async function runAndWait(
  config: unknown,
): Promise<{ runId: number; ended: RunEndedEvent; told: RunWarningEvent[] }> {
  const told: RunWarningEvent[] = []
  const offWarning = host.runs.onWarning((e) => told.push(e))
  let runId = -1
  const early: RunEndedEvent[] = []
  let resolve: ((e: RunEndedEvent) => void) | null = null
  const off = host.runs.onEnded((e) => (e.runId === runId && resolve ? resolve(e) : early.push(e)))
  try {
    runId = (await host.runs.start(config)).runId
    const ended =
      early.find((e) => e.runId === runId) ?? (await new Promise<RunEndedEvent>((r) => (resolve = r)))
    return { runId, ended, told: told.filter((e) => e.runId === runId) }
  } finally {
    off()
    offWarning()
  }
}

describe('monitor warnings and the Docker host setting', () => {
  it('tells, keeps and shows a docker monitor whose container does not exist; the run goes on', async () => {
    await host.settings.set({ dockerHost: engine.host })
    const container = 'cannonade-no-such-container'
    const { runId, ended, told } = await runAndWait({
      version: 1,
      name: 'missing container',
      targets: [
        { name: 'api', url: `${target.url}/x`, monitor: { kind: 'docker', container } },
        { name: 'other', url: `${target.url}/y` },
      ],
      load: { connections: 1, duration: 1 },
      cooldownSeconds: 0,
    })
    expect(ended.status).toBe('done')
    // The monitor asked the engine the setting names, not the default socket.
    expect(engine.paths).toContain('/_ping')
    expect(engine.paths).toContain(`/containers/${container}/json`)

    // Live: one event, placed on the run's timeline (the monitor fails before the first request).
    expect(told).toHaveLength(1)
    const live = told[0]!.warning
    expect(live).toMatchObject({
      kind: 'monitor',
      field: 'targets.0.monitor',
      target: 'api',
      source: 'docker',
      stopped: true,
      count: 1,
    })
    expect(live.message).toBe(`container ${container}: no such container`)
    expect(live.t).not.toBeNull()
    expect(live.t!).toBeLessThan(1)

    // Kept: the stored run says the same.
    const run = await host.runs.get(runId)
    expect(run.warnings).toEqual([live])
    expect(warningLine(live)).toMatch(
      new RegExp(
        `^The docker monitor of api \\(targets\\.0\\.monitor\\) failed from the start: container ${container}: no such container\\. No CPU or memory from it in this run\\.$`,
      ),
    )

    // `cannonade run`: its summary table and its --json document.
    expect(formatSummary(run)).toContain(`\nwarning: ${warningLine(live)}\n`)
    expect(jsonSummary(run).warnings).toEqual([live])

    // `cannonade runs show` and its JSON.
    const out: string[] = []
    const stdout = new PassThrough()
    stdout.on('data', (c: Buffer) => out.push(c.toString()))
    const ctx = { dbPath: host.dbPath, stdout, stderr: new PassThrough(), isTTY: false }
    expect(await runsCommand(['show', String(runId)], ctx)).toBe(0)
    expect(out.join('')).toContain(`warning: ${warningLine(live)}`)
    out.length = 0
    expect(await runsCommand(['show', String(runId), '--json'], ctx)).toBe(0)
    expect((JSON.parse(out.join('')) as { warnings: unknown }).warnings).toEqual([live])

    // The report (the HTML the PDF is printed from): one line for it.
    const report = await host.reports.create([runId], { format: 'html' })
    const html = readFileSync(report.path!, 'utf8')
    expect(html.match(/data-warning="monitor"/g)).toHaveLength(1)
    expect(html).toContain(`container ${container}: no such container`)
  })

  it('sends the docker and compose commands to the Docker host setting, and stops when it is cleared', async () => {
    await host.settings.set({ dockerHost: engine.host })
    const before = cli.calls().length
    await host.stacks.status()
    const { ended } = await runAndWait({
      version: 1,
      name: 'environment',
      targets: [{ name: 'api', url: `${target.url}/x`, monitor: { kind: 'docker', container: 'abc' } }],
      load: { connections: 1, duration: 1 },
      cooldownSeconds: 0,
    })
    expect(ended.status).toBe('done')
    const calls = cli.calls().slice(before)
    // stacks: docker info, compose version, ps of each stack's project; the run: inspect of its container.
    expect(calls.map((c) => c.args.split(' ')[0])).toEqual(
      expect.arrayContaining(['info', 'compose', 'ps', 'inspect']),
    )
    expect(calls.filter((c) => c.host !== engine.host)).toEqual([])

    // Cleared: the commands get the environment's DOCKER_HOST again (none here).
    await host.settings.set({ dockerHost: null })
    const cleared = cli.calls().length
    await host.stacks.status()
    const after = cli.calls().slice(cleared)
    expect(after.length).toBeGreaterThan(0)
    expect(after.every((c) => c.host === (process.env.DOCKER_HOST ?? ''))).toBe(true)
  })

  it('runs the monitor test against the Docker host setting', async () => {
    await host.settings.set({ dockerHost: engine.host })
    const seen = engine.paths.length
    const r = await host.monitor.test({ kind: 'docker', container: 'nope-1' })
    expect(r).toMatchObject({ ok: false, message: 'container nope-1: no such container' })
    expect(engine.paths.slice(seen)).toEqual(['/_ping', '/containers/nope-1/json'])
  })
})

/** A loopback port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

// Linux never hands out a pid above 2^22 (pid_max's ceiling).
const NO_PID = 4_194_305

// [what cannot be read, the monitors of target 2 (`monitor` of the config), the source, the
// field that failed, the words its message must have]
type Case = [string, () => Promise<unknown>, string, string, (ctx: { port: number }) => RegExp]
const SOURCES: Case[] = [
  [
    'a Docker socket that does not exist',
    async () => ({ kind: 'docker', container: 'app', socketPath: '/nonexistent/docker.sock' }),
    'docker',
    'targets.1.monitor',
    () => /^Docker engine not reachable at \/nonexistent\/docker\.sock \(ENOENT\)/,
  ],
  [
    'a process id that cannot exist',
    async () => ({ kind: 'process', pid: NO_PID }),
    'process',
    'targets.1.monitor',
    () => new RegExp(`^no process with pid ${NO_PID} `),
  ],
  [
    'a port no process listens on, second in a list after one that works',
    async () => [
      { kind: 'process', pid: process.pid },
      { kind: 'process', port: await closedPortOnce() },
    ],
    'process',
    'targets.1.monitor.1',
    ({ port }) => new RegExp(`^no process is listening on TCP port ${port}\\b`),
  ],
  [
    'a PostgreSQL server that is not there',
    async () => ({ kind: 'postgres', url: `postgres://app@127.0.0.1:${await closedPortOnce()}/shop` }),
    'postgres',
    'targets.1.monitor',
    ({ port }) => new RegExp(`127\\.0\\.0\\.1:${port}.*ECONNREFUSED|ECONNREFUSED.*127\\.0\\.0\\.1:${port}`),
  ],
  [
    'a Cloud Foundry API that refuses the token',
    async () => ({
      kind: 'cloudfoundry',
      api: cf.url,
      app: 'shop',
      auth: { grant: 'token', tokenEnv: 'CANNONADE_TEST_CF_TOKEN' },
    }),
    'cloudfoundry',
    'targets.1.monitor',
    () => /^the Cloud Controller refused the pasted token \(expired or revoked\?\).*HTTP 401/,
  ],
]

// The port the current case's config uses (each case asks for one at most).
let lastPort = 0
async function closedPortOnce(): Promise<number> {
  lastPort = await closedPort()
  return lastPort
}

let cf: FakeCloudFoundry
beforeAll(async () => {
  cf = new FakeCloudFoundry()
  await cf.start()
  process.env.CANNONADE_TEST_CF_TOKEN = 'access-not-issued'
})
afterAll(async () => {
  delete process.env.CANNONADE_TEST_CF_TOKEN
  await cf.close()
})

describe('every kind of monitor that cannot read its source', () => {
  it.each(SOURCES)(
    '%s: told live, kept with the run, and the run goes on',
    async (_what, monitor, source, field, words) => {
      lastPort = 0
      const { runId, ended, told } = await runAndWait({
        version: 1,
        name: 'unreadable monitor',
        targets: [
          { name: 'plain', url: `${target.url}/x` },
          { name: 'watched', url: `${target.url}/y`, monitor: await monitor() },
        ],
        load: { connections: 1, duration: 1 },
        cooldownSeconds: 0,
      })
      expect(ended.status).toBe('done')
      const run = await host.runs.get(runId)
      // Both targets were loaded: the monitor's failure did not stop its target.
      expect(run.results.map((r) => [r.target, r.requests > 0])).toEqual([
        ['plain', true],
        ['watched', true],
      ])
      expect(told.map((e) => e.warning)).toEqual(run.warnings)
      expect(run.warnings).toHaveLength(1)
      const w = run.warnings[0]!
      expect(w).toMatchObject({ kind: 'monitor', source, field, target: 'watched' })
      expect(w.message).toMatch(words({ port: lastPort }))
      // Each fails as its monitor starts, before the first request: given up for the run, said so.
      expect(w.stopped).toBe(true)
      expect(warningLine(w)).toContain(' failed from the start: ')
    },
  )
})

describe('a monitor that loses its source during the run', () => {
  it('is told once when it happens, placed on the run, and keeps trying', async () => {
    cf.addApp({ name: 'live', space: 'dev', instances: [{ state: 'RUNNING', cpu: 5, mem: 64e6 }] })
    process.env.CANNONADE_TEST_CF_LIVE_TOKEN = cf.issueAccessToken()
    const told: RunWarningEvent[] = []
    let runId = -1
    let revoked = false
    const warned = new Promise<void>((resolve) => {
      const off = host.runs.onWarning((e) => {
        told.push(e)
        off()
        resolve()
      })
    })
    // Once requests flow and the monitor has read the app, its token stops working.
    const offProgress = host.runs.onProgress((e) => {
      if (e.runId !== runId || revoked || e.totals.requests === 0 || cf.count(/\/stats 200$/) === 0) return
      revoked = true
      cf.revokeAccessTokens()
    })
    const ended = new Promise<RunEndedEvent>((resolve) => {
      const off = host.runs.onEnded((e) => {
        if (e.runId !== runId) return
        off()
        resolve(e)
      })
    })
    try {
      runId = (
        await host.runs.start({
          version: 1,
          name: 'token revoked',
          targets: [
            {
              name: 'api',
              url: `${target.url}/x`,
              monitor: {
                kind: 'cloudfoundry',
                api: cf.url,
                app: 'live',
                auth: { grant: 'token', tokenEnv: 'CANNONADE_TEST_CF_LIVE_TOKEN' },
              },
            },
          ],
          // Long enough never to end first; stopped once the warning came.
          load: { connections: 1, duration: 60 },
          cooldownSeconds: 0,
        })
      ).runId
      await warned
      await host.runs.stop(runId)
      expect((await ended).status).toBe('aborted')
    } finally {
      offProgress()
      delete process.env.CANNONADE_TEST_CF_LIVE_TOKEN
    }
    const run = await host.runs.get(runId)
    expect(run.warnings).toEqual(told.map((e) => e.warning))
    const w = run.warnings[0]!
    expect(w).toMatchObject({ source: 'cloudfoundry', field: 'targets.0.monitor', stopped: false, count: 1 })
    expect(w.message).toMatch(/refused the pasted token/)
    // After the first request: into the run, not "from the start".
    expect(w.t).toBeGreaterThan(0)
    expect(warningLine(w)).toMatch(
      / failed from [\d.]+ s into the run: .* It kept trying; its charts may have gaps\.$/,
    )
  })
})

// Every template in resources/templates/ is listed with its description, says which figure or table
// of which study it reproduces (in words a reader of this repository has: no outside documents),
// parses, and runs shortened: against the demo target always, and against its own stacks under
// Docker, through the engine as the app and the CLI run it (so a stack a template names is started
// when it is not running, a swept one restarted and put back). One set of stacks serves every
// template, each on a free port.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunSummary } from '../api/types.ts'
import { parseRunConfig } from '../config/load.ts'
import type { RunConfig } from '../config/schema.ts'
import { changesStack, type StackSetting } from '../config/sweep.ts'
import { ranWell, shortenTemplate as shorten } from '../testing/templates.ts'
import { startDemoServer, type DemoServer } from '../demo/server.ts'
import { createEngine, type EngineHost } from '../host/index.ts'
import { MIN_ROUNDS } from '../metrics/compare.ts'
import { freePort } from '../stacks/postgres.ts'
import { loadManifest } from '../stacks/native.ts'
import { openDb } from '../store/db.ts'
import { dockerGate } from '../testing/docker.ts'
import { runConfig, tempDbPath } from '../testing/run.ts'
import { runStudy } from './sweep.ts'
import { listTemplates } from './templates.ts'

const templates = listTemplates()

describe('templates', () => {
  it('one per experiment of each study, each naming its figure or table in its own words', () => {
    const prefixes = ['thesis-', 'phases-', 'nodescala-', 'soa-', 'marketplace']
    expect(templates.length).toBeGreaterThanOrEqual(20)
    for (const prefix of prefixes)
      expect(
        templates.some((t) => t.id.startsWith(prefix)),
        prefix,
      ).toBe(true)
    for (const t of templates) {
      expect(t.description.length, t.id).toBeGreaterThan(200)
      expect(t.description, t.id).toMatch(
        /^The (Java vs Node\.js thesis|phased-client assignment|Node\.js multiprocessing paper|Tomcat vs WebLogic SOA thesis|marketplace performance report)/,
      )
      expect(t.description, t.id).toMatch(
        /\b(figures?|tables?|tests?|load test|spawn rates|connection pooling|authentication|configuration)\b/,
      )
      // How to make it as long as the study's, and nothing a reader of the repository cannot open.
      expect(t.description, t.id).toMatch(/As long as the /)
      expect(t.description, t.id).not.toMatch(/seed|\.\.\/|shared\/|start both stacks|stacks up/i)
      // A template names the stacks it runs on: the engine starts them.
      for (const target of t.config.targets) expect(target.stack, `${t.id}: ${target.name}`).toBeDefined()
    }
  })

  it('runs enough rounds for a comparison with an interval, interleaved when it has several targets', () => {
    for (const t of templates) {
      expect(t.config.rounds, t.id).toBeGreaterThanOrEqual(MIN_ROUNDS)
      if (t.config.targets.length > 1) expect(t.config.schedule, t.id).toBe('interleaved')
      // Targets that are values of one series say so together.
      const marked = t.config.targets.filter((x) => x.series !== undefined)
      if (marked.length) expect(new Set(marked.map((x) => x.series!.name)).size, t.id).toBe(1)
    }
  })
})

describe('templates, shortened, against the demo target', () => {
  let demo: DemoServer
  beforeAll(async () => {
    demo = await startDemoServer()
  })
  afterAll(async () => {
    await demo.close()
  })

  for (const t of templates) {
    it(`${t.id}`, async () => {
      const onDemo = (u: string) => {
        const url = new URL(u)
        return demo.url + url.pathname + url.search
      }
      // No stack to start here: the stacks are recorded, not started (the Docker tests start them).
      const config = parseRunConfig(shorten(t.config, onDemo, { stack: true, monitors: false }))
      if (config.sweep) {
        const dbPath = tempDbPath()
        const applied: StackSetting[] = []
        const { runs } = await runStudy(openDb(dbPath), dbPath, config, {
          stacks: {
            snapshot: async (name) => ({
              name,
              running: false,
              native: false,
              env: {},
              replicas: 1,
              port: 0,
            }),
            apply: async (s) => void applied.push(s),
            restore: async () => {},
          },
        })
        const size = config.sweep.values.length * (config.sweep.by?.values.length ?? 1)
        expect(runs.length, t.id).toBe(size)
        ranWell(
          config,
          runs.map((r) => r.summary),
          t.id,
        )
        if (changesStack(config.sweep.path)) expect(applied.length, t.id).toBeGreaterThan(0)
        return
      }
      const { summary } = await runConfig(config)
      ranWell(config, [summary], t.id)
    })
  }
})

const gate = dockerGate('the templates against their stacks')

describe.skipIf(gate.skip)('templates, shortened, against their stacks (Docker)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cannonade-templates-'))
  const ports: Record<string, number> = {}
  const byPort = new Map<number, string>()
  let host: EngineHost
  const stackLog: string[] = []

  beforeAll(async () => {
    if (gate.reason) throw new Error(`CANNONADE_REQUIRE_DOCKER=1 but Docker is unavailable: ${gate.reason}`)
    for (const s of loadManifest().stacks) {
      ports[s.name] = await freePort()
      byPort.set(s.port, s.name)
    }
    host = await createEngine({ dbPath: join(dir, 'cannonade.db'), stackPorts: ports })
    host.stacks.onLog((e) => stackLog.push(`${e.stack}: ${e.line}`))
    // The stacks the first template does not name are up before it; it starts its own.
    for (const name of ['node-cluster', 'java-tomcat']) await host.stacks.up(name)
  }, 900_000)
  afterAll(async () => {
    for (const s of loadManifest().stacks) await host.stacks.down(s.name, { volumes: true }).catch(() => {})
    await host.close()
    rmSync(dir, { recursive: true, force: true })
  }, 300_000)

  /** A template's URL on the port its stack runs on here. */
  const onStacks = (u: string) => {
    const url = new URL(u)
    const stack = byPort.get(Number(url.port))
    if (stack) url.port = String(ports[stack])
    return url.toString()
  }

  /** Start a config through the engine, as the app and the CLI do, and wait for its runs. */
  async function start(config: RunConfig): Promise<RunSummary[]> {
    const runIds: number[] = []
    const ended = new Set<number>()
    let studyOver = false
    let wake: () => void = () => {}
    const changed = () => wake()
    const offs = [
      host.local.onStudy((e) => {
        if (e.type === 'run') runIds.push(e.runId)
        if (e.type === 'study-ended') studyOver = true
        changed()
      }),
      host.runs.onEnded((e) => {
        ended.add(e.runId)
        changed()
      }),
    ]
    try {
      const started = await host.runs.start(config)
      if (!config.sweep) runIds.push(started.runId)
      const finished = () => (config.sweep ? studyOver : ended.has(started.runId))
      while (!finished()) await new Promise<void>((r) => (wake = r))
    } finally {
      for (const off of offs) off()
    }
    return Promise.all(runIds.map((id) => host.runs.get(id)))
  }

  // The Java vs Node.js template first (its stacks are down: it starts them), then the others by
  // the stack settings they ask for, so that a stack is restarted only when the next one differs.
  const settings = (t: (typeof templates)[number]) =>
    JSON.stringify(t.config.targets.map((x) => [x.stack?.name, x.stack?.env]))
  const ordered = [
    ...templates.filter((t) => t.id === 'thesis-java-vs-node'),
    ...templates
      .filter((t) => t.id !== 'thesis-java-vs-node')
      .sort((a, b) => settings(a).localeCompare(settings(b)) || a.id.localeCompare(b.id)),
  ]
  for (const t of ordered) {
    it(`${t.id}`, async () => {
      const config = parseRunConfig(
        shorten(t.config, onStacks, { stack: true, monitors: true, restartWarmup: 5 }),
      )
      const names = [...new Set(config.targets.map((x) => x.stack!.name))]
      const before = await host.stacks.status()
      const runs = await start(config)
      ranWell(config, runs, t.id)
      // What each run measured, for the guide's comparison with the studies' own figures.
      const ms = (us: number) => (us / 1000).toFixed(1)
      for (const run of runs)
        console.log(
          `${t.id} ${run.name}: ${run.results
            .map(
              (r) =>
                `${r.target} ${r.throughput.toFixed(0)} req/s p50 ${ms(r.latency.p50)} ms p99 ${ms(r.latency.p99)} ms`,
            )
            .join('; ')}`,
        )
      const after = await host.stacks.status()
      const swept =
        config.sweep && [config.sweep.path, config.sweep.by?.path].some((p) => p && changesStack(p))
      for (const n of names) {
        const was = before.find((s) => s.name === n)!
        const now = after.find((s) => s.name === n)!
        if (!swept) {
          // A stack the template names runs now, started if it was not (and said so).
          expect(now.state, `${t.id}: ${n}`).toBe('healthy')
          if (was.state === 'down')
            expect(
              stackLog.some((l) => l.startsWith(`${n}: not running: starting it for this run`)),
              n,
            ).toBe(true)
        } else {
          // A study leaves each stack it restarted as it found it: running or not, same limits.
          expect(now.state === 'down', `${t.id}: ${n}`).toBe(was.state === 'down')
          expect(now.limits, `${t.id}: ${n}`).toEqual(was.limits)
        }
      }
    }, 300_000)
  }
})

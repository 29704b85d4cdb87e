// Every template runs shortened against its own stacks under Docker, through the engine as the app
// and the CLI run it (so a stack a template names is started when it is not running). The stacks
// are started once per stack configuration, not once per template: the templates are grouped by
// the stacks they run on and what those serve (HTTP/2, TLS: the HTTP/2 comparisons need them on),
// each group's stacks come up once (as they start by default, but for that), and every template of
// the group runs on them. What a template's stack settings and stack sweeps do (restart
// a stack for a value, put it back) is the study's business, tested under Docker by
// engine/stacks/stacks.docker.test.ts (a POOL_SIZE sweep) and engine/study/scaling.docker.test.ts
// (replicas and agents), and without Docker by engine/study/run-study.slow.test.ts; the settings themselves
// are the stacks' contract (targets/contract.docker.test.ts). One set of stacks serves every
// group, each on a free port.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunSummary } from '../api/types.ts'
import { parseRunConfig } from '../config/load.ts'
import type { RunConfig } from '../config/schema.ts'
import { changesStack } from '../config/sweep.ts'
import { createEngine, type EngineHost } from '../host/index.ts'
import { freePort } from '../stacks/postgres.ts'
import { loadManifest } from '../stacks/manifest.ts'
import { dockerGate } from '../testing/docker.ts'
import { ranWell, shortenTemplate } from '../testing/templates.ts'
import { listTemplates, type Template } from './templates.ts'

/** What a stack serves (HTTP2, TLS): kept, as its targets' protocols need it. */
const PROTOCOL_ENV = ['HTTP2', 'TLS']
const protocolEnv = (env: Record<string, string | number>) =>
  Object.fromEntries(Object.entries(env).filter(([k]) => PROTOCOL_ENV.includes(k)))

/**
 * A template on the stacks as they start by default: its targets keep their stack's name and what
 * it serves (HTTP2, TLS), without its other settings (env, replicas), and a sweep keeps only the
 * axes that do not restart a stack.
 */
function onDefaultStacks(config: RunConfig): RunConfig {
  const targets = config.targets.map((t) =>
    t.stack ? { ...t, stack: { ...t.stack, env: protocolEnv(t.stack.env), replicas: 1 } } : t,
  )
  const s = config.sweep
  const axes = s
    ? [{ path: s.path, values: s.values }, ...(s.by ? [s.by] : [])].filter((a) => !changesStack(a.path))
    : []
  const { sweep: _, ...rest } = config
  const [first, by] = axes
  return {
    ...rest,
    targets,
    ...(s && first ? { sweep: { ...s, path: first.path, values: first.values, by } } : {}),
  }
}

/** The stacks a template runs on, as one key: the names of its targets' stacks, and what they serve. */
const stacksOf = (t: Template) => {
  const names = [...new Set(t.config.targets.map((x) => x.stack!.name))].sort().join(' + ')
  const served = Object.entries(protocolEnv(t.config.targets[0]!.stack!.env))
  return served.length === 0 ? names : `${names} (${served.map(([k, v]) => `${k}=${v}`).join(', ')})`
}
/** The stack names of a group's key. */
const namesOf = (key: string) => key.replace(/ \(.*\)$/, '').split(' + ')

/** Templates grouped by the stacks they run on, in the order that starts each stack once. */
function byStackConfiguration(templates: readonly Template[]): [string, Template[]][] {
  const groups = new Map<string, Template[]>()
  for (const t of templates) groups.set(stacksOf(t), [...(groups.get(stacksOf(t)) ?? []), t])
  return [...groups.entries()].sort(([a], [b]) => a.localeCompare(b))
}

const templates = listTemplates()
const gate = dockerGate('the templates against their stacks')

describe.skipIf(gate.skip)(
  'templates, shortened, against their stacks (Docker), once per stack configuration',
  () => {
    const dir = mkdtempSync(join(tmpdir(), 'cannonade-templates-'))
    const ports: Record<string, number> = {}
    const byPort = new Map<number, string>()
    /** A stack's TLS port (stacks.json) → the free port its https:// targets use here. */
    const tlsPorts = new Map<number, number>()
    let host: EngineHost
    const stackLog: string[] = []

    beforeAll(async () => {
      if (gate.reason) throw new Error(`CANNONADE_REQUIRE_DOCKER=1 but Docker is unavailable: ${gate.reason}`)
      // Each port its own: a port the system hands out twice would make two stacks collide.
      const taken = new Set<number>()
      const unique = async (): Promise<number> => {
        for (;;) {
          const p = await freePort()
          if (taken.has(p)) continue
          taken.add(p)
          return p
        }
      }
      for (const s of loadManifest().stacks) {
        ports[s.name] = await unique()
        byPort.set(s.port, s.name)
        if (s.tlsPort !== undefined) tlsPorts.set(s.tlsPort, await unique())
      }
      host = await createEngine({ dbPath: join(dir, 'cannonade.db'), stackPorts: ports })
      host.stacks.onLog((e) => stackLog.push(`${e.stack}: ${e.line}`))
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
      const tls = tlsPorts.get(Number(url.port))
      if (url.protocol === 'https:' && tls) url.port = String(tls)
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

    const groups = byStackConfiguration(templates)

    it('groups every template under the stacks it runs on', () => {
      expect(groups.flatMap(([, g]) => g.map((t) => t.id)).sort()).toEqual(templates.map((t) => t.id).sort())
      expect(groups.length).toBeLessThan(templates.length)
      for (const [names, group] of groups) for (const t of group) expect(stacksOf(t), t.id).toBe(names)
    })

    for (const [names, group] of groups) {
      it(`${names}: ${group.map((t) => t.id).join(', ')}`, async () => {
        const logFrom = stackLog.length
        const ms = (us: number) => (us / 1000).toFixed(1)
        for (const t of group) {
          const config = parseRunConfig(
            onDefaultStacks(
              parseRunConfig(
                shortenTemplate(t.config, onStacks, { stack: true, monitors: true, restartWarmup: 5 }),
              ),
            ),
          )
          const runs = await start(config)
          ranWell(config, runs, t.id)
          // What each run measured, for the guide's comparison with the studies' own figures.
          for (const run of runs)
            console.log(
              `${t.id} ${run.name}: ${run.results
                .map(
                  (r) =>
                    `${r.target} ${r.throughput.toFixed(0)} req/s p50 ${ms(r.latency.p50)} ms p99 ${ms(r.latency.p99)} ms`,
                )
                .join('; ')}`,
            )
        }
        const status = await host.stacks.status()
        for (const n of namesOf(names)) {
          // The group's stacks run, each started once for the whole file, and restarted only for
          // another stack configuration (what it serves: HTTP2, TLS), once per group at most.
          expect(status.find((s) => s.name === n)?.state, n).toBe('healthy')
          expect(
            stackLog.filter((l) => l.startsWith(`${n}: not running: starting it for this run`)),
            n,
          ).toHaveLength(1)
          expect(
            stackLog
              .slice(logFrom)
              .filter((l) => /^[^:]+: (not running: starting|running with)/.test(l) && l.startsWith(`${n}:`))
              .length,
            n,
          ).toBeLessThanOrEqual(1)
          for (const l of stackLog.filter((x) => x.startsWith(`${n}: running with`)))
            expect(l, n).toMatch(/restarting it with (HTTP2|TLS)=/)
        }
      }, 600_000)
    }
  },
)

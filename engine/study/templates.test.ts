// Every template in resources/templates/ is listed with its description, parses, and runs
// (shortened) against the demo target.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunConfig } from '../config/schema.ts'
import { parseRunConfig } from '../config/load.ts'
import { startDemoServer, type DemoServer } from '../demo/server.ts'
import { openDb } from '../store/db.ts'
import { runConfig, tempDbPath } from '../testing/run.ts'
import { runStudy, type SweepStep } from './sweep.ts'
import { listTemplates } from './templates.ts'
import { MIN_ROUNDS } from '../metrics/compare.ts'

let demo: DemoServer
beforeAll(async () => {
  demo = await startDemoServer()
})
afterAll(async () => {
  await demo.close()
})

/** The same study, seconds instead of minutes, against the demo target, without stack monitors. */
function shorten(c: RunConfig, base: string): unknown {
  const p = c.load.profile
  const profile =
    p.kind === 'phases'
      ? { ...p, phases: p.phases.map((ph) => ({ ...ph, duration: 0.5 })) }
      : p.kind === 'stages'
        ? { ...p, stages: p.stages.map((s) => ({ ...s, duration: 0.5 })) }
        : p.kind === 'ramp'
          ? {
              ...p,
              ...(p.rampSeconds ? { rampSeconds: 1 } : {}),
              ...(p.stepSeconds ? { stepSeconds: 0.5, pauseSeconds: 0.25 } : {}),
              holdSeconds: 0.5,
            }
          : p.kind === 'burst'
            ? { ...p, burstSeconds: 0.5, idleSeconds: 0.25 }
            : p
  const { duration: _d, requests: _r, ...load } = c.load
  const ownWindow = p.kind === 'phases' || p.kind === 'stages'
  return {
    ...c,
    targets: c.targets.map(({ monitor: _m, ...t }) => ({
      ...t,
      url: base + new URL(t.url).pathname + new URL(t.url).search,
    })),
    load: {
      ...load,
      connections: Math.min(load.connections, 8),
      profile:
        p.kind === 'ramp'
          ? { ...profile, to: Math.min(p.to ?? 8, 8), from: Math.min(p.from ?? 1, 8) }
          : p.kind === 'burst'
            ? { ...profile, connections: Math.min(p.connections ?? 8, 8) }
            : profile,
      ...(ownWindow ? {} : { duration: 1 }),
    },
    rounds: Math.min(c.rounds, 2),
    cooldownSeconds: 0,
    // Every run of load agents starts its agent processes: two values show the sweep as well as five.
    ...(c.sweep && c.agents ? { sweep: { ...c.sweep, values: c.sweep.values.slice(0, 2) } } : {}),
  }
}

describe('templates', () => {
  const templates = listTemplates()
  it('lists every template with a description', () => {
    expect(templates.map((t) => t.id).sort()).toEqual(
      [
        'java-vs-node',
        'marketplace',
        'phased-client',
        'pool-sizing',
        'soa-big-bang',
        'soa-burst',
        'soa-payload',
        'soa-stepped-ramp',
        'task-size',
        'thesis-scaling-java',
        'thesis-scaling-node',
      ].sort(),
    )
    for (const t of templates) expect(t.description.length, t.id).toBeGreaterThan(40)
  })

  it('runs enough rounds for a comparison with an interval; targets that are sizes of one thing say so', () => {
    for (const t of templates) {
      expect(t.config.rounds, t.id).toBeGreaterThanOrEqual(MIN_ROUNDS)
      if (t.config.targets.length > 1) expect(t.config.schedule, t.id).toBe('interleaved')
    }
    for (const id of ['task-size', 'soa-payload']) {
      const targets = templates.find((t) => t.id === id)!.config.targets
      expect(new Set(targets.map((t) => t.series?.name)).size, id).toBe(1)
      expect(
        targets.every((t) => t.series !== undefined),
        id,
      ).toBe(true)
    }
  })

  for (const t of templates) {
    it(`${t.id} runs shortened against the demo target`, async () => {
      const config = parseRunConfig(shorten(t.config, demo.url))
      if (config.sweep) {
        const dbPath = tempDbPath()
        const restarts: SweepStep['stack'][] = []
        const { runs } = await runStudy(openDb(dbPath), dbPath, config, {
          restartStack: async (s) => void restarts.push(s),
        })
        expect(runs.map((r) => r.value)).toEqual(config.sweep.values)
        for (const r of runs) expect(r.summary.status).toBe('done')
        if (config.sweep.path.includes('.stack.env.'))
          expect(restarts.map((s) => s!.env.POOL_SIZE)).toEqual(config.sweep.values)
        return
      }
      const { summary } = await runConfig(config)
      expect(summary.status).toBe('done')
      for (const r of summary.results) {
        expect(r.ok, `${r.target}#${r.round}`).toBeGreaterThan(0)
        const errors = Object.entries(r.errors).filter(([k]) => k !== 'inflight')
        expect(errors, `${r.target}#${r.round}`).toEqual([])
      }
      if (config.load.profile.kind === 'phases') {
        expect(summary.results[0]!.phases.map((p) => p.phase)).toEqual(['warmup', 'load', 'peak', 'cooldown'])
        for (const ph of summary.results[0]!.phases)
          expect(ph.latency.p99).toBeGreaterThanOrEqual(ph.latency.p95)
      }
      if (config.targets[0]!.steps)
        expect(summary.results[0]!.steps!.map((s) => s.step)).toEqual([
          'register',
          'login',
          'list ads',
          'create ad',
        ])
    })
  }
})

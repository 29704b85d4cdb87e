// The agents' shares of a load sum exactly to the profile at every second of every profile kind
// (issue 13, "Exact merge"), and request counts split exactly too.
import { describe, expect, it } from 'vitest'
import { compilePlan, connectionsAt, previewSchedule, type Plan } from './compile.ts'
import { parseRunConfig } from './load.ts'
import type { Load } from './schema.ts'
import { shareOf, splitPlan, splitProblem } from './split.ts'
import { expandSweep } from '../study/run-study.ts'

function load(l: Record<string, unknown>): Load {
  return parseRunConfig({
    version: 1,
    name: 'split',
    targets: [{ name: 't', url: 'http://127.0.0.1:1/' }],
    load: l,
  }).load
}

const PROFILES: [string, Load][] = [
  ['constant', load({ connections: 37, duration: 5 })],
  [
    'linear ramp',
    load({
      connections: 50,
      duration: 12,
      profile: { kind: 'ramp', from: 1, to: 50, rampSeconds: 7.5, holdSeconds: 3 },
    }),
  ],
  [
    'stepped ramp with pauses',
    load({
      connections: 23,
      duration: 20,
      profile: { kind: 'ramp', from: 2, to: 23, stepSize: 5, stepSeconds: 1.5, pauseSeconds: 0.5 },
    }),
  ],
  [
    'burst',
    load({
      connections: 64,
      duration: 11,
      profile: { kind: 'burst', burstSeconds: 1.5, idleSeconds: 2, connections: 41 },
    }),
  ],
  [
    'phases',
    load({
      connections: 40,
      profile: {
        kind: 'phases',
        phases: [
          { name: 'warmup', share: 0.1, duration: 2 },
          { name: 'load', share: 0.5, duration: 3.5 },
          { name: 'peak', share: 1, duration: 2 },
          { name: 'cooldown', share: 0.25, duration: 1 },
        ],
      },
    }),
  ],
  [
    'stages',
    load({
      connections: 30,
      profile: {
        kind: 'stages',
        stages: [
          { duration: 3, connections: 30 },
          { duration: 2.5, connections: 5 },
          { duration: 4, connections: 17 },
        ],
      },
    }),
  ],
]

const COUNTS = [1, 2, 3, 4, 7, 16]

function agents(l: Load, n: number): Plan[] {
  const plan = compilePlan(l)
  return Array.from({ length: n }, (_, index) => splitPlan(plan, l, { index, count: n }))
}

describe('splitting a load over agents', () => {
  it('gives shares of n that sum to n, larger first, for every n and count', () => {
    for (let count = 1; count <= 12; count++) {
      for (let n = 0; n <= 100; n++) {
        const shares = Array.from({ length: count }, (_, i) => shareOf(n, i, count))
        expect(shares.reduce((a, b) => a + b, 0)).toBe(n)
        expect(Math.max(...shares) - Math.min(...shares)).toBeLessThanOrEqual(1)
        expect(shares).toEqual([...shares].sort((a, b) => b - a))
      }
    }
  })

  describe.each(PROFILES)('%s', (_name, l) => {
    const plan = compilePlan(l)
    const seconds = plan.seconds!

    it.each(COUNTS)(
      'over %i agents: the connections sum to the profile at every moment and every second',
      (n) => {
        const shares = agents(l, n)
        for (const a of shares) {
          // Same steps at the same times: the agents change their counts together.
          expect(a.steps.map((s) => [s.seconds, s.phase])).toEqual(
            plan.steps.map((s) => [s.seconds, s.phase]),
          )
          expect(a.phases).toEqual(plan.phases)
          expect(a.seconds).toBe(plan.seconds)
        }
        for (let t = 0; t < seconds; t += 0.05) {
          const sum = shares.reduce((acc, a) => acc + connectionsAt(a, t), 0)
          expect(sum, `t = ${t.toFixed(2)} s`).toBe(connectionsAt(plan, t))
        }
        // Per whole second (what the series shows): the sum of each agent's busiest moment.
        const whole = previewSchedule(plan)
        const perAgent = shares.map((a) => previewSchedule(a))
        expect(whole.length).toBe(Math.ceil(seconds))
        whole.forEach((p, s) => {
          const sum = perAgent.reduce((acc, points) => acc + points[s]!.connections, 0)
          expect(sum, `second ${s}`).toBe(p.connections)
        })
      },
    )
  })

  it.each(COUNTS)(
    'splits request counts exactly over %i agents (a request-bound run and request-bound phases)',
    (n) => {
      const capped = load({ connections: 20, requests: 1003 })
      expect(agents(capped, n).reduce((a, p) => a + p.maxRequests!, 0)).toBe(1003)

      const phased = load({
        connections: 12,
        profile: {
          kind: 'phases',
          phases: [
            { name: 'warmup', share: 0.25, requests: 101 },
            { name: 'load', share: 1, requests: 999 },
          ],
        },
      })
      const plan = compilePlan(phased)
      const shares = agents(phased, n)
      for (const phase of [0, 1]) {
        const sum = shares.reduce(
          (a, p) => a + p.steps.filter((s) => s.phase === phase).reduce((x, s) => x + s.requests!, 0),
          0,
        )
        expect(sum).toBe(plan.steps[phase]!.requests)
      }
      // An agent is given requests only in steps where it has a connection to send them on.
      for (const p of shares) for (const s of p.steps) expect(s.connections).toBeGreaterThan(0)
    },
  )

  it('an agent with nothing to send gets an empty plan, which ends its segment at once', () => {
    const few = load({ connections: 2, requests: 1 })
    const [first, second, third] = agents(few, 3)
    expect(first!.maxRequests).toBe(1)
    expect(second!.maxRequests).toBe(0)
    expect(second!.steps).toEqual([])
    expect(third!.steps).toEqual([])
  })

  it('rate mode refuses a step with fewer connections than agents, saying why', () => {
    const ramp = load({
      connections: 8,
      duration: 5,
      rate: 100,
      profile: { kind: 'ramp', from: 1, to: 8, rampSeconds: 2 },
    })
    expect(splitProblem(ramp, 2)).toMatch(
      /rate mode over 2 agents needs at least 2 connections .*\(a step has 1\)/,
    )
    expect(() => splitPlan(compilePlan(ramp), ramp, { index: 0, count: 2 })).toThrow(/agents.count/)
    expect(splitProblem(load({ connections: 8, duration: 5, rate: 100 }), 8)).toBeNull()
    expect(splitProblem(ramp, 1)).toBeNull()
  })

  it('the agent count is a config number a sweep may vary, and a count the load cannot be split by is named', () => {
    const cfg = parseRunConfig({
      version: 1,
      name: 'agents sweep',
      targets: [{ name: 't', url: 'http://127.0.0.1:1/' }],
      load: { connections: 8, duration: 5 },
      agents: { count: 1 },
      sweep: { path: 'agents.count', values: [1, 2, 4] },
    })
    expect(expandSweep(cfg).map((s) => s.config.agents)).toEqual(
      [1, 2, 4].map((count) => ({
        count,
        on: 'local',
        raw: 'upload',
        barrierTimeoutSeconds: 60,
        lostAfterSeconds: 10,
      })),
    )
    expect(() =>
      expandSweep(
        parseRunConfig({
          ...cfg,
          load: { connections: 8, duration: 5, rate: 100 },
          sweep: { path: 'agents.count', values: [4, 16] },
        }),
      ),
    ).toThrow(/sweep.values.1/)
  })

  it('agents upload their raw ledgers by default, but external ones, which keep them and are waited for 600 s', () => {
    const agents = (a: Record<string, unknown>) =>
      parseRunConfig({
        version: 1,
        name: 'defaults',
        targets: [{ name: 't', url: 'http://127.0.0.1:1/' }],
        load: { connections: 8, duration: 5 },
        agents: { count: 2, ...a },
      }).agents
    for (const on of ['local', 'docker', 'swarm', 'kubernetes'])
      expect(agents({ on }), on).toMatchObject({ raw: 'upload', barrierTimeoutSeconds: 60 })
    expect(agents({ on: 'external' })).toMatchObject({ raw: 'keep', barrierTimeoutSeconds: 600 })
    // What a config says wins.
    expect(agents({ on: 'external', raw: 'upload', barrierTimeoutSeconds: 30 })).toMatchObject({
      raw: 'upload',
      barrierTimeoutSeconds: 30,
    })
    expect(agents({ raw: 'keep' })).toMatchObject({ on: 'local', raw: 'keep' })
    expect(() => agents({ on: 'elsewhere' })).toThrow(/agents.on/)
  })
})

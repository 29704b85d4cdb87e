// Load profiles: seen from the server, the requests in flight in each second follow
// the compiled schedule within ±1, for ramp, burst, phases and stages profiles.
import { afterEach, describe, expect, it } from 'vitest'
import { compilePlan, connectionsAt } from '../config/compile.ts'
import { parseRunConfig } from '../config/load.ts'
import { inFlightPerSecond, startTarget, type CountingTarget } from '../testing/target.ts'
import { runConfig } from '../testing/run-config.ts'

let target: CountingTarget | null = null
afterEach(async () => {
  await target?.close()
  target = null
})

const profiles: [string, Record<string, unknown>][] = [
  ['ramp', { connections: 8, duration: 5, profile: { kind: 'ramp', from: 1, to: 8, rampSeconds: 4 } }],
  [
    'stepped ramp with pauses',
    {
      connections: 6,
      duration: 5,
      profile: { kind: 'ramp', from: 2, to: 6, stepSize: 2, stepSeconds: 1, pauseSeconds: 1 },
    },
  ],
  ['burst', { connections: 6, duration: 5, profile: { kind: 'burst', burstSeconds: 1, idleSeconds: 1 } }],
  [
    'phases',
    {
      connections: 8,
      profile: {
        kind: 'phases',
        phases: [
          { name: 'warmup', share: 0.25, duration: 1 },
          { name: 'load', share: 0.5, duration: 2 },
          { name: 'peak', share: 1, duration: 1 },
          { name: 'cooldown', share: 0.25, duration: 1 },
        ],
      },
    },
  ],
  [
    'stages',
    {
      connections: 8,
      profile: {
        kind: 'stages',
        stages: [
          { duration: 2, connections: 8 },
          { duration: 1, connections: 8 },
          { duration: 2, connections: 2 },
        ],
      },
    },
  ],
]

describe('load shape seen from the server', () => {
  for (const [name, load] of profiles) {
    it(`follows the ${name} schedule within ±1 in every second`, async () => {
      target = await startTarget({ delayMs: 20, sampleEveryMs: 10 })
      const raw = {
        version: 1,
        name,
        targets: [{ name: 't', url: `${target.url}/x` }],
        load,
        cooldownSeconds: 0,
      }
      const plan = compilePlan(parseRunConfig(raw).load)
      const { summary, t0Epoch, progress } = await runConfig(raw)
      expect(summary.status).toBe('done')
      const seen = inFlightPerSecond(target.samples, t0Epoch)
      const seconds = Math.ceil(plan.seconds ?? 0)
      let compared = 0
      for (let s = 0; s < seconds; s++) {
        // The schedule's count in the middle of second s (steps may change mid-second only for fractional steps).
        const expected = connectionsAt(plan, s + 0.5)
        const observed = seen.get(s)
        expect(observed, `second ${s}: no samples`).toBeDefined()
        expect(
          Math.abs(observed! - expected),
          `second ${s}: expected ${expected}, server saw ${observed}`,
        ).toBeLessThanOrEqual(1)
        compared++
      }
      expect(compared).toBe(seconds)
      // The live series reports the same connection counts the schedule asked for.
      for (const e of progress.filter((p) => p.point.t < seconds)) {
        expect(e.point.connections).toBeGreaterThanOrEqual(connectionsAt(plan, e.point.t + 0.5))
      }
      if (name === 'phases') {
        expect(summary.results[0]!.phases.map((p) => p.phase)).toEqual(['warmup', 'load', 'peak', 'cooldown'])
        const peak = summary.results[0]!.phases.find((p) => p.phase === 'peak')!
        expect(peak.seconds).toBeCloseTo(1, 0)
        expect(peak.requests).toBeGreaterThan(0)
      }
    })
  }
})

// The open-loop schedule as one timeline (issue 11 item 11): exactly rate × active seconds slots,
// continuous across steps, none in idle steps, a request-bound step holds exactly its count.
import { describe, expect, it } from 'vitest'
import { compilePlan } from '../config/compile.ts'
import { parseRunConfig } from '../config/load.ts'
import { Pacer } from './pacer.ts'
import { splitPlan } from '../config/split.ts'

function planOf(load: Record<string, unknown>) {
  const config = parseRunConfig({
    version: 1,
    name: 'pacer',
    targets: [{ name: 't', url: 'http://127.0.0.1:1/' }],
    load,
  })
  return compilePlan(config.load)
}

/** Every slot's time (ms) and phase, in order. */
function drain(p: Pacer): { at: number[]; phase: number[] } {
  const at: number[] = []
  const phase: number[] = []
  while (p.next < p.total) {
    at.push(p.at())
    phase.push(p.phase())
    p.advance()
  }
  return { at, phase }
}

describe('open-loop schedule', () => {
  it('a ramp of 1 s steps keeps one grid: 500 req/s × 10 s is 5 000 slots, 2 ms apart', () => {
    const plan = planOf({
      connections: 50,
      duration: 10,
      rate: 500,
      profile: { kind: 'ramp', from: 30, to: 50, rampSeconds: 10 },
    })
    expect(plan.steps.length).toBeGreaterThan(5) // one step per second of the ramp
    const p = new Pacer(plan.steps, 500, null)
    expect(p.total).toBe(5000)
    const { at } = drain(p)
    expect(at.length).toBe(5000)
    at.forEach((t, k) => expect(t).toBeCloseTo(k * 2, 6))
    expect(p.dueBy(10_000)).toBe(5000)
    expect(p.dueBy(1_000)).toBe(500)
    expect(p.dueBy(1_000.5)).toBe(501)
  })

  it('fractional steps and rates: the slots of a step are those whose time falls in it', () => {
    // 3 req/s over steps of 0.5 s: slots at 0, 333.3, 666.7 ms … 10 s → 30 slots.
    const plan = planOf({
      connections: 4,
      duration: 10,
      rate: 3,
      profile: { kind: 'ramp', from: 1, to: 4, stepSize: 1, stepSeconds: 0.5 },
    })
    expect(plan.steps.slice(0, 3).map((s) => s.seconds)).toEqual([0.5, 0.5, 0.5])
    const p = new Pacer(plan.steps, 3, null)
    expect(p.total).toBe(30)
    const { at } = drain(p)
    at.forEach((t, k) => expect(t).toBeCloseTo((k * 1000) / 3, 6))
  })

  it('idle steps (a burst off, a pause) hold no slots; the schedule resumes after them', () => {
    const plan = planOf({
      connections: 4,
      duration: 4,
      rate: 10,
      profile: { kind: 'burst', burstSeconds: 1, idleSeconds: 1 },
    })
    const p = new Pacer(plan.steps, 10, null)
    expect(p.total).toBe(20) // two bursts of 1 s at 10 req/s
    const { at } = drain(p)
    // Two bursts of 1 s at 10 req/s: 0 … 900 ms, then 2 000 … 2 900 ms.
    const want = [0, 2000].flatMap((from) => Array.from({ length: 10 }, (_, k) => from + k * 100))
    at.forEach((t, k) => expect(t).toBeCloseTo(want[k]!, 6))
    expect(p.dueBy(1500)).toBe(10)
    expect(p.dueBy(2050)).toBe(11)
  })

  it('a request-bound phase holds exactly its count and keeps its phase', () => {
    const plan = planOf({
      connections: 4,
      rate: 100,
      profile: {
        kind: 'phases',
        phases: [
          { name: 'warmup', share: 0.5, duration: 0.255 },
          { name: 'count', share: 1, requests: 7 },
          { name: 'tail', share: 1, duration: 0.1 },
        ],
      },
    })
    const p = new Pacer(plan.steps, 100, null)
    const { at, phase } = drain(p)
    // warmup: slots at 0 … 250 ms (26); count: 7 slots; tail: 10 slots.
    expect(phase.filter((x) => x === 0).length).toBe(26)
    expect(phase.filter((x) => x === 1).length).toBe(7)
    expect(phase.filter((x) => x === 2).length).toBe(10)
    at.forEach((t, k) => expect(t).toBeCloseTo(k * 10, 6))
  })

  it('a request count caps the schedule', () => {
    const plan = planOf({ connections: 2, requests: 123, rate: 50 })
    const p = new Pacer(plan.steps, 50, plan.maxRequests)
    expect(p.total).toBe(123)
    expect(drain(p).at.at(-1)).toBeCloseTo(122 * 20, 6)
  })

  it('split over N load agents, the agents send the one schedule between them: each slot once, at its time', () => {
    const loads: Record<string, unknown>[] = [
      {
        connections: 50,
        duration: 10,
        rate: 500,
        profile: { kind: 'ramp', from: 30, to: 50, rampSeconds: 10 },
      },
      { connections: 12, requests: 1001, rate: 300 },
      {
        connections: 24,
        rate: 200,
        profile: {
          kind: 'phases',
          phases: [
            { name: 'warmup', share: 0.5, requests: 101 },
            { name: 'load', share: 1, duration: 2.5 },
          ],
        },
      },
      {
        connections: 9,
        duration: 7,
        rate: 77,
        profile: { kind: 'burst', burstSeconds: 1.5, idleSeconds: 2, connections: 9 },
      },
    ]
    for (const l of loads) {
      const config = parseRunConfig({
        version: 1,
        name: 'split',
        targets: [{ name: 't', url: 'http://127.0.0.1:1/' }],
        load: l,
      })
      const plan = compilePlan(config.load)
      const rate = config.load.rate!
      const whole = new Pacer(plan.steps, rate, plan.maxRequests)
      const end = (plan.seconds ?? 60) * 1000
      const { at: all, phase: phases } = drain(whole)
      for (const count of [2, 3]) {
        const got = new Map<number, { at: number; phase: number }>()
        let due = 0
        for (let index = 0; index < count; index++) {
          const share = splitPlan(plan, config.load, { index, count })
          const p = new Pacer(share.steps, rate, share.maxRequests, { index, count })
          due += p.ownDueBy(end)
          let k = index
          while (p.next < p.total) {
            expect(p.next).toBe(k)
            expect(got.has(k)).toBe(false)
            got.set(k, { at: p.at(), phase: p.phase() })
            p.advance()
            k += count
          }
        }
        expect(got.size).toBe(all.length)
        all.forEach((t, k) => {
          expect(got.get(k)!.at).toBeCloseTo(t, 6)
          expect(got.get(k)!.phase).toBe(phases[k])
        })
        expect(due).toBe(whole.dueBy(end))
      }
    }
  })
})

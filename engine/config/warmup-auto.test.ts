// load.warmup: auto as a config says it: its plan (a warm-up phase with no step of its own, found
// in each segment when it ends), what it may go with, and the configs `cannonade run` refuses
// with exit 2 naming the field.
import { describe, expect, it } from 'vitest'
import { refusedConfigs } from '../testing/cli.ts'
import { config } from './bad-input-configs.ts'
import { compilePlan } from './compile.ts'
import { parseRunConfig } from './load.ts'
import { hasWarmup, warmedUp, warmupText } from './sweep.ts'

const expectRefused = refusedConfigs()

describe('load.warmup: auto', () => {
  it('plans a warm-up phase without a step: its seconds are each segment’s own', () => {
    const c = parseRunConfig(config({}, { duration: 20, warmup: 'auto' }))
    const p = compilePlan(c.load)
    expect(p.phases).toEqual(['warmup', 'main'])
    expect(p.warmup).toEqual([true, false])
    expect(p.steps).toEqual([{ phase: 1, connections: 4, seconds: 20, requests: null }])
    expect(p.seconds).toBe(20)
    // In rate mode and request-bound runs as well.
    expect(
      compilePlan(parseRunConfig(config({}, { duration: 10, rate: 50, warmup: 'auto' })).load).steps,
    ).toEqual([{ phase: 1, connections: 4, seconds: 10, requests: null }])
    const counted = parseRunConfig(config({}, { duration: undefined, requests: 500, warmup: 'auto' }))
    expect(compilePlan(counted.load).maxRequests).toBe(500)
  })

  it('is a warm-up of its own: a restarted stack adds none, and says which', () => {
    const c = parseRunConfig(config({}, { duration: 20, warmup: 'auto' }))
    expect(hasWarmup(c)).toBe(true)
    expect(warmedUp(c, 10)).toBe(c)
    expect(warmupText('auto')).toMatch(/found in each segment/)
    expect(warmupText(10)).toBe('10 s of warm-up')
  })

  it.each([
    ['a word other than auto', config({}, { warmup: 'yes' }), 'load.warmup', /auto/],
    ['with warmupSeconds too', config({}, { warmup: 'auto', warmupSeconds: 5 }), 'load.warmup', /not both/],
    [
      'a ramp, whose load changes by design',
      config({}, { warmup: 'auto', profile: { kind: 'ramp', from: 1, to: 4, rampSeconds: 5 } }),
      'load.warmup',
      /constant profile/,
    ],
    [
      'a window too short to tell a level',
      config({}, { warmup: 'auto', duration: 9 }),
      'load.duration',
      /at least 10 s/,
    ],
    [
      'load agents, each seeing only its share',
      config({ agents: { count: 2 } }, { warmup: 'auto' }),
      'load.warmup',
      /load agents/,
    ],
  ])('refuses %s (exit 2, the field named)', async (_name, doc, field, message) => {
    await expectRefused(doc, field, message)
  })
})

// The wizard's fields for load.warmup: auto and a sweep's latency target (sweep.slo): into the
// config, back into the form ("run again", templates), and a bad value named by its field.
import { describe, expect, it } from 'vitest'
import { RunConfigV1Schema } from '#engine/config/schema.ts'
import { defaultDraft, toConfigInput, validate } from './draft.ts'
import { fromConfig } from './fromConfig.ts'

const withTarget = () => {
  const d = defaultDraft()
  d.targets[0]!.name = 'a'
  d.targets[0]!.url = 'http://127.0.0.1:9/'
  d.load.duration = 20
  return d
}

describe('wizard: warm-up found, latency target', () => {
  it('asks for load.warmup: auto with a constant profile, and drops warmupSeconds then', () => {
    const d = withTarget()
    d.load.warmupSeconds = 5
    d.load.warmupAuto = true
    const load = toConfigInput(d).load as Record<string, unknown>
    expect(load.warmup).toBe('auto')
    expect(load.warmupSeconds).toBeUndefined()
    expect(validate(d).config?.load.warmup).toBe('auto')
    // A ramp has no auto warm-up to ask for: the fixed one stays.
    d.load.profile.kind = 'ramp'
    const ramp = toConfigInput(d).load as Record<string, unknown>
    expect(ramp.warmup).toBeUndefined()
    expect(ramp.warmupSeconds).toBe(5)
  })

  it('puts a latency target on the sweep, and reads it back', () => {
    const d = withTarget()
    d.sweep.enabled = true
    d.sweep.sloMetric = 'p99.9'
    d.sweep.sloMs = '50'
    const config = validate(d).config!
    expect(config.sweep?.slo).toEqual({ 'p99.9': 50 })
    const back = fromConfig(RunConfigV1Schema.parse(config))
    expect([back.sweep.sloMetric, back.sweep.sloMs]).toEqual(['p99.9', '50'])
    expect(back.load.warmupAuto).toBe(false)
    d.sweep.sloMs = 'fast'
    expect(validate(d).issues.get('sweep.slo.p99.9')).toBeDefined()
  })
})

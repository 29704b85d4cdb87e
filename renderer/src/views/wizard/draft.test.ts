import { describe, expect, it } from 'vitest'
import { RunConfigV1Schema } from '#engine/config/schema.ts'
import { MIN_ROUNDS } from '#engine/metrics/compare-metric.ts'
import { pairInput } from '#engine/testing/config.ts'
import { chooseProtocol, defaultDraft, hasValue, stepOf, toConfigInput, validate } from './draft.ts'
import { fromConfig } from './fromConfig.ts'

describe('wizard draft', () => {
  it('defaults to enough rounds in a random order for a comparison with an interval', () => {
    const d = defaultDraft()
    expect(d.rounds).toBeGreaterThanOrEqual(MIN_ROUNDS)
    expect(d.roundsMode).toBe('fixed')
    expect(d.schedule).toBe('randomized')
  })

  it('keeps rounds until precise through the form, and draws a new order for a run again', () => {
    const config = RunConfigV1Schema.parse(
      pairInput('until precise', {
        rounds: { min: 4, max: 12, precision: 3, budgetMinutes: 10, skipDisturbed: true },
        scheduleSeed: 77,
      }),
    )
    const d = fromConfig(config)
    expect(d).toMatchObject({ roundsMode: 'precise', schedule: 'randomized' })
    const again = toConfigInput(d)
    expect(again.rounds).toEqual({ min: 4, max: 12, precision: 3, budgetMinutes: 10, skipDisturbed: true })
    expect('scheduleSeed' in again).toBe(false)
    // Back to a fixed number: exactly that many.
    d.roundsMode = 'fixed'
    d.rounds = 5
    expect(validate(d).config?.rounds).toBe(5)
    // A message about the rounds belongs to the Load step.
    expect(stepOf('rounds.max')).toBe('load')
  })

  it("keeps a template target's series through the form", () => {
    const config = RunConfigV1Schema.parse({
      version: 1,
      name: 'sizes',
      targets: [{ name: 'c-1k', url: 'http://127.0.0.1:1/c', series: { name: 'iterations', value: 1000 } }],
      load: { connections: 1, duration: 1 },
    })
    expect(toConfigInput(fromConfig(config)).targets[0]).toMatchObject({
      series: { name: 'iterations', value: 1000 },
    })
  })

  it("keeps a target's TLS session resumption through the form, and only for an https:// URL", () => {
    const config = RunConfigV1Schema.parse({
      version: 1,
      name: 'resume',
      targets: [
        { name: 'on', url: 'https://127.0.0.1:1/', tls: { resume: true } },
        { name: 'off', url: 'https://127.0.0.1:1/' },
      ],
      load: { connections: 1, duration: 1 },
    })
    const d = fromConfig(config)
    expect(d.targets.map((t) => t.tlsResume)).toEqual([true, false])
    const again = validate(d).config
    expect(again?.targets.map((t) => t.tls)).toEqual([{ resume: true }, undefined])
    // Changed to http://, the hidden box must not refuse the run.
    d.targets[0]!.url = 'http://127.0.0.1:1/'
    expect(validate(d).config?.targets[0]?.tls).toBeUndefined()
  })

  it("keeps a target's protocol and streams through the form, and names a mismatch at the protocol", () => {
    const config = RunConfigV1Schema.parse({
      version: 1,
      name: 'protocols',
      targets: [
        { name: 'h1', url: 'http://127.0.0.1:1/' },
        { name: 'h2c', url: 'http://127.0.0.1:1/', protocol: 'h2c', streams: 10 },
        { name: 'h2', url: 'https://127.0.0.1:1/', protocol: 'h2' },
      ],
      load: { connections: 1, duration: 1 },
    })
    const d = fromConfig(config)
    expect(d.targets.map((t) => [t.protocol, t.streams])).toEqual([
      ['http1', 1],
      ['h2c', 10],
      ['h2', 1],
    ])
    const input = toConfigInput(d)
    // The defaults stay out of the YAML, as a hand-written config leaves them out.
    expect(input.targets[0]).not.toHaveProperty('protocol')
    expect(input.targets[0]).not.toHaveProperty('streams')
    expect(input.targets[1]).toMatchObject({ protocol: 'h2c', streams: 10 })
    expect(input.targets[2]).toMatchObject({ protocol: 'h2' })
    expect(input.targets[2]).not.toHaveProperty('streams')
    expect(validate(d).config?.targets).toEqual(config.targets)
    // h2 over an http:// URL: the schema's message, at the protocol, on the Targets step.
    d.targets[1]!.protocol = 'h2'
    expect(validate(d).issues.get('targets.1.protocol')).toMatch(/needs an https:\/\/ URL/)
    expect(stepOf('targets.1.protocol')).toBe('targets')
    // Streams with HTTP/1.1: at the streams, which the form hides; choosing HTTP/1.1 sets them to one.
    d.targets[1]!.protocol = 'http1'
    expect(validate(d).issues.get('targets.1.streams')).toMatch(/streams are HTTP\/2's/)
    chooseProtocol(d.targets[1]!, 'h2c')
    expect(d.targets[1]!.streams).toBe(10)
    chooseProtocol(d.targets[1]!, 'http1')
    expect(d.targets[1]!.streams).toBe(1)
    expect(validate(d).list).toEqual([])
  })

  it('reports the schema messages by field, for the right step', () => {
    const d = defaultDraft()
    const v = validate(d)
    expect(v.config).toBeNull()
    expect(v.issues.get('targets.0.url')).toMatch(/not a valid URL/)
    expect(stepOf('targets.0.url')).toBe('targets')
    expect(stepOf('targets.0.monitor.port')).toBe('monitoring')
    expect(stepOf('load.profile.to')).toBe('load')
    expect(stepOf('name')).toBe('review')
  })

  it('builds a valid config the CLI would accept, with units converted', () => {
    const d = defaultDraft()
    d.targets[0] = { ...d.targets[0]!, name: 'node', url: 'http://127.0.0.1:8082/ads' }
    d.targets[0].monitor.kind = 'process'
    d.targets[0].monitor.process = { by: 'port', pid: undefined, port: 8082 }
    d.load.profile.kind = 'ramp'
    d.load.profile.ramp.to = 10
    d.thresholds = [{ metric: 'p99', target: '*', bound: 'max', value: 250 }]
    const v = validate(d)
    expect(v.list).toEqual([])
    expect(v.config?.thresholds[0]).toMatchObject({ metric: 'p99', max: 250_000 })
    expect(v.config?.targets[0]?.monitor).toEqual({ kind: 'process', port: 8082 })
    expect(RunConfigV1Schema.safeParse(toConfigInput(d)).success).toBe(true)
  })

  it('round-trips a config through the draft (run again, templates)', () => {
    const d = defaultDraft()
    d.targets[0] = {
      ...d.targets[0]!,
      url: 'http://127.0.0.1:1/x',
      headers: [{ name: 'accept', value: 'text/plain' }],
    }
    d.load.profile.kind = 'phases'
    d.thresholds = [{ metric: 'errorRate', target: '*', bound: 'max', value: 1 }]
    const config = validate(d).config
    expect(config).not.toBeNull()
    if (!config) return
    const again = validate(fromConfig(config)).config
    expect(again).toEqual(config)
  })

  it('treats empty fields as not yet filled in', () => {
    expect(hasValue({ a: { b: '' } }, 'a.b')).toBe(false)
    expect(hasValue({ a: [{ b: 0 }] }, 'a.0.b')).toBe(true)
  })
})

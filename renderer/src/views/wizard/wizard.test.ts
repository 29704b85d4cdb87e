// Templates, scenarios and sweeps in the wizard's draft: every bundled template survives the
// round trip through the form, and the new fields report the schema's messages by field.
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { RunConfigV1Schema } from '#engine/config/schema.ts'
import { defaultDraft, stepOf, toConfigInput, validate } from './draft.ts'
import { fromConfig } from './fromConfig.ts'
import { emptyStep } from './scenarioDraft.ts'
import { emptySweep, parseSweepValues } from './sweepDraft.ts'
import { describeProbe } from './target/UrlCheck.tsx'

declare global {
  interface ImportMeta {
    glob<T>(pattern: string, options: { query: string; import: string; eager: true }): Record<string, T>
  }
}

const templates = import.meta.glob<string>('../../../../resources/templates/*.yaml', {
  query: '?raw',
  import: 'default',
  eager: true,
})

function valid() {
  const d = defaultDraft()
  d.targets[0] = { ...d.targets[0]!, name: 'demo', url: 'http://127.0.0.1:8082/ads?limit=2' }
  return d
}

describe('wizard: templates, scenarios, sweeps', () => {
  it('fills the whole form from every template and gives the same config back', () => {
    const names = Object.keys(templates)
    expect(names.length).toBeGreaterThanOrEqual(6)
    for (const [file, text] of Object.entries(templates)) {
      const config = RunConfigV1Schema.parse(parse(text))
      const again = validate(fromConfig(config))
      expect(again.list, file).toEqual([])
      expect(again.config, file).toEqual(config)
    }
  })

  it('edits a scenario: steps, captures, and messages by field', () => {
    const d = valid()
    d.targets[0]!.steps = [
      {
        ...emptyStep('login', '/login'),
        method: 'POST',
        body: '{}',
        captures: [{ name: 'token', kind: 'json', expr: 'token' }],
      },
      { ...emptyStep('me', 'me'), headers: [{ name: 'authorization', value: 'Bearer ${token}' }] },
    ]
    expect(validate(d).issues.get('targets.0.steps.1.path')).toBe('must start with /')
    d.targets[0]!.steps[1]!.path = '/me'
    const ok = validate(d)
    expect(ok.list).toEqual([])
    expect(ok.config?.targets[0]?.steps?.[0]?.capture).toEqual({ token: { json: 'token' } })
    d.targets[0]!.steps[0]!.captures[0]!.name = '1bad'
    expect(validate(d).issues.get('targets.0.steps.0.capture.1bad')).toBe('must be a variable name')
    d.load.pipelining = 4
    d.targets[0]!.steps[0]!.captures = []
    expect(validate(d).issues.get('targets.0.steps')).toContain('pipelining 1')
  })

  it('validates a sweep: path, values, and what each value does to the config', () => {
    const d = valid()
    d.sweep = { ...emptySweep(), enabled: true, path: 'load.connections', values: '1, 2' }
    expect(validate(d).config?.sweep).toEqual({ path: 'load.connections', values: [1, 2] })
    expect(parseSweepValues('8, 16 32')).toEqual([8, 16, 32])
    expect(parseSweepValues('node-http, node-cluster')).toEqual(['node-http', 'node-cluster'])
    expect(parseSweepValues('true, false')).toEqual([true, false])
    expect(parseSweepValues('a, a+b', 'targets')).toEqual([['a'], ['a', 'b']])
    d.sweep.values = '1, x'
    expect(validate(d).issues.get('sweep.values.1')).toMatch(/is a string where the first value is a number/)
    d.sweep.values = '1, 0'
    expect(validate(d).issues.get('sweep.values.1')).toMatch(/0 makes load.connections invalid/)
    d.sweep = { ...d.sweep, path: 'load.nothing', values: '1' }
    expect(validate(d).issues.get('sweep.path')).toContain('is not a setting')
    d.sweep.path = 'targets.0.stack.env.POOL_SIZE'
    expect(validate(d).issues.get('sweep.path')).toContain('no stack')
    expect(stepOf('sweep.values.0')).toBe('load')
    // A grid of words and numbers, and its warm-up.
    d.targets[0]!.stack = { name: 'node-http', native: false, env: {}, replicas: 1 }
    d.sweep = {
      ...emptySweep(),
      enabled: true,
      path: 'targets.0.stack.name',
      values: 'node-http, node-cluster',
      byEnabled: true,
      byPath: 'load.connections',
      byValues: '1, 4',
      warmupSeconds: '5',
    }
    expect(validate(d).config?.sweep).toEqual({
      path: 'targets.0.stack.name',
      values: ['node-http', 'node-cluster'],
      by: { path: 'load.connections', values: [1, 4] },
      warmupSeconds: 5,
    })
    d.sweep.byValues = '1, 1'
    expect(validate(d).issues.get('sweep.by.values.1')).toBe('repeats value 1')
  })

  it('maps the load generators onto agents: this machine, a launcher with a count, other', () => {
    const d = valid()
    expect(validate(d).config?.agents).toBeUndefined()
    d.agents.on = 'local'
    d.agents.count = 2
    expect(validate(d).config?.agents).toMatchObject({ count: 2, on: 'local' })
    d.agents.on = 'kubernetes'
    expect(validate(d).config?.agents?.on).toBe('kubernetes')
    d.agents.count = 0
    expect(validate(d).issues.get('agents.count')).toBe('must be at least 1')
    expect(stepOf('agents.count')).toBe('load')
    // Rate mode needs a connection per agent in every step: the schema's message lands on the count.
    d.agents = { on: 'local', count: 8, rest: {} }
    d.load.connections = 4
    d.load.rateLimited = true
    expect(validate(d).issues.get('agents.count')).toBeTruthy()
    d.load.rateLimited = false
    // "other": agents a person starts, which the run waits for at its barrier (on: external).
    d.agents.on = 'other'
    expect(toConfigInput(d).agents).toEqual({ count: 8, on: 'external' })
    // What the form does not edit (raw upload, loss limit) survives a round trip.
    const config = RunConfigV1Schema.parse({
      version: 1,
      name: 'x',
      targets: [{ name: 'a', url: 'http://127.0.0.1:1/' }],
      load: { connections: 4, duration: 1 },
      agents: { count: 3, on: 'docker', raw: 'upload', lostAfterSeconds: 20 },
    })
    expect(validate(fromConfig(config)).config?.agents).toEqual(config.agents)
  })

  it('says what the probe found', () => {
    expect(describeProbe({ ok: true, status: 200, latencyMs: 3.2, error: null })).toEqual({
      state: 'ok',
      message: 'answered 200 in 3.2 ms',
    })
    expect(describeProbe({ ok: false, status: 404, latencyMs: 1, error: null }).state).toBe('fail')
    expect(describeProbe({ ok: false, status: null, latencyMs: null, error: 'connection refused' })).toEqual({
      state: 'fail',
      message: 'no answer: connection refused',
    })
  })
})

import { describe, expect, it } from 'vitest'
import { compilePlan, connectionsAt, previewSchedule } from './compile.ts'
import { ConfigError } from './errors.ts'
import { parseRunConfig, parseRunConfigText } from './load.ts'

const base = (load: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  version: 1,
  name: 'x',
  targets: [{ name: 'a', url: 'http://127.0.0.1:8080/' }],
  load,
  ...extra,
})

function fieldOf(raw: unknown): string {
  try {
    parseRunConfig(raw)
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError)
    return (err as ConfigError).field
  }
  throw new Error('expected a ConfigError')
}

describe('RunConfig v1', () => {
  it('fills defaults', () => {
    const c = parseRunConfig(base({ connections: 10, duration: 5 }))
    expect(c.load).toMatchObject({
      keepAlive: true,
      pipelining: 1,
      timeoutMs: 10_000,
      rate: null,
      profile: { kind: 'constant' },
    })
    expect(c).toMatchObject({
      schedule: 'sequential',
      rounds: 1,
      cooldownSeconds: 5,
      correlationHeader: 'x-correlation-id',
    })
    expect(c.targets[0]).toMatchObject({ method: 'GET', headers: {}, body: null, insecure: false })
  })

  it('names the field of each bad input', () => {
    expect(fieldOf(base({ connections: 0, duration: 5 }))).toBe('load.connections')
    expect(fieldOf(base({ connections: -3, duration: 5 }))).toBe('load.connections')
    expect(fieldOf(base({ connections: 2, duration: 5, requests: 100 }))).toBe('load.duration')
    expect(fieldOf(base({ connections: 2 }))).toBe('load.duration')
    expect(fieldOf(base({ connections: 2, duration: 5, profile: { kind: 'zigzag' } }))).toBe(
      'load.profile.kind',
    )
    expect(
      fieldOf(
        base({
          connections: 2,
          profile: { kind: 'phases', phases: [{ name: 'p', share: 1.5, duration: 1 }] },
        }),
      ),
    ).toBe('load.profile.phases.0.share')
    expect(
      fieldOf(
        base({ connections: 2, profile: { kind: 'phases', phases: [{ name: 'p', share: 0, duration: 1 }] } }),
      ),
    ).toBe('load.profile.phases.0.share')
    expect(
      fieldOf({ ...base({ connections: 2, duration: 1 }), targets: [{ name: 'a', url: 'htp//nope' }] }),
    ).toBe('targets.0.url')
    expect(
      fieldOf({ ...base({ connections: 2, duration: 1 }), targets: [{ name: 'a', url: 'ftp://host/' }] }),
    ).toBe('targets.0.url')
    expect(fieldOf({ ...base({ connections: 2, duration: 1 }), version: 7 })).toBe('version')
    expect(fieldOf({ ...base({ connections: 2, duration: 1 }), bogus: 1 })).toBe('')
    expect(
      fieldOf(base({ connections: 4, duration: 5, profile: { kind: 'ramp', to: 9, rampSeconds: 2 } })),
    ).toBe('load.profile.to')
    expect(fieldOf(base({ connections: 4, duration: 5, rate: 100, pipelining: 4 }))).toBe('load.rate')
  })

  it('maxConnections: rate mode only, at least connections, bounded', () => {
    const message = (raw: unknown) => {
      try {
        parseRunConfig(raw)
      } catch (err) {
        return (err as Error).message
      }
      return ''
    }
    const ok = parseRunConfig(base({ connections: 4, duration: 5, rate: 100, maxConnections: 4 }))
    expect(ok.load.maxConnections).toBe(4)
    expect(
      parseRunConfig(base({ connections: 4, duration: 5, rate: 100 })).load.maxConnections,
    ).toBeUndefined()
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ connections: 4, duration: 5, maxConnections: 8 }, /used only with a rate/],
      [{ connections: 4, duration: 5, rate: 100, maxConnections: 3 }, /at least load\.connections \(4\)/],
      [{ connections: 4, duration: 5, rate: 100, maxConnections: 100_001 }, /maxConnections/],
      [{ connections: 4, duration: 5, rate: 100, maxConnections: 0 }, /greater than 0/],
      [{ connections: 4, duration: 5, rate: 100, maxConnections: 7.5 }, /whole number/],
      [{ connections: 4, duration: 5, rate: 100, maxConnections: '9' }, /maxConnections/],
    ]
    for (const [load, why] of bad) {
      expect(fieldOf(base(load)), JSON.stringify(load)).toBe('load.maxConnections')
      expect(message(base(load))).toMatch(why)
    }
  })

  it('reads YAML and reports invalid YAML clearly', () => {
    const c = parseRunConfigText(
      'version: 1\nname: y\ntargets:\n  - name: a\n    url: https://127.0.0.1:8443/\n    insecure: true\nload:\n  connections: 3\n  requests: 100\n',
      'yaml',
    )
    expect(c.load.requests).toBe(100)
    expect(c.targets[0]!.insecure).toBe(true)
    expect(() => parseRunConfigText('version: 1\nname: [unclosed', 'yaml', 'cfg.yaml')).toThrow(
      /cfg.yaml is not valid YAML/,
    )
  })
})

describe('profile compiler', () => {
  const plan = (load: Record<string, unknown>) => compilePlan(parseRunConfig(base(load)).load)
  const perSecond = (p: ReturnType<typeof plan>) => previewSchedule(p).map((x) => x.connections)

  it('constant', () => {
    expect(perSecond(plan({ connections: 5, duration: 3 }))).toEqual([5, 5, 5])
  })
  it('linear ramp then hold to the end of the window', () => {
    expect(
      perSecond(
        plan({ connections: 5, duration: 6, profile: { kind: 'ramp', from: 1, to: 5, rampSeconds: 4 } }),
      ),
    ).toEqual([1, 2, 3, 4, 5, 5])
  })
  it('stepped ramp with pauses', () => {
    const p = plan({
      connections: 6,
      duration: 6,
      profile: { kind: 'ramp', from: 2, to: 6, stepSize: 2, stepSeconds: 1, pauseSeconds: 1 },
    })
    expect(perSecond(p)).toEqual([2, 0, 4, 0, 6, 6])
  })
  it('burst', () => {
    expect(
      perSecond(
        plan({ connections: 4, duration: 5, profile: { kind: 'burst', burstSeconds: 1, idleSeconds: 1 } }),
      ),
    ).toEqual([4, 0, 4, 0, 4])
  })
  it('phases: shares of connections, named, per duration or request count', () => {
    const p = plan({
      connections: 20,
      profile: {
        kind: 'phases',
        phases: [
          { name: 'warmup', share: 0.1, duration: 2 },
          { name: 'peak', share: 1, requests: 500 },
          { name: 'cooldown', share: 0.25, duration: 1 },
        ],
      },
    })
    expect(p.phases).toEqual(['warmup', 'peak', 'cooldown'])
    expect(p.steps).toEqual([
      { phase: 0, connections: 2, seconds: 2, requests: null },
      { phase: 1, connections: 20, seconds: null, requests: 500 },
      { phase: 2, connections: 5, seconds: 1, requests: null },
    ])
    expect(p.seconds).toBeNull()
    expect(previewSchedule(p, 3).map((x) => [x.connections, x.estimated])).toEqual([
      [2, false],
      [2, false],
      [20, true],
      [20, true],
      [20, true],
      [5, true],
    ])
  })
  it('stages are linearly interpolated', () => {
    const p = plan({
      connections: 10,
      profile: {
        kind: 'stages',
        stages: [
          { duration: 4, connections: 8 },
          { duration: 2, connections: 2 },
        ],
      },
    })
    expect(perSecond(p)).toEqual([2, 4, 6, 8, 5, 2])
    expect(connectionsAt(p, 3.5)).toBe(8)
    expect(p.seconds).toBe(6)
  })
  it('a request-bound constant run has no window and one open step', () => {
    const p = plan({ connections: 3, requests: 1000 })
    expect(p).toMatchObject({ maxRequests: 1000, seconds: null, maxConnections: 3 })
  })
  it("a warm-up comes before the profile as a phase of its own, at the run's connections", () => {
    const p = plan({
      connections: 8,
      duration: 10,
      warmupSeconds: 3,
      profile: { kind: 'ramp', from: 1, to: 8, rampSeconds: 2 },
    })
    expect(p.phases).toEqual(['warmup', 'main'])
    expect(p.warmup).toEqual([true, false])
    expect(p.steps[0]).toEqual({ phase: 0, connections: 8, seconds: 3, requests: null })
    expect(p.steps.slice(1).every((s) => s.phase === 1)).toBe(true)
    expect(p.seconds).toBe(13)
    expect(perSecond(p).slice(0, 5)).toEqual([8, 8, 8, 1, 5])
    const phased = plan({
      connections: 4,
      profile: {
        kind: 'phases',
        phases: [
          { name: 'w', share: 0.5, duration: 1, warmup: true },
          { name: 'm', share: 1, duration: 1 },
        ],
      },
    })
    expect(phased.warmup).toEqual([true, false])
  })
})

describe('users, warm-ups and sweeps: what a config may say', () => {
  const scenario = (
    steps: unknown[],
    extra: Record<string, unknown> = {},
    load: Record<string, unknown> = {},
  ) =>
    base(
      { connections: 2, duration: 1, ...load },
      {
        targets: [{ name: 'a', url: 'http://127.0.0.1:8080/', steps, ...extra }],
      },
    )
  const step = (name: string, more: Record<string, unknown> = {}) => ({ name, path: `/${name}`, ...more })
  it('once-steps come first, and something must repeat', () => {
    expect(parseRunConfig(scenario([step('r', { once: true }), step('b')])).targets[0]!.steps![0]!.once).toBe(
      true,
    )
    expect(fieldOf(scenario([step('b'), step('r', { once: true })]))).toBe('targets.0.steps.1.once')
    expect(fieldOf(scenario([step('r', { once: true })]))).toBe('targets.0.steps')
  })
  it('a ${var} in a step is a built-in (user and run too) or captured by an earlier step, or refused', () => {
    const login = step('login', { once: true, capture: { token: { json: 'token' } } })
    const uses = (where: Record<string, unknown>) => step('browse', where)
    // Defined: captured by a once-step before, or a built-in (a user named from the run and user).
    const ok = parseRunConfig(
      scenario([
        step('register', { once: true, method: 'POST', body: '{"u":"u-${run}-${user}","c":"${conn}"}' }),
        login,
        uses({ headers: { authorization: 'Bearer ${token}' }, path: '/u/${user}/${iteration}' }),
      ]),
    )
    expect(ok.targets[0]!.steps![2]!.headers).toEqual({ authorization: 'Bearer ${token}' })
    // A name nothing defines, in the path, a header or the body: refused at that field, naming it.
    expect(fieldOf(scenario([login, uses({ path: '/ads/${adId}' })]))).toBe('targets.0.steps.1.path')
    expect(fieldOf(scenario([login, uses({ headers: { 'x-t': '${tokn}' } })]))).toBe(
      'targets.0.steps.1.headers.x-t',
    )
    expect(fieldOf(scenario([login, uses({ method: 'POST', body: '{"id":"${id}"}' })]))).toBe(
      'targets.0.steps.1.body',
    )
    // Captured only by a later step: not there when the request is sent.
    expect(() =>
      parseRunConfig(
        scenario([uses({ path: '/x/${token}' }), step('login', { capture: { token: { json: 't' } } })]),
      ),
    ).toThrow(
      /step "browse" uses \$\{token\}, which no earlier step captures \(built in: iteration, user, conn, run\)/,
    )
  })
  it('think time: fixed or within bounds, in closed loop only', () => {
    expect(parseRunConfig(scenario([step('b', { think: { min: 100, max: 500 } })]))).toBeTruthy()
    expect(fieldOf(scenario([step('b', { think: { min: 500, max: 100 } })]))).toBe(
      'targets.0.steps.0.think.max',
    )
    expect(fieldOf(scenario([step('b', { think: -1 })]))).toBe('targets.0.steps.0.think')
    expect(fieldOf(scenario([step('b')], { think: 100 }, { rate: 50 }))).toBe('targets.0.think')
    expect(fieldOf(scenario([step('b', { think: 10 })], {}, { rate: 50 }))).toBe('targets.0.steps')
    expect(
      fieldOf(
        base(
          { connections: 2, duration: 1, pipelining: 4 },
          { targets: [{ name: 'a', url: 'http://x/', think: 5 }] },
        ),
      ),
    ).toBe('targets.0.think')
  })
  it('a phases profile marks its warm-up phase; at least one phase is measured', () => {
    const phases = (list: unknown[], extra: Record<string, unknown> = {}) =>
      base({ connections: 2, profile: { kind: 'phases', phases: list }, ...extra })
    expect(fieldOf(phases([{ name: 'p', share: 1, duration: 1 }], { warmupSeconds: 5 }))).toBe(
      'load.warmupSeconds',
    )
    expect(fieldOf(phases([{ name: 'p', share: 1, duration: 1, warmup: true }]))).toBe('load.profile.phases')
  })
})

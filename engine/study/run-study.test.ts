// Sweeps: a sweep is one study with one run per value (or per pair of values: a grid); any setting
// may be swept (numbers, words, booleans, target sets, a URL's query parameter, a stack's name, env
// or replicas); results per value and the knee; the stacks a study restarts are put back.
import { describe, expect, it } from 'vitest'
import type { ConfigError } from '../config/errors.ts'
import { parseRunConfig } from '../config/load.ts'
import { expandSweep } from '../config/sweep.ts'
import { sweepConfig } from '../testing/config.ts'

const cfg = sweepConfig

const fieldOf = (make: () => unknown): string | null => {
  try {
    make()
  } catch (e) {
    return (e as ConfigError).field
  }
  return null
}

const STACK_URLS: Record<string, string> = {
  'node-http': 'http://127.0.0.1:8082',
  'node-cluster': 'http://127.0.0.1:8083',
}
const stackUrl = (name: string) => STACK_URLS[name] ?? null

describe('sweep expansion', () => {
  it('expands any numeric path and names a bad path or a bad value', () => {
    const steps = expandSweep(cfg('http://127.0.0.1:1/', { path: 'load.connections', values: [1, 4, 16] }))
    expect(steps.map((s) => s.config.load.connections)).toEqual([1, 4, 16])
    expect(steps[1]!.config.name).toBe('sweep [connections=4]')
    expect(steps[0]!.config.sweep).toBeUndefined()
    const field = (sweep: unknown) => fieldOf(() => expandSweep(cfg('http://127.0.0.1:1/', sweep)))
    expect(field({ path: 'load.nothing', values: [1] })).toBe('sweep.path')
    expect(field({ path: 'load.connections', values: [4, 0] })).toBe('sweep.values.1')
    expect(field({ path: 'load.connections', values: ['many'] })).toBe('sweep.path')
    expect(field({ path: 'targets.0.stack.env.POOL_SIZE', values: [10] })).toBe('sweep.path')
    expect(field({ path: 'targets.3.query.n', values: [10] })).toBe('sweep.path')
    // The schema: values of one kind, none repeated, at most 100 runs.
    expect(fieldOf(() => cfg('http://127.0.0.1:1/', { path: 'load.connections', values: [1, 'x'] }))).toBe(
      'sweep.values.1',
    )
    expect(fieldOf(() => cfg('http://127.0.0.1:1/', { path: 'load.connections', values: [2, 2] }))).toBe(
      'sweep.values.1',
    )
    const many = Array.from({ length: 11 }, (_, i) => i + 1)
    expect(
      fieldOf(() =>
        cfg('http://127.0.0.1:1/', {
          path: 'load.connections',
          values: many,
          by: { path: 'load.pipelining', values: many },
        }),
      ),
    ).toBe('sweep.by.values')
  })

  it('sweeps words, booleans, query parameters, target sets and a stack name', () => {
    const base = {
      version: 1,
      name: 's',
      targets: [
        {
          name: 'a',
          url: 'http://127.0.0.1:8082/compute?iterations=1000&split=1',
          method: 'POST',
          body: { size: 1024, kind: 'json' },
          stack: { name: 'node-http', env: { POOL_SIZE: 2 } },
          monitor: [
            { kind: 'docker', stack: 'node-http' },
            { kind: 'postgres', stack: 'node-http' },
          ],
        },
        { name: 'b', url: 'http://127.0.0.1:9999/compute?iterations=1000' },
      ],
      load: { connections: 1, duration: 1 },
      thresholds: [
        { metric: 'p99', target: 'a', max: 1000 },
        { metric: 'p99', target: 'b', max: 1000 },
      ],
    }
    const expand = (sweep: unknown) => expandSweep(parseRunConfig({ ...base, sweep }), { stackUrl })
    // A word: the body's kind.
    expect(
      expand({ path: 'targets.0.body.kind', values: ['json', 'text'] }).map((s) => s.config.targets[0]!.body),
    ).toEqual([
      { size: 1024, kind: 'json' },
      { size: 1024, kind: 'text' },
    ])
    // A boolean.
    expect(
      expand({ path: 'load.keepAlive', values: [true, false] }).map((s) => s.config.load.keepAlive),
    ).toEqual([true, false])
    // A query parameter of every target's URL; the others stay.
    const query = expand({ path: 'targets.*.query.iterations', values: [1000, 300000] })
    expect(query[1]!.config.targets.map((t) => t.url)).toEqual([
      'http://127.0.0.1:8082/compute?iterations=300000&split=1',
      'http://127.0.0.1:9999/compute?iterations=300000',
    ])
    expect(query.map((s) => s.labels)).toEqual([['1000'], ['300000']])
    // Target sets: each run has only its targets, and only their thresholds.
    const sets = expand({ path: 'targets', values: [['a'], ['a', 'b']] })
    expect(sets.map((s) => s.config.targets.map((t) => t.name))).toEqual([['a'], ['a', 'b']])
    expect(sets[0]!.config.thresholds.map((t) => t.target)).toEqual(['a'])
    expect(sets.map((s) => s.labels[0])).toEqual(['a', 'a+b'])
    expect(fieldOf(() => expand({ path: 'targets', values: [['a'], ['c']] }))).toBe('sweep.values.1')
    // A stack name: the target's URL and monitors follow the stack; the stack starts for each value,
    // with the default warm-up before measuring.
    const stacks = expand({ path: 'targets.0.stack.name', values: ['node-http', 'node-cluster'] })
    const t = stacks[1]!.config.targets[0]!
    expect(t.url).toBe('http://127.0.0.1:8083/compute?iterations=1000&split=1')
    expect(t.monitor).toEqual([
      { kind: 'docker', stack: 'node-cluster' },
      { kind: 'postgres', stack: 'node-cluster' },
    ])
    expect(stacks.map((s) => s.stacks.map((x) => x.name))).toEqual([['node-http'], ['node-cluster']])
    expect(stacks.map((s) => s.config.load.warmupSeconds)).toEqual([10, 10])
    expect(stacks[0]!.config.name).toBe('s [stack=node-http]')
  })

  it('expands a grid with the stack-restarting setting outside, warming up only after a restart', () => {
    const c = parseRunConfig({
      version: 1,
      name: 'grid',
      targets: [{ name: 't', url: 'http://127.0.0.1:8083/compute', stack: { name: 'node-cluster' } }],
      load: { connections: 1, duration: 2 },
      sweep: {
        path: 'load.connections',
        values: [1, 4],
        by: { path: 'targets.0.stack.env.WORKERS', values: [2, 4] },
        warmupSeconds: 3,
      },
    })
    const steps = expandSweep(c)
    expect(steps.map((s) => s.point)).toEqual([
      [1, 2],
      [4, 2],
      [1, 4],
      [4, 4],
    ])
    expect(steps.map((s) => s.stacks.map((x) => x.env.WORKERS))).toEqual([[2], [], [4], []])
    expect(steps.map((s) => s.config.load.warmupSeconds)).toEqual([3, 0, 3, 0])
    expect(steps[2]!.config.name).toBe('grid [connections=1, WORKERS=4]')
    // A phases profile gets a warm-up phase in front instead.
    const phased = expandSweep(
      parseRunConfig({
        ...c,
        load: { connections: 2, profile: { kind: 'phases', phases: [{ name: 'p', share: 1, duration: 1 }] } },
        sweep: { path: 'targets.0.stack.env.WORKERS', values: [1] },
      }),
    )
    const profile = phased[0]!.config.load.profile
    expect(profile.kind === 'phases' && profile.phases.map((p) => [p.name, p.warmup, p.duration])).toEqual([
      ['restart warm-up', true, 10],
      ['p', false, 1],
    ])
    // Replicas restart the stack with each count, its environment unchanged.
    const replicas = expandSweep(
      parseRunConfig({
        version: 1,
        name: 'scale',
        targets: [
          { name: 't', url: 'http://127.0.0.1:1/', stack: { name: 'node-cluster', env: { WORKERS: 2 } } },
        ],
        load: { connections: 1, duration: 1 },
        sweep: { path: 'targets.0.stack.replicas', values: [1, 3] },
      }),
    )
    expect(
      replicas.map((s) => [s.stacks[0]?.replicas, s.stacks[0]?.env, s.config.targets[0]!.stack!.replicas]),
    ).toEqual([
      [1, { WORKERS: 2 }, 1],
      [3, { WORKERS: 2 }, 3],
    ])
    expect(
      fieldOf(() =>
        expandSweep(cfg('http://127.0.0.1:1/', { path: 'targets.0.stack.replicas', values: [2] })),
      ),
    ).toBe('sweep.path')
  })
})

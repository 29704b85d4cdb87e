// Validation messages are words, never zod's schema text: a table of configs, each with the field
// it breaks and the sentence a user reads, through the CLI's and the Api's path (parseRunConfig →
// ConfigError) and through the plain schemas other entry points parse with.
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { parseArgs } from '../api/schemas.ts'
import { ApiError } from '../api/errors.ts'
import { formatSpecIssues, MonitorSpecSchema } from './schema-monitor.ts'
import { ConfigError } from './errors.ts'
import { isDefaultMessage, issueMessage, issuesOf } from './issue-words.ts'
import { parseRunConfig } from './load.ts'

const base = () => ({
  version: 1,
  name: 'words',
  targets: [{ name: 'a', url: 'http://127.0.0.1:1/' }],
  load: { connections: 2, duration: 1 } as Record<string, unknown>,
})

function issues(change: (c: ReturnType<typeof base> & Record<string, unknown>) => void) {
  const c = base() as ReturnType<typeof base> & Record<string, unknown>
  change(c)
  try {
    parseRunConfig(c)
  } catch (err) {
    if (err instanceof ConfigError) return err.issues
    throw err
  }
  throw new Error('the config was valid')
}

// [what the user did, the change, the field, the words]
const CASES: [string, (c: ReturnType<typeof base> & Record<string, unknown>) => void, string, string][] = [
  ['negative cool-down', (c) => (c.cooldownSeconds = -1), 'cooldownSeconds', 'must be 0 or more'],
  ['cool-down over an hour', (c) => (c.cooldownSeconds = 4000), 'cooldownSeconds', 'must be at most 3,600'],
  ['zero rounds', (c) => (c.rounds = 0), 'rounds', 'must be at least 1'],
  ['fractional rounds', (c) => (c.rounds = 1.5), 'rounds', 'must be a whole number'],
  [
    'rounds as text',
    (c) => (c.rounds = 'three'),
    'rounds',
    'must be a number of rounds, or { min, max, precision, budgetMinutes } to stop when precise',
  ],
  [
    'rounds until precise, max below min',
    (c) => (c.rounds = { min: 5, max: 4 }),
    'rounds.max',
    'must not be below min',
  ],
  [
    'rounds until precise, min 2',
    (c) => (c.rounds = { min: 2 }),
    'rounds.min',
    'must be at least 3: an interval needs 3 rounds',
  ],
  [
    'rounds until precise, precision 0',
    (c) => (c.rounds = { precision: 0 }),
    'rounds.precision',
    'must be a percentage above 0',
  ],
  [
    'rounds until precise, an unknown field',
    (c) => (c.rounds = { rounds: 3 }),
    'rounds',
    'unknown field: rounds',
  ],
  ['zero connections', (c) => (c.load.connections = 0), 'load.connections', 'must be greater than 0'],
  ['no connections', (c) => delete c.load.connections, 'load.connections', 'is required'],
  ['NaN connections', (c) => (c.load.connections = Number.NaN), 'load.connections', 'must be a number'],
  ['pipelining 1000', (c) => (c.load.pipelining = 1000), 'load.pipelining', 'must be at most 256'],
  ['timeout 0', (c) => (c.load.timeoutMs = 0), 'load.timeoutMs', 'must be greater than 0'],
  ['timeout too long', (c) => (c.load.timeoutMs = 1e9), 'load.timeoutMs', 'must be at most 600,000'],
  ['keep-alive as text', (c) => (c.load.keepAlive = 'yes'), 'load.keepAlive', 'must be true or false'],
  [
    'a ramp from −1',
    (c) => (c.load.profile = { kind: 'ramp', from: -1, rampSeconds: 2 }),
    'load.profile.from',
    'must be 0 or more',
  ],
  [
    'an unknown profile',
    (c) => (c.load.profile = { kind: 'zigzag' }),
    'load.profile.kind',
    'must be one of constant, ramp, burst, phases, stages',
  ],
  [
    'an unknown schedule',
    (c) => (c.schedule = 'random'),
    'schedule',
    "must be one of 'sequential', 'interleaved' or 'randomized'",
  ],
  [
    'an unknown method',
    (c) => (c.targets[0] = { ...c.targets[0]!, method: 'FETCH' } as never),
    'targets.0.method',
    "must be one of 'GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD' or 'OPTIONS'",
  ],
  ['a typo in a field', (c) => (c.rouns = 3), '', 'unknown field: rouns'],
  ['two typos', (c) => ((c.rouns = 3), (c.nmae = 'x')), '', 'unknown fields: rouns, nmae'],
  ['an empty tag', (c) => (c.tags = ['']), 'tags.0', 'must not be empty'],
  ['no targets', (c) => (c.targets = []), 'targets', 'needs at least one target'],
  [
    'a header name with a space',
    (c) => (c.targets[0] = { ...c.targets[0]!, headers: { 'x y': '1' } } as never),
    'targets.0.headers.x y',
    'must be a valid HTTP header name',
  ],
  [
    'a body that is a number',
    (c) => (c.targets[0] = { ...c.targets[0]!, method: 'POST', body: 5 } as never),
    'targets.0.body',
    "must be a string, null, or { size: bytes, kind: 'json' | 'text' }",
  ],
  [
    'a step with an empty name',
    (c) => (c.targets[0] = { ...c.targets[0]!, steps: [{ name: '', path: '/' }] } as never),
    'targets.0.steps.0.name',
    'must not be empty',
  ],
  [
    'a step with a long name',
    (c) => (c.targets[0] = { ...c.targets[0]!, steps: [{ name: 'x'.repeat(41), path: '/' }] } as never),
    'targets.0.steps.0.name',
    'may have at most 40 characters',
  ],
  [
    'a step expecting status 99',
    (c) =>
      (c.targets[0] = { ...c.targets[0]!, steps: [{ name: 's', path: '/', expectStatus: 99 }] } as never),
    'targets.0.steps.0.expectStatus',
    'must be at least 100',
  ],
  [
    'a phase with share 0',
    (c) => {
      c.load = { connections: 2, profile: { kind: 'phases', phases: [{ name: 'p', share: 0, duration: 1 }] } }
    },
    'load.profile.phases.0.share',
    'must be between 0 and 1 (exclusive of 0)',
  ],
  [
    'a sweep without values',
    (c) => (c.sweep = { path: 'load.connections', values: [] }),
    'sweep.values',
    'needs at least one entry',
  ],
  [
    'a threshold on an unknown metric',
    (c) => (c.thresholds = [{ metric: 'p42', max: 1 }]),
    'thresholds.0.metric',
    "must be one of 'mean', 'p50', 'p90', 'p95', 'p99', 'p99.9', 'max', 'throughput' or 'errorRate'",
  ],
  ['a run name that is a list', (c) => (c.name = ['a'] as never), 'name', 'must be text'],
]

describe('validation messages in words', () => {
  it.each(CASES)('%s', (_what, change, field, words) => {
    const found = issues(change)
    const issue = found.find((i) => i.field === field)
    expect(issue, JSON.stringify(found)).toBeDefined()
    expect(issue?.message).toBe(words)
    for (const i of found) expect(isDefaultMessage(i.message), i.message).toBe(false)
  })

  it('turns each kind of zod issue into a sentence', () => {
    const words = (schema: z.ZodType, value: unknown) => {
      const r = schema.safeParse(value)
      if (r.success) throw new Error('valid')
      return issueMessage(r.error.issues[0]!)
    }
    expect(words(z.number().min(0), -1)).toBe('must be 0 or more')
    expect(words(z.number().gt(5), 5)).toBe('must be greater than 5')
    expect(words(z.number().lt(5), 5)).toBe('must be less than 5')
    expect(words(z.number().max(100_000), 1e6)).toBe('must be at most 100,000')
    expect(words(z.number().multipleOf(5), 7)).toBe('must be a multiple of 5')
    expect(words(z.int(), 1.5)).toBe('must be a whole number')
    expect(words(z.string().min(3), 'ab')).toBe('needs at least 3 characters')
    expect(words(z.string().length(2), 'abc')).toBe('must have exactly 2 characters')
    expect(words(z.array(z.number()).max(2), [1, 2, 3])).toBe('may have at most 2 entries')
    expect(words(z.literal('x'), 'y')).toBe("must be 'x'")
    expect(words(z.string().startsWith('/'), 'a')).toBe('must start with "/"')
    expect(words(z.string().regex(/^a$/), 'b')).toBe('has characters or a form that is not allowed here')
    expect(words(z.url(), 'nope')).toBe('must be a URL such as http://127.0.0.1:8080/')
    expect(words(z.union([z.string(), z.null()]), 5)).toBe('must be text or null')
    expect(words(z.object({ a: z.number() }).strict(), { a: 1, b: 2 })).toBe('unknown field: b')
    expect(words(z.boolean(), undefined)).toBe('is required')
    expect(
      words(
        z.number().refine((n) => n > 1),
        0,
      ),
    ).toBe('is not valid')
    expect(
      words(
        z.number().refine((n) => n > 1, 'must be above 1'),
        0,
      ),
    ).toBe('must be above 1')
  })

  it('reaches the Api and the monitor test in words too', () => {
    let error: unknown
    try {
      parseArgs('runs:series', [1, { maxPoints: 5 }])
    } catch (err) {
      error = err
    }
    expect(error).toBeInstanceOf(ApiError)
    expect((error as ApiError).message).toBe('runs:series: options.maxPoints must be at least 10')
    const spec = MonitorSpecSchema.safeParse({ kind: 'process', port: 80, tree: 'yes' })
    expect(spec.success).toBe(false)
    if (!spec.success) expect(formatSpecIssues(spec.error)).toBe('monitor.tree: tree must be true or false')
    const r = z.object({ n: z.number().min(0) }).safeParse({ n: -2 })
    if (!r.success)
      expect(issuesOf(r.error, ['load'])).toEqual([{ field: 'load.n', message: 'must be 0 or more' }])
  })
})

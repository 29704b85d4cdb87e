// Bad configs through the real `cannonade run` command (in process): each exits 2 with a message
// naming its field, before anything is written. Two classes: bounds (a few bytes of config must
// not ask for unbounded work: steps, seconds, timers, bodies, counts) and the wire (nothing a
// config holds goes onto the wire unchecked: header injection, framing headers, paths, variables).
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCommand } from '../cli/run.ts'
import { compilePlan } from './compile.ts'
import { ConfigError } from './errors.ts'
import { LIMITS } from './limits.ts'
import { parseRunConfig } from './load.ts'
import { RunConfigV1Schema, type Load } from './schema.ts'

let dir = ''
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cannonade-bad-input-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

type Doc = Record<string, unknown>
const URL_ = 'http://127.0.0.1:9/'
const target = (extra: Doc = {}): Doc => ({ name: 'a', url: URL_, ...extra })
const config = (extra: Doc = {}, load: Doc = {}): Doc => ({
  version: 1,
  name: 'bad',
  targets: [target()],
  load: { connections: 4, duration: 10, ...load },
  ...extra,
})
const withTarget = (t: Doc, extra: Doc = {}) => config({ targets: [target(t)], ...extra })
const step = (s: Doc): Doc => ({ name: 's', path: '/x', ...s })
const scenario = (...steps: Doc[]) => withTarget({ steps })
const big = (bytes: number) => 'x'.repeat(bytes)

async function run(file: string): Promise<{ code: number; stderr: string }> {
  const stderr = new PassThrough()
  let text = ''
  stderr.on('data', (c: Buffer) => (text += c.toString('utf8')))
  const db = join(dir, 'never.db')
  const code = await runCommand([file, '--db', db], {
    dbPath: db,
    stdout: new PassThrough(),
    stderr,
    isTTY: false,
  })
  return { code, stderr: text }
}

let n = 0
async function expectRefused(doc: Doc | string, field: string, message?: RegExp) {
  const file = join(dir, `case-${n++}.json`)
  writeFileSync(file, typeof doc === 'string' ? doc : JSON.stringify(doc))
  const { code, stderr } = await run(file)
  expect(code, stderr).toBe(2)
  // One line per issue: "  field: message".
  const line = stderr.split('\n').find((l) => l.startsWith(`  ${field}: `))
  expect(line, `no line for ${field} in:\n${stderr}`).toBeDefined()
  if (message) expect(line).toMatch(message)
  expect(stderr).not.toMatch(/\n\s+at /)
  expect(existsSync(join(dir, 'never.db'))).toBe(false)
}

const bounds: [string, Doc, string, RegExp?][] = [
  [
    'burst of a nanosecond (the OOM case)',
    config({}, { profile: { kind: 'burst', burstSeconds: 1e-9, idleSeconds: 1 } }),
    'load.profile.burstSeconds',
    /at least 0\.001/,
  ],
  [
    'millisecond bursts for an hour',
    config({}, { duration: 3600, profile: { kind: 'burst', burstSeconds: 0.001, idleSeconds: 0 } }),
    'load.profile.burstSeconds',
    /3,600,000 schedule steps/,
  ],
  [
    'short bursts, request-bound (a day compiled)',
    config(
      {},
      {
        duration: undefined,
        requests: 1000,
        profile: { kind: 'burst', burstSeconds: 0.01, idleSeconds: 0.01 },
      },
    ),
    'load.profile.burstSeconds',
    /schedule steps/,
  ],
  [
    'stepped ramp of 200 000 steps',
    config(
      {},
      {
        connections: 100_000,
        duration: undefined,
        requests: 1e6,
        profile: { kind: 'ramp', from: 1, stepSize: 1, stepSeconds: 1, pauseSeconds: 1 },
      },
    ),
    'load.profile.stepSize',
    /take larger steps/,
  ],
  [
    'stepped ramp lasting years',
    config(
      {},
      {
        connections: 1000,
        duration: undefined,
        requests: 1e6,
        profile: { kind: 'ramp', stepSize: 1, stepSeconds: 600_000 },
      },
    ),
    'load.profile.stepSeconds',
    /longer than 7 days/,
  ],
  [
    'ramp held forever',
    config({}, { profile: { kind: 'ramp', rampSeconds: 2, holdSeconds: 1e12 } }),
    'load.profile.holdSeconds',
    /at most 604800/,
  ],
  [
    'ramp + hold past a week, request-bound',
    config(
      {},
      {
        duration: undefined,
        requests: 100,
        profile: { kind: 'ramp', rampSeconds: 600_000, holdSeconds: 600_000 },
      },
    ),
    'load.profile.holdSeconds',
    /longer than 7 days/,
  ],
  [
    'pause of 1e300',
    config({}, { profile: { kind: 'ramp', stepSize: 1, stepSeconds: 1, pauseSeconds: 1e300 } }),
    'load.profile.pauseSeconds',
  ],
  [
    'idle of 1e300',
    config({}, { profile: { kind: 'burst', burstSeconds: 1, idleSeconds: 1e300 } }),
    'load.profile.idleSeconds',
  ],
  [
    '500 week-long stages',
    config(
      {},
      {
        duration: undefined,
        profile: {
          kind: 'stages',
          stages: Array.from({ length: 500 }, () => ({ duration: 604_800, connections: 1 })),
        },
      },
    ),
    'load.profile.stages',
    /longer than 7 days/,
  ],
  [
    '50 day-long phases',
    config(
      {},
      {
        duration: undefined,
        profile: {
          kind: 'phases',
          phases: Array.from({ length: 50 }, (_, i) => ({ name: `p${i}`, share: 1, duration: 86_400 })),
        },
      },
    ),
    'load.profile.phases',
    /longer than 7 days/,
  ],
  [
    'a phase of a nanosecond',
    config(
      {},
      { duration: undefined, profile: { kind: 'phases', phases: [{ name: 'p', share: 1, duration: 1e-9 }] } },
    ),
    'load.profile.phases.0.duration',
  ],
  [
    'a stage of a microsecond',
    config(
      {},
      { duration: undefined, profile: { kind: 'stages', stages: [{ duration: 1e-6, connections: 1 }] } },
    ),
    'load.profile.stages.0.duration',
  ],
  [
    '51 phases',
    config(
      {},
      {
        duration: undefined,
        profile: {
          kind: 'phases',
          phases: Array.from({ length: 51 }, (_, i) => ({ name: `p${i}`, share: 1, duration: 1 })),
        },
      },
    ),
    'load.profile.phases',
  ],
  ['a window of 30 years', config({}, { duration: 1e9 }), 'load.duration'],
  ['1e300 requests', config({}, { duration: undefined, requests: 1e300 }), 'load.requests'],
  [
    'a phase of 1e300 requests',
    config(
      {},
      {
        duration: undefined,
        profile: { kind: 'phases', phases: [{ name: 'p', share: 1, requests: 1e300 }] },
      },
    ),
    'load.profile.phases.0.requests',
  ],
  ['rate whose interval overflows setTimeout', config({}, { rate: 1e-9 }), 'load.rate', /at least 0\.001/],
  ['rate of 1e12/s', config({}, { rate: 1e12 }), 'load.rate', /at most/],
  ['a million connections', config({}, { connections: 1e6 }), 'load.connections'],
  ['pipelining 1000', config({}, { pipelining: 1000 }), 'load.pipelining'],
  ['timeout of 30 years', config({}, { timeoutMs: 1e12 }), 'load.timeoutMs'],
  ['a million rounds', config({ rounds: 1e6 }), 'rounds'],
  ['cool-down of 30 years', config({ cooldownSeconds: 1e9 }), 'cooldownSeconds'],
  [
    '33 targets',
    config({ targets: Array.from({ length: 33 }, (_, i) => target({ name: `t${i}` })) }),
    'targets',
  ],
  [
    'an 11 MB body',
    withTarget({ method: 'POST', body: big(11 * 1024 * 1024) }),
    'targets.0.body',
    /more than 10,485,760/,
  ],
  [
    'an 11 MB body of 3-byte characters',
    withTarget({ method: 'POST', body: '€'.repeat(3_700_000) }),
    'targets.0.body',
    /11,100,000 bytes/,
  ],
  [
    'an 11 MB step body',
    scenario(step({ method: 'POST', body: big(11 * 1024 * 1024) })),
    'targets.0.steps.0.body',
  ],
  ['51 steps', scenario(...Array.from({ length: 51 }, (_, i) => step({ name: `s${i}` }))), 'targets.0.steps'],
  ['51 tags', config({ tags: Array.from({ length: 51 }, (_, i) => `t${i}`) }), 'tags', /at most 50/],
  ['a tag of 65 characters', config({ tags: [big(65)] }), 'tags.0'],
  ['a tag with a line break', config({ tags: ['a\nb'] }), 'tags.0', /control character/],
  [
    '101 headers',
    withTarget({ headers: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`x-h${i}`, 'v'])) }),
    'targets.0.headers',
    /101 headers/,
  ],
  [
    'a header value of 9000 characters',
    withTarget({ headers: { 'X-Big': big(9000) } }),
    'targets.0.headers.X-Big',
  ],
  [
    'a header name of 300 characters',
    withTarget({ headers: { [big(300)]: 'v' } }),
    `targets.0.headers.${big(300)}`,
  ],
  [
    '101 thresholds',
    config({ thresholds: Array.from({ length: 101 }, () => ({ metric: 'p99', max: 1 })) }),
    'thresholds',
  ],
  ['a URL of 9000 characters', withTarget({ url: `${URL_}${big(9000)}` }), 'targets.0.url'],
  [
    '101 sweep values',
    config({ sweep: { path: 'load.connections', values: Array.from({ length: 101 }, (_, i) => i + 1) } }),
    'sweep.values',
  ],
  [
    'a sweep into the prototype',
    config({ sweep: { path: '__proto__.polluted', values: [1] } }),
    'sweep.path',
  ],
]

const wire: [string, Doc | string, string, RegExp?][] = [
  [
    'CR/LF in a header value (injection)',
    withTarget({ headers: { 'X-A': 'v\r\nX-Injected: 1' } }),
    'targets.0.headers.X-A',
    /carriage return/,
  ],
  [
    'a bare LF in a header value',
    withTarget({ headers: { 'X-A': 'v\nX-Injected: 1' } }),
    'targets.0.headers.X-A',
    /line feed/,
  ],
  ['NUL in a header value', withTarget({ headers: { 'X-A': 'v\u0000w' } }), 'targets.0.headers.X-A', /NUL/],
  ['DEL in a header value', withTarget({ headers: { 'X-A': 'v\u007f' } }), 'targets.0.headers.X-A', /0x7f/],
  [
    'ESC in a header value',
    withTarget({ headers: { 'X-A': '\u001b[31m' } }),
    'targets.0.headers.X-A',
    /0x1b/,
  ],
  [
    'a character above 0xFF in a header value',
    withTarget({ headers: { 'X-A': '5 €' } }),
    'targets.0.headers.X-A',
    /one byte/,
  ],
  [
    'Content-Length header',
    withTarget({ headers: { 'Content-Length': '5' } }),
    'targets.0.headers.Content-Length',
    /from the body/,
  ],
  [
    'transfer-encoding header',
    withTarget({ headers: { 'transfer-encoding': 'chunked' } }),
    'targets.0.headers.transfer-encoding',
    /never chunked/,
  ],
  [
    'Connection header',
    withTarget({ headers: { Connection: 'close' } }),
    'targets.0.headers.Connection',
    /keepAlive/,
  ],
  ['Expect header', withTarget({ headers: { Expect: '100-continue' } }), 'targets.0.headers.Expect'],
  ['Upgrade header', withTarget({ headers: { Upgrade: 'websocket' } }), 'targets.0.headers.Upgrade'],
  ['TE header', withTarget({ headers: { TE: 'trailers' } }), 'targets.0.headers.TE'],
  [
    'one header twice, different case',
    withTarget({ headers: { 'X-A': '1', 'x-a': '2' } }),
    'targets.0.headers.x-a',
    /twice/,
  ],
  ['Host twice', withTarget({ headers: { Host: 'a', host: 'b' } }), 'targets.0.headers.host', /twice/],
  [
    'a header that is the correlation header',
    withTarget({ headers: { 'X-Correlation-Id': 'mine' } }),
    'targets.0.headers.X-Correlation-Id',
    /correlation header/,
  ],
  [
    'a header name that is no token',
    withTarget({ headers: { 'Bad Name': 'v' } }),
    'targets.0.headers.Bad Name',
  ],
  // The field is printed escaped: a key must not write raw line breaks into the terminal either.
  [
    'a header name with a colon and CR/LF',
    withTarget({ headers: { 'X-A: b\r\nX-B': 'v' } }),
    'targets.0.headers."X-A: b\\r\\nX-B"',
    /valid HTTP header name/,
  ],
  ['correlationHeader Content-Length', config({ correlationHeader: 'Content-Length' }), 'correlationHeader'],
  [
    'correlationHeader Transfer-Encoding',
    config({ correlationHeader: 'Transfer-Encoding' }),
    'correlationHeader',
  ],
  ['correlationHeader Host', config({ correlationHeader: 'Host' }), 'correlationHeader'],
  ['correlationHeader Connection', config({ correlationHeader: 'connection' }), 'correlationHeader'],
  ['correlationHeader with CR/LF', config({ correlationHeader: 'x-id\r\nX-Injected' }), 'correlationHeader'],
  ['a space in the URL', withTarget({ url: 'http://127.0.0.1:9/a b' }), 'targets.0.url', /a space/],
  [
    'CR/LF in the URL',
    withTarget({ url: 'http://127.0.0.1:9/a\r\nX-Injected: 1' }),
    'targets.0.url',
    /carriage return/,
  ],
  ['a tab in the URL', withTarget({ url: 'http://127.0.0.1:9/a\tb' }), 'targets.0.url'],
  ['NUL in the URL', withTarget({ url: 'http://127.0.0.1:9/a\u0000' }), 'targets.0.url', /NUL/],
  [
    'credentials in the URL and an Authorization header',
    withTarget({ url: 'http://u:p@127.0.0.1:9/', headers: { Authorization: 'Bearer x' } }),
    'targets.0.url',
    /keep one/,
  ],
  [
    'CR/LF in a step path (injection)',
    scenario(step({ path: '/a HTTP/1.1\r\nX-Injected: 1\r\n\r\nGET /b' })),
    'targets.0.steps.0.path',
    /carriage return|a space/,
  ],
  ['a space in a step path', scenario(step({ path: '/a b' })), 'targets.0.steps.0.path', /a space/],
  ['NUL in a step path', scenario(step({ path: '/a\u0000' })), 'targets.0.steps.0.path', /NUL/],
  ['a broken escape in a step path', scenario(step({ path: '/a%zz' })), 'targets.0.steps.0.path', /escape/],
  ['braces in a step path', scenario(step({ path: '/a{b}' })), 'targets.0.steps.0.path', /"\{"/],
  [
    'a Host header on a step',
    scenario(step({ headers: { Host: 'elsewhere' } })),
    'targets.0.steps.0.headers.Host',
  ],
  [
    'Content-Length on a step',
    scenario(step({ headers: { 'Content-Length': '1' } })),
    'targets.0.steps.0.headers.Content-Length',
  ],
  [
    'CR/LF in a step header',
    scenario(step({ headers: { 'X-A': 'a\r\nb' } })),
    'targets.0.steps.0.headers.X-A',
  ],
  [
    'an unknown variable in a step path',
    scenario(step({ path: '/users/${userId}' })),
    'targets.0.steps.0.path',
    /step "s" uses \$\{userId\}.*built in: iteration, user, conn, run/,
  ],
  [
    'a variable captured by a later step',
    scenario(
      step({ name: 'me', headers: { Authorization: 'Bearer ${token}' } }),
      step({ name: 'login', capture: { token: { json: 'token' } } }),
    ),
    'targets.0.steps.0.headers.Authorization',
    /step "me" uses \$\{token\}/,
  ],
  [
    'a variable used by the step that captures it',
    scenario(step({ path: '/x?t=${token}', capture: { token: { json: 'token' } } })),
    'targets.0.steps.0.path',
    /\$\{token\}/,
  ],
  [
    'an unknown variable in a step body',
    scenario(step({ method: 'POST', body: '{"id":"${nope}"}' })),
    'targets.0.steps.0.body',
    /\$\{nope\}/,
  ],
  [
    'an escape sequence in the run name',
    config({ name: 'run\u001b]0;pwned\u0007' }),
    'name',
    /control character/,
  ],
  [
    'a line break in a step name',
    scenario(step({ name: 'a\nb' })),
    'targets.0.steps.0.name',
    /control character/,
  ],
  [
    'a line break in a phase name',
    config(
      {},
      {
        duration: undefined,
        profile: { kind: 'phases', phases: [{ name: 'warm\nup', share: 1, duration: 1 }] },
      },
    ),
    'load.profile.phases.0.name',
  ],
  [
    'a duplicate key in JSON',
    '{"version":1,"name":"x","targets":[{"name":"a","url":"http://127.0.0.1:9/"}],"load":{"connections":4,"duration":10,"connections":10000}}',
    'load.connections',
    /twice/,
  ],
  [
    'a duplicate header in JSON',
    '{"version":1,"name":"x","targets":[{"name":"a","url":"http://127.0.0.1:9/","headers":{"X-A":"1","X-A":"2"}}],"load":{"connections":4,"duration":10}}',
    'targets.0.headers.X-A',
    /twice/,
  ],
]

describe('configs past a bound exit 2 naming the field', () => {
  it.each(bounds)('%s', async (_name, doc, field, message) => {
    await expectRefused(doc, field, message)
  })
})

describe('configs that would put something malformed on the wire exit 2 naming the field', () => {
  it.each(wire)('%s', async (_name, doc, field, message) => {
    await expectRefused(doc, field, message)
  })
})

describe('what stays allowed', () => {
  it.each<[string, Doc]>([
    ['a Host header of its own (virtual hosts)', withTarget({ headers: { Host: 'api.example' } })],
    ['Latin-1 in a header value, tabs inside', withTarget({ headers: { 'X-A': 'caf\u00e9\tb' } })],
    ['an escaped URL with a query', withTarget({ url: 'http://127.0.0.1:9/a%20b?q=1&r=%2F' })],
    ['credentials in the URL', withTarget({ url: 'http://user:p%40ss@127.0.0.1:9/' })],
    [
      'built-ins and earlier captures',
      scenario(
        step({
          name: 'login',
          path: '/login?i=${iteration}&c=${conn}',
          capture: { token: { json: 'token' } },
        }),
        step({
          name: 'me',
          path: '/me/${token}',
          headers: { Authorization: 'Bearer ${token}' },
          body: '${token}',
        }),
      ),
    ],
    [
      'the largest bounds themselves',
      config(
        {},
        {
          duration: LIMITS.scheduleSeconds,
          rate: LIMITS.maxRate,
          profile: { kind: 'burst', burstSeconds: 12.1, idleSeconds: 0 },
        },
      ),
    ],
  ])('%s', (_name, doc) => {
    expect(() => parseRunConfig(doc)).not.toThrow()
  })

  it('the wizard sees the bound on the load alone (its live preview parses only the load)', () => {
    const load = RunConfigV1Schema.shape.load.safeParse({
      connections: 4,
      duration: 3600,
      profile: { kind: 'burst', burstSeconds: 0.001, idleSeconds: 0.001 },
    })
    expect(load.success).toBe(false)
    expect(load.error?.issues[0]).toMatchObject({ path: ['profile', 'burstSeconds'] })
  })

  it('the compiler refuses an unchecked load before it allocates', () => {
    // As a stored or hand-built load could arrive, past the schema.
    const load = {
      connections: 4,
      duration: 3600,
      profile: { kind: 'burst', burstSeconds: 1e-9, idleSeconds: 0 },
    }
    expect(() => compilePlan(load as unknown as Load)).toThrow(ConfigError)
    expect(() => compilePlan(load as unknown as Load)).toThrow(/load\.profile\.burstSeconds/)
  })
})

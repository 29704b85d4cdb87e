// Bad configs through the real `cannonade run` command (in process): each exits 2 with a message
// naming its field, before anything is written. Bounds: a few bytes of config must not ask for
// unbounded work (steps, seconds, timers, bodies, counts). The wire is bad-input-wire.test.ts,
// what stays allowed bad-input-allowed.test.ts.
import { describe, it } from 'vitest'
import { refusedConfigs } from '../testing/cli.ts'
import { big, config, scenario, step, target, URL_, withTarget, type Doc } from './bad-input-configs.ts'

const expectRefused = refusedConfigs()

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

describe('configs past a bound exit 2 naming the field', () => {
  it.each(bounds)('%s', async (_name, doc, field, message) => {
    await expectRefused(doc, field, message)
  })
})

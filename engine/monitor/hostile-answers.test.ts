// Answers from outside are read within bounds (issue 29, items 1, 6, 8 and 22): every HTTP client
// a monitor or the agents' cluster API uses (Prometheus and Cloud Foundry over fetch, or node:https
// with TLS verification off; the Kubernetes API) against a server answering as a hostile one
// would. Each answer ends the call with a message naming the server, within its deadline, holding
// no more than its limit: a body past the limit, a gzip bomb, an endless body, a trickle, silence.
// A redirect is never followed: the server it points to receives nothing.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { KubeClient, loadKubeconfig } from '../kubernetes/kubernetes-client.ts'
import {
  gzipBomb,
  kubeconfigFor,
  startHostile,
  type HostileAnswer,
  type HostileServer,
} from '../testing/hostile-http.ts'
import { httpRequest } from './cf-http.ts'
import { PrometheusApi } from './prometheus-api.ts'

const dir = mkdtempSync(join(tmpdir(), 'cannonade-hostile-answers-'))
let http: HostileServer
let https: HostileServer
let elsewhere: HostileServer
let answer: HostileAnswer = {}
beforeAll(async () => {
  http = await startHostile(() => answer)
  https = await startHostile(() => answer, { https: true })
  elsewhere = await startHostile(() => ({ body: { status: 'success' } }))
  gzipBomb(64) // made now: its compression must not eat a case's deadline
})
afterAll(async () => {
  await Promise.all([http.close(), https.close(), elsewhere.close()])
  rmSync(dir, { recursive: true, force: true })
})

const MB = 1024 * 1024
/** Each hostile answer, the words its error must hold, and the limits the client is given. */
const ANSWERS: [string, () => HostileAnswer, RegExp][] = [
  ['a body past the limit', () => ({ megabytes: 6 }), /larger than 4 MB/],
  ['a gzip bomb (64 MB of zeros in a few KB)', () => ({ gzipMegabytes: 64 }), /larger than 4 MB/],
  ['an endless body', () => ({ endless: true }), /larger than 4 MB/],
  [
    'a body trickled a byte at a time',
    () => ({ body: '{"status":"success"}', trickleMs: 100 }),
    /within|no whole answer/,
  ],
  ['no answer at all', () => ({ silent: true }), /within|no answer/],
  [
    'a redirect to another server (301)',
    () => ({ status: 301, headers: { location: `${elsewhere.url}/x` } }),
    /redirect to http:\/\/127\.0\.0\.1:\d+\/x: not followed/,
  ],
  [
    'a redirect to another server (302)',
    () => ({ status: 302, headers: { location: `${elsewhere.url}/x` } }),
    /redirect .* not followed/,
  ],
  [
    'a redirect to another server (303)',
    () => ({ status: 303, headers: { location: `${elsewhere.url}/x` } }),
    /redirect .* not followed/,
  ],
  [
    'a redirect that replays the POST (307)',
    () => ({ status: 307, headers: { location: `${elsewhere.url}/api/v1/query_range` } }),
    /redirect .* not followed/,
  ],
  [
    'a redirect that replays the POST (308)',
    () => ({ status: 308, headers: { location: `${elsewhere.url}/api/v1/query_range` } }),
    /redirect .* not followed/,
  ],
  ['a redirect without a Location', () => ({ status: 302 }), /redirect to no Location: not followed/],
  [
    'a redirect to a Location that is no URL',
    () => ({ status: 307, headers: { location: 'http://[' } }),
    /no URL: not followed/,
  ],
]

describe('Prometheus answers (fetch, and node:https with verification off)', () => {
  for (const [what, make, words] of ANSWERS)
    for (const secure of [false, true]) {
      // node:https does not inflate: over it a gzipped body is the few KB it is (and no JSON).
      if (secure && what.includes('gzip')) continue
      it(`${what}${secure ? ', over TLS with skipTlsVerify' : ''}: an error naming the server, nothing sent elsewhere`, async () => {
        answer = make()
        const before = elsewhere.received.length
        const server = secure ? https : http
        const api = new PrometheusApi(
          { kind: 'prometheus', url: server.url, query: 'up', ...(secure ? { skipTlsVerify: true } : {}) },
          {},
        )
        const error = await rangeWithLimit(api, 4 * MB, deadline(what)).catch((e: Error) => e)
        expect(error).toBeInstanceOf(Error)
        expect((error as Error).message).toMatch(words)
        expect((error as Error).message).toContain(`127.0.0.1:${server.port}`)
        expect(elsewhere.received.length).toBe(before)
      })
    }
})

/** One range query with a lower answer limit than the monitors' 32 MB (the same code path). */
async function rangeWithLimit(api: PrometheusApi, maxBytes: number, timeoutMs: number): Promise<unknown> {
  return api.range({ query: 'up', start: 1, end: 1, step: 1 }, timeoutMs, maxBytes)
}

/** A short deadline where the case is about one (a trickle, silence); else room for a loaded machine. */
const deadline = (what: string) => (/trickled|no answer/.test(what) ? 600 : 20_000)

describe('Cloud Foundry requests (the same client)', () => {
  for (const [what, make, words] of ANSWERS)
    it(`${what}: refused with its words`, async () => {
      answer = make()
      const error = await httpRequest(`${http.url}/v3/apps`, {
        timeoutMs: deadline(what),
        maxBytes: 4 * MB,
      }).catch((e: Error) => e)
      expect((error as Error).message).toMatch(words)
    })
})

describe('the Kubernetes API (the monitor and the agents’ launcher)', () => {
  const client = () => {
    const file = join(dir, `kubeconfig-${Math.random().toString(16).slice(2)}`)
    writeFileSync(file, kubeconfigFor(https))
    return new KubeClient(loadKubeconfig({ KUBECONFIG: file }), { timeoutMs: 600, maxBytes: 4 * MB })
  }
  const roomy = () => {
    const file = join(dir, `kubeconfig-${Math.random().toString(16).slice(2)}`)
    writeFileSync(file, kubeconfigFor(https))
    return new KubeClient(loadKubeconfig({ KUBECONFIG: file }), { timeoutMs: 20_000, maxBytes: 4 * MB })
  }
  const K8S: [string, () => HostileAnswer, RegExp][] = [
    ['an answer past the limit', () => ({ megabytes: 6 }), /its answer is larger than 4 MB/],
    ['an endless answer', () => ({ endless: true }), /its answer is larger than 4 MB/],
    [
      'an answer trickled a byte at a time',
      () => ({ body: '{"items":[]}', trickleMs: 100 }),
      /no whole answer within 0\.6 s/,
    ],
    ['no answer', () => ({ silent: true }), /no (whole )?answer (with)?in 0\.6 s/],
    ['an answer that is not JSON', () => ({ body: '\u0000\u0001garbage' }), /^$/],
    [
      'a refusal with a 1 MB message',
      () => ({ status: 403, body: { message: 'm'.repeat(MB) } }),
      /403 .*: m{500}$/,
    ],
  ]
  for (const [what, make, words] of K8S)
    it(`${what}: ${words.source === '^$' ? 'no value, no crash' : 'an error naming the call'}`, async () => {
      answer = make()
      const got = await (/trickled|no answer/.test(what) ? client() : roomy())
        .request('GET', '/api/v1/namespaces/shop/pods')
        .then(
          (v) => ({ value: v }),
          (e: Error) => ({ error: e }),
        )
      if (words.source === '^$') return expect(got).toEqual({ value: null })
      expect('error' in got && got.error.message).toMatch(words)
    })
})

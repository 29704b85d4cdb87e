// `cannonade serve` under what issue 29's review sent it (round 3): the real command in its own
// process, its monitors pointed at stand-ins answering as hostile servers would (Prometheus bodies
// past the limit, gzip bombs, endless and trickled bodies, redirects elsewhere, values of 1e300,
// NaN times, 3,000 series and megabyte names; a Kubernetes API doing the same, exec plugins that
// hang or flood, kubeconfigs naming FIFOs and devices), token files that are FIFOs, devices,
// links out of the secrets folder or ~/.vault-token, and hostile HAR, curl and OpenAPI sources
// through scenarios:import. Each case is a monitor:test, a run (its runner under load against a
// live target) or an import: each gets an answer, no run stays running, no secret outside the
// secrets folder reaches a server, no monitor samples after its run, and afterwards serve answers,
// a plain run ends done, and every process it started is gone.
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServe, stopServe, type Served } from '../testing/process.ts'
import { hostilePrometheus, matrix } from '../testing/hostile-prometheus.ts'
import {
  execKubeconfig,
  gzipBomb,
  kubeconfigFor,
  startHostile,
  type HostileAnswer,
  type HostileServer,
  type Received,
} from '../testing/hostile-http.ts'
import { startTarget, type CountingTarget } from '../testing/target.ts'

const dir = mkdtempSync(join(tmpdir(), 'cannonade-hostile3-'))
const secrets = join(dir, 'secrets')
const outside = join(dir, 'outside')
const kubeconfig = join(dir, 'kubeconfig')
const VAULT = 'hvs.OUTSIDE-THE-FOLDER'
let serve: Served
let target: CountingTarget
let prom: HostileServer
let k8s: HostileServer
let elsewhere: HostileServer
let promAnswer: (r: Received) => HostileAnswer = () => ({})
let k8sAnswer: (r: Received) => HostileAnswer = () => ({})

beforeAll(async () => {
  mkdirSync(secrets)
  mkdirSync(outside)
  writeFileSync(join(secrets, 'token'), 'good.token\n')
  writeFileSync(join(outside, 'vault-token'), `${VAULT}\n`)
  execFileSync('mkfifo', [join(secrets, 'fifo')])
  writeFileSync(join(secrets, 'big'), '')
  truncateSync(join(secrets, 'big'), 200 * 1024 * 1024)
  symlinkSync(join(outside, 'vault-token'), join(secrets, 'link-out'))
  symlinkSync('/dev/zero', join(secrets, 'zero'))
  gzipBomb(64)
  target = await startTarget()
  prom = await startHostile((r) => promAnswer(r))
  elsewhere = await startHostile(() => ({
    body: { status: 'success', data: { resultType: 'matrix', result: [] } },
  }))
  k8s = await startHostile((r) => k8sAnswer(r), { https: true })
  writeFileSync(kubeconfig, kubeconfigFor(k8s))
  serve = await startServe(dir, { KUBECONFIG: kubeconfig, CANNONADE_SECRETS_DIR: secrets })
}, 120_000)

afterAll(async () => {
  await stopServe(serve.child)
  await Promise.all([target.close(), prom.close(), k8s.close(), elsewhere.close()])
  rmSync(dir, { recursive: true, force: true })
})

async function call(
  channel: string,
  args: unknown[],
  ms = 60_000,
): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${serve.url.origin}/api/${channel}`, {
    method: 'POST',
    headers: {
      'x-cannonade-token': serve.url.searchParams.get('token')!,
      'content-type': 'application/json',
    },
    body: JSON.stringify(args),
    signal: AbortSignal.timeout(ms),
  })
  const text = await res.text()
  return { status: res.status, body: text ? (JSON.parse(text) as unknown) : null }
}

/** Until no run is going (each is 1 s of load; a monitor that never answers is let go at its end). */
async function idle(): Promise<void> {
  for (const end = Date.now() + 60_000; Date.now() < end;) {
    const active = (await call('runs:active', [])).body
    if (Array.isArray(active) && active.length === 0) return
    await new Promise((r) => setTimeout(r, 200))
  }
  throw new Error('a run is still going after 60 s')
}

const run = (monitor: unknown) => ({
  version: 1,
  name: 'hostile monitor',
  targets: [{ name: 't', url: `${target.url}/x`, monitor }],
  load: { connections: 1, duration: 1 },
  cooldownSeconds: 0,
})

/** A monitor spec through monitor:test and through a run: both answered, the run ended, serve alive. */
async function bothWays(
  monitor: unknown,
): Promise<{ test: { ok: boolean; message: string }; status: string }> {
  const test = await call('monitor:test', [monitor])
  expect(test.status).toBe(200)
  const started = await call('runs:start', [run(monitor)])
  expect(started.status, JSON.stringify(started.body)).toBe(200)
  await idle()
  const id = (started.body as { runId: number }).runId
  const detail = (await call('runs:get', [id])).body as { status: string }
  expect(serve.child.exitCode, serve.stderr()).toBeNull()
  return { test: test.body as { ok: boolean; message: string }, status: detail.status }
}

describe('serve under hostile monitors, sources and files (issue 29)', () => {
  for (const [what, answer] of hostilePrometheus(() => elsewhere.url))
    it(`Prometheus answering ${what}`, { timeout: 120_000 }, async () => {
      promAnswer = answer
      const r = await bothWays({ kind: 'prometheus', url: prom.url, query: 'up' })
      expect(r.status).toBe('done')
    })

  const TOKEN_FILES: [string, string, RegExp | null][] = [
    ['a FIFO', join(secrets, 'fifo'), /is a FIFO/],
    ['a link to /dev/zero', join(secrets, 'zero'), /outside the secrets folder/],
    ['/dev/zero itself', '/dev/zero', /outside the secrets folder/],
    ['a 200 MB file', join(secrets, 'big'), /larger than a bearer token/],
    ['a link out of the folder', join(secrets, 'link-out'), /outside the secrets folder/],
    ['~/.vault-token (outside the folder)', join(outside, 'vault-token'), /outside the secrets folder/],
    ['the folder itself', secrets, /is a folder/],
    ['a missing file', join(secrets, 'none'), /does not exist/],
    ['/etc/shadow', '/etc/shadow', /outside the secrets folder/],
    ['a token in the folder', join(secrets, 'token'), null],
  ]
  for (const [what, file, words] of TOKEN_FILES)
    it(`a tokenFile that is ${what}`, { timeout: 120_000 }, async () => {
      promAnswer = (r) => ({ body: matrix(r, [{ metric: { job: 'a' }, v: '1' }]) })
      const r = await bothWays({ kind: 'prometheus', url: prom.url, query: 'up', tokenFile: file })
      if (words) expect(r.test).toMatchObject({ ok: false, message: expect.stringMatching(words) })
      else expect(r.test.ok).toBe(true)
      expect(r.status).toBe('done')
    })

  const KUBECONFIGS: [string, () => void, (r: Received) => HostileAnswer][] = [
    ['an endless pod list', () => {}, () => ({ endless: true })],
    ['a pod list trickled a byte at a time', () => {}, () => ({ body: '{"items":[]}', trickleMs: 1500 })],
    [
      '20,000 pods named with control characters',
      () => {},
      (r) => ({
        body: {
          items: Array.from({ length: r.path.includes('metrics') ? 0 : 20_000 }, (_, i) => ({
            metadata: { name: `p\u001b${i}` },
            status: { phase: 'Running' },
          })),
        },
      }),
    ],
    [
      'quantities of 1e400',
      () => {},
      (r) => ({
        body: {
          items: [
            r.path.includes('metrics')
              ? { metadata: { name: 'a' }, containers: [{ usage: { cpu: '1e400', memory: '1e400' } }] }
              : {
                  metadata: { name: 'a' },
                  spec: { containers: [{ resources: { limits: { cpu: '1e400', memory: '9e999Ei' } } }] },
                },
          ],
        },
      }),
    ],
    ['a refusal of 1 MB', () => {}, () => ({ status: 403, body: { message: 'm'.repeat(1 << 20) } })],
    [
      'an exec plugin that takes 5 s',
      () =>
        writeFileSync(
          kubeconfig,
          execKubeconfig(
            k8s,
            dir,
            `await new Promise((r) => setTimeout(r, 5000)); console.log(JSON.stringify({ status: { token: 'x' } }))`,
          ),
        ),
      () => ({ body: { items: [] } }),
    ],
    [
      'an exec plugin that floods its output',
      () => writeFileSync(kubeconfig, execKubeconfig(k8s, dir, `process.stdout.write('x'.repeat(8 << 20))`)),
      () => ({ body: { items: [] } }),
    ],
    [
      'a tokenFile that is a FIFO',
      () =>
        writeFileSync(
          kubeconfig,
          kubeconfigFor(k8s).replace(
            'user: { token: hostile-token }',
            `user: { tokenFile: ${join(secrets, 'fifo')} }`,
          ),
        ),
      () => ({ body: { items: [] } }),
    ],
    [
      'a certificate-authority of /dev/zero',
      () =>
        writeFileSync(
          kubeconfig,
          kubeconfigFor(k8s).replace(/certificate-authority-data: \S+/, 'certificate-authority: /dev/zero'),
        ),
      () => ({ body: { items: [] } }),
    ],
    [
      'a kubeconfig that is a FIFO',
      () => (rmSync(kubeconfig), execFileSync('mkfifo', [kubeconfig])),
      () => ({ body: { items: [] } }),
    ],
    [
      'a kubeconfig of null clusters',
      () =>
        writeFileSync(
          kubeconfig,
          'current-context: h\nclusters: [null, 7]\ncontexts: [{ name: h, context: null }]\n',
        ),
      () => ({}),
    ],
  ]
  for (const [what, setup, answer] of KUBECONFIGS)
    it(`Kubernetes: ${what}`, { timeout: 120_000 }, async () => {
      rmSync(kubeconfig, { force: true })
      writeFileSync(kubeconfig, kubeconfigFor(k8s))
      setup()
      k8sAnswer = answer
      // Whatever the plugin or the API does, serve answers other calls meanwhile.
      const pending = call('monitor:test', [{ kind: 'kubernetes', selector: 'app=x' }])
      const list = await call('runs:list', [{}], 3000)
      expect(list.status).toBe(200)
      expect((await pending).status).toBe(200)
      const r = await bothWays({ kind: 'kubernetes', selector: 'app=x' })
      expect(r.status).toBe('done')
      rmSync(kubeconfig, { force: true })
      writeFileSync(kubeconfig, kubeconfigFor(k8s))
    })

  const openapi = (paths: Record<string, unknown>, more = {}) =>
    JSON.stringify({ openapi: '3.0.0', paths, ...more })
  const op = { get: { responses: {} } }
  const SELF = {
    components: {
      schemas: {
        N: {
          type: 'object',
          required: ['a', 'b', 'c', 'd', 'e'],
          properties: Object.fromEntries(
            ['a', 'b', 'c', 'd', 'e'].map((k) => [k, { $ref: '#/components/schemas/N' }]),
          ),
        },
      },
    },
  }
  const IMPORTS: [string, Record<string, unknown>][] = [
    ...['@evil.example/x', 'http://evil/x', '//evil/x', 'evil.example/x', '#@evil/x'].map(
      (p): [string, Record<string, unknown>] => [
        `OpenAPI path ${p}`,
        { kind: 'openapi', text: openapi({ [p]: op, '/ok': op }), base: 'http://127.0.0.1:9' },
      ],
    ),
    [
      'OpenAPI with five self-referencing properties',
      {
        kind: 'openapi',
        text: openapi(
          {
            '/x': {
              post: {
                requestBody: {
                  content: { 'application/json': { schema: { $ref: '#/components/schemas/N' } } },
                },
                responses: {},
              },
            },
          },
          SELF,
        ),
        base: 'http://127.0.0.1:9',
      },
    ],
    [
      'OpenAPI with a password in base',
      { kind: 'openapi', text: openapi({ '/x': op }), base: 'http://a:S3CRET@127.0.0.1:9' },
    ],
    ['curl with \\U7FFFFFFF', { kind: 'curl', text: "curl $'http://127.0.0.1:9/\\U7FFFFFFF'" }],
    [
      'curl with -K and a URL password',
      { kind: 'curl', text: "curl -K x.conf 'http://a:S3CRET@127.0.0.1:9/x?sig=S3CRET'" },
    ],
    [
      '30,000 identical HAR requests (within the API’s 4 MB)',
      {
        kind: 'har',
        text: JSON.stringify({
          log: {
            entries: Array.from({ length: 30_000 }, () => ({
              request: { method: 'GET', url: 'http://127.0.0.1:9/s', headers: [] },
              response: { status: 200 },
            })),
          },
        }),
      },
    ],
    [
      'a HAR request with a 9 KB URL beside a good one',
      {
        kind: 'har',
        text: JSON.stringify({
          log: {
            entries: ['/ok', `/${'a'.repeat(9216)}`].map((p) => ({
              request: { method: 'GET', url: `http://127.0.0.1:9${p}`, headers: [] },
              response: { status: 200 },
            })),
          },
        }),
      },
    ],
    [
      'a HAR JSON body with a list of passwords',
      {
        kind: 'har',
        text: JSON.stringify({
          log: {
            entries: [
              {
                request: {
                  method: 'POST',
                  url: 'http://127.0.0.1:9/l',
                  headers: [],
                  postData: { mimeType: 'application/json', text: '{"password":["S3CRET"]}' },
                },
                response: { status: 200 },
              },
            ],
          },
        }),
      },
    ],
  ]
  for (const [what, source] of IMPORTS)
    it(
      `scenarios:import of ${what}: an answer, on 127.0.0.1:9 only, no secret kept`,
      { timeout: 120_000 },
      async () => {
        const r = await call('scenarios:import', [source])
        expect([400, 200]).toContain(r.status)
        const text = JSON.stringify(r.body)
        expect(text).not.toContain('S3CRET')
        if (r.status === 200) {
          const hosts = (r.body as { config: { targets: { url: string }[] } }).config.targets.map(
            (t) => new URL(t.url).host,
          )
          expect(new Set(hosts)).toEqual(new Set(['127.0.0.1:9']))
        }
        expect(serve.child.exitCode).toBeNull()
      },
    )

  it(
    'afterwards: no secret outside the folder reached a server, no monitor samples on, and serve runs a plain run to done',
    { timeout: 120_000 },
    async () => {
      const seen = [...prom.received, ...elsewhere.received, ...k8s.received]
      expect(seen.some((r) => JSON.stringify(r.headers).includes(VAULT))).toBe(false)
      expect(elsewhere.received).toEqual([])
      // No monitor of an ended run samples any more: the stand-ins hear nothing for 3 s.
      await idle()
      const before = prom.received.length + k8s.received.length
      await new Promise((r) => setTimeout(r, 3000))
      expect(prom.received.length + k8s.received.length).toBe(before)
      const list = (await call('runs:list', [{}])).body as { items: { status: string }[] }
      expect(list.items.filter((r) => r.status === 'running')).toEqual([])
      const plain = await call('runs:start', [{ ...run(undefined), name: 'plain' }])
      await idle()
      const detail = (await call('runs:get', [(plain.body as { runId: number }).runId])).body as {
        status: string
      }
      expect(detail.status).toBe('done')
      expect(serve.child.exitCode).toBeNull()
    },
  )
})

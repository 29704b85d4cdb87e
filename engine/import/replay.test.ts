// What an imported config puts on the wire: curl commands as Chromium and Firefox copy them, and
// targets/openapi.yaml, each imported, parsed by the engine's schema and run for a second against a
// raw target that logs every request's bytes. Every request it got is one of the imported ones
// (method, path, headers, body, byte for byte once the masked secrets are given as
// CANNONADE_SECRET_… values), each of them arrived, in order, and nothing else was sent but the
// headers Cannonade sets itself.
import { readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { ConfigError } from '../config/errors.ts'
import { parseRunConfigText } from '../config/load.ts'
import { startRawTarget, type RawTarget } from '../testing/raw-http.ts'
import { runConfig } from '../testing/run-config.ts'
import {
  chromiumRequests,
  curlFixture,
  firefoxRequests,
  stepRequests,
  type Expected,
} from './fixtures/requests.ts'
import { importScenario } from './index.ts'

/** Headers Cannonade writes on every request itself (the import leaves them out, and says so). */
const OWN = new Set(['host', 'connection', 'content-length', 'x-correlation-id'])

/** A logged request's method, path, headers (Cannonade's own aside) and body. */
function parse(raw: Buffer): Expected & { own: string[] } {
  const end = raw.indexOf('\r\n\r\n')
  const [line, ...fields] = raw.subarray(0, end).toString('latin1').split('\r\n')
  const [method, path] = line!.split(' ')
  const headers: Record<string, string> = {}
  const own: string[] = []
  for (const field of fields) {
    const colon = field.indexOf(':')
    const name = field.slice(0, colon).toLowerCase()
    if (OWN.has(name)) own.push(name)
    else headers[name] = field.slice(colon + 1).trim()
  }
  const body = raw.subarray(end + 4)
  return { method: method!, path: path!, headers, body: body.length ? body.toString('utf8') : null, own }
}

let target: RawTarget | null = null
afterEach(async () => {
  await target?.close()
  target = null
})

/** Run `yaml` (an import's output, read as a user's file would be) for a second, one connection. */
async function replay(
  yaml: string,
  secrets: Record<string, string>,
): Promise<(Expected & { own: string[] })[]> {
  const config = parseRunConfigText(yaml, 'yaml', 'the imported config')
  const { summary } = await runConfig(
    { ...config, load: { connections: 1, duration: 1 }, rounds: 1, cooldownSeconds: 0 },
    undefined,
    {},
    undefined,
    { secrets },
  )
  expect(summary.status).toBe('done')
  return target!.requests.map(parse)
}

function expectReplayed(got: (Expected & { own: string[] })[], want: Expected[]): void {
  expect(got.length).toBeGreaterThanOrEqual(want.length)
  // The first pass, in order; then every request is one of them (the loop repeats the steps).
  expect(got.slice(0, want.length).map(({ own: _own, ...r }) => r)).toEqual(want)
  for (const [i, r] of got.entries()) {
    const { own, ...request } = r
    expect(want, `request ${i}`).toContainEqual(request)
    expect(own.sort(), `request ${i}`).toEqual(
      ['connection', 'host', 'x-correlation-id', ...(request.body !== null ? ['content-length'] : [])].sort(),
    )
  }
}

describe('an imported config, run, sends what was imported', () => {
  it("Chromium's copy of three requests, its cookie, CSRF and bearer tokens given as secrets", async () => {
    target = await startRawTarget()
    const made = importScenario('curl', [curlFixture('chromium', target.port)])
    const got = await replay(made.yaml, {
      CANNONADE_SECRET_COOKIE: 'session=3f9a1c0e7b; theme=dark',
      CANNONADE_SECRET_X_CSRF_TOKEN: '9c1d2e4f',
      CANNONADE_SECRET_AUTHORIZATION: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI3In0.c2lnbmF0dXJl',
    })
    expectReplayed(got, chromiumRequests(target.port))
  })

  it("Firefox's copy of two requests, a form login's password given as a secret", async () => {
    target = await startRawTarget()
    const made = importScenario('curl', [curlFixture('firefox', target.port)])
    const got = await replay(made.yaml, {
      CANNONADE_SECRET_COOKIE: 'session=3f9a1c0e7b',
      CANNONADE_SECRET_PASSWORD: 'hunter2%21',
    })
    expectReplayed(got, firefoxRequests(target.port))
  })

  it("targets/openapi.yaml: one request per operation, as the document's examples say", async () => {
    target = await startRawTarget()
    const doc = readFileSync(new URL('../../targets/openapi.yaml', import.meta.url), 'utf8')
    const made = importScenario('openapi', [doc], { base: `${target.url}/v1` })
    const values = { password: 'secret-1', authorization: 'token-42' }
    const steps = made.config.targets[0]!.steps!
    const want = stepRequests(steps, values).map((r) => ({ ...r, path: `/v1${r.path}` }))
    // The document's own words, written out: what each operation's request must be.
    expect(want.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /v1/health',
      'GET /v1/ads?limit=20&offset=0&format=json',
      'POST /v1/ads',
      'GET /v1/ads/1',
      'GET /v1/compute?iterations=1000',
      'GET /v1/payload?bytes=1024',
      'POST /v1/payload',
      'POST /v1/users',
      'POST /v1/login',
      'GET /v1/me',
    ])
    expect(want[2]!.body).toBe('{"title":"Bicycle","body":"Blue, 28 inch, hardly used","price":120.5}')
    expect(want[7]).toMatchObject({
      headers: { 'content-type': 'application/json' },
      body: '{"username":"user-1","password":"secret-1"}',
    })
    expect(want[9]!.headers).toEqual({ authorization: 'Bearer token-42' })
    const got = await replay(made.yaml, {
      CANNONADE_SECRET_PASSWORD: values.password,
      CANNONADE_SECRET_AUTHORIZATION: values.authorization,
    })
    expectReplayed(got, want)
  })

  it('refuses to start while a secret it uses is not set, naming its variable and not the value', async () => {
    target = await startRawTarget()
    const made = importScenario('curl', [curlFixture('firefox', target.port)])
    let error: unknown
    try {
      await replay(made.yaml, { CANNONADE_SECRET_COOKIE: 'session=3f9a1c0e7b' })
    } catch (err) {
      error = err
    }
    expect(error).toBeInstanceOf(ConfigError)
    expect((error as ConfigError).issues).toEqual([
      {
        field: 'targets.0.secrets.password',
        message: expect.stringMatching(/^CANNONADE_SECRET_PASSWORD is not set/) as unknown,
      },
    ])
    expect(target.requests).toHaveLength(0)
  })
})

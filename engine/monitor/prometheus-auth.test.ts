// The prometheus monitor's side of the exchange, against a stand-in of Prometheus' HTTP API in this
// process that records what reached it: the bearer token from a variable named for Cannonade or a
// file (re-read when refused), never sent from a file that holds anything but a token, never in a
// message; the form it posts; answers that are not Prometheus'; and the spec's validation.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createMonitor, testMonitor } from './index.ts'
import { createEngine } from '../host/index.ts'
import { tempDbPath } from '../testing/run-config.ts'
import type { PrometheusMonitorSpec } from '../config/schema-monitor.ts'

interface Seen {
  authorization: string | undefined
  form: URLSearchParams
  path: string
}

let server: Server | undefined
afterEach(async () => {
  server?.closeAllConnections()
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()))
  server = undefined
})

/** A stand-in answering every query_range with one series of 7, to the tokens `accept` allows. */
async function standIn(
  accept: (authorization: string | undefined) => boolean,
  raw?: { status: number; body: string },
) {
  const seen: Seen[] = []
  server = createServer((req, res) => {
    let body = ''
    req.on('data', (c: Buffer) => (body += c.toString()))
    req.on('end', () => {
      const form = new URLSearchParams(body)
      seen.push({ authorization: req.headers.authorization, form, path: req.url ?? '' })
      if (raw) {
        res.writeHead(raw.status, { 'content-type': 'text/html' })
        return res.end(raw.body)
      }
      if (!accept(req.headers.authorization)) {
        res.writeHead(401, { 'content-type': 'text/plain' })
        return res.end('Unauthorized')
      }
      const start = Number(form.get('start'))
      const end = Number(form.get('end'))
      const step = Number(form.get('step'))
      const values: [number, string][] = []
      for (let t = start; t <= end; t += step) values.push([t, '7'])
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(
        JSON.stringify({
          status: 'success',
          data: { resultType: 'matrix', result: [{ metric: { job: 'shop' }, values }] },
        }),
      )
    })
  })
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/prom`, seen }
}

const spec = (url: string, more: Partial<PrometheusMonitorSpec> = {}): PrometheusMonitorSpec => ({
  kind: 'prometheus',
  url,
  query: 'up',
  ...more,
})

async function startStop(
  s: PrometheusMonitorSpec,
  secrets: Record<string, string> = {},
  secretsDir?: string,
) {
  const m = createMonitor(s, 't', { secrets, ...(secretsDir ? { secretsDir } : {}) })
  try {
    await m.start(
      () => {},
      () => {},
    )
  } finally {
    await m.stop()
  }
}

describe('prometheus monitor: tokens, the form it posts, answers that are not Prometheus’', () => {
  it('posts a range query on the whole-step grid to {url}/api/v1/query_range with the token of a Cannonade variable', async () => {
    const api = await standIn((a) => a === 'Bearer tok-from-secrets')
    await startStop(spec(api.url, { tokenEnv: 'PROMETHEUS_TOKEN' }), { PROMETHEUS_TOKEN: 'tok-from-secrets' })
    expect(api.seen.length).toBeGreaterThanOrEqual(1)
    const first = api.seen[0]!
    expect(first.path).toBe('/prom/api/v1/query_range')
    expect(first.authorization).toBe('Bearer tok-from-secrets')
    expect(first.form.get('query')).toBe('up')
    expect(first.form.get('step')).toBe('1')
    expect(Number(first.form.get('start')) % 1).toBe(0)
    expect(first.form.get('start')).toBe(first.form.get('end'))
  })

  it('the engine host’s Test button sends the token of the secrets handed to it (the desktop app’s keychain)', async () => {
    const api = await standIn((a) => a === 'Bearer from-the-keychain')
    const host = await createEngine({
      dbPath: tempDbPath(),
      secrets: () => ({ PROMETHEUS_TOKEN: 'from-the-keychain' }),
    })
    try {
      const r = await host.monitor.test(spec(api.url, { tokenEnv: 'PROMETHEUS_TOKEN' }))
      expect(r).toMatchObject({ ok: true, instances: 1, message: '1 series: {job="shop"} (value 7)' })
    } finally {
      await host.close()
    }
  })

  it('sends no token unless the spec names one; a refused token is an auth error that never shows it', async () => {
    const open = await standIn(() => true)
    await startStop(spec(open.url))
    expect(open.seen.every((s) => s.authorization === undefined)).toBe(true)
    await afterEachClose()
    const api = await standIn((a) => a === 'Bearer right')
    const refused = createMonitor(spec(api.url, { tokenEnv: 'CANNONADE_PROM' }), 't', {
      secrets: { CANNONADE_PROM: 'wrong-secret-xyz' },
    })
    const error = await refused
      .start(
        () => {},
        () => {},
      )
      .catch((e: Error) => e)
    expect(error).toMatchObject({ code: 'auth', message: expect.stringContaining('refused the query (401)') })
    expect(String((error as Error).message)).not.toContain('wrong-secret-xyz')
    const none = createMonitor(spec(api.url, { tokenEnv: 'CANNONADE_UNSET_TOKEN' }), 't')
    await expect(
      none.start(
        () => {},
        () => {},
      ),
    ).rejects.toMatchObject({
      code: 'auth',
      message: 'no token: set CANNONADE_UNSET_TOKEN (monitor.tokenEnv)',
    })
  })

  it('reads a token file, and reads it again when the token is refused (a rotated service-account token)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cannonade-prom-token-'))
    const file = join(dir, 'token')
    writeFileSync(file, 'first-token\n')
    let accepted = 'Bearer first-token'
    const api = await standIn((a) => a === accepted)
    const m = createMonitor(spec(api.url, { tokenFile: file }), 't', { intervalMs: 100, secretsDir: dir })
    const errors: Error[] = []
    let samples = 0
    await m.start(
      () => samples++,
      (e) => errors.push(e),
    )
    writeFileSync(file, 'second-token')
    accepted = 'Bearer second-token'
    const before = samples
    while (samples === before) await new Promise((r) => setTimeout(r, 20))
    await m.stop()
    expect(errors).toEqual([])
    const tokens = api.seen.map((s) => s.authorization)
    expect(tokens[0]).toBe('Bearer first-token')
    expect(tokens.at(-1)).toBe('Bearer second-token')
  })

  it('refuses to send a token file that holds anything but a token, without a word of what it holds', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cannonade-prom-token-'))
    const api = await standIn(() => true)
    for (const content of [
      '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\n',
      '[default]\naws_secret_access_key = abcdSECRETxyz\n',
      'https://user:ghp_SECRET@github.com\n',
      '',
    ]) {
      const file = join(dir, `f${content.length}`)
      writeFileSync(file, content)
      const error = await startStop(spec(api.url, { tokenFile: file }), {}, dir).catch((e: Error) => e)
      expect(error).toMatchObject({
        code: 'config',
        message: expect.stringContaining('does not hold a bearer token'),
      })
      expect((error as Error).message).not.toMatch(/SECRET|OPENSSH|b3Bl/)
    }
    const missing = await startStop(spec(api.url, { tokenFile: join(dir, 'none') }), {}, dir).catch(
      (e: Error) => e,
    )
    expect(missing).toMatchObject({
      code: 'config',
      message: expect.stringContaining('none does not exist'),
    })
    expect(api.seen).toEqual([])
  })

  it('names the server and status of an answer that is not Prometheus’ (a proxy’s error page)', async () => {
    const api = await standIn(() => true, { status: 502, body: '<html>Bad Gateway</html>' })
    await expect(startStop(spec(api.url))).rejects.toMatchObject({
      code: 'bad-response',
      message: expect.stringMatching(
        /Prometheus at http:\/\/127\.0\.0\.1:\d+\/prom: unexpected answer to query_range \(502\): <html>Bad Gateway/,
      ),
    })
  })
})

async function afterEachClose(): Promise<void> {
  server?.closeAllConnections()
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()))
  server = undefined
}

describe('prometheus monitor spec', () => {
  const cases: [string, Record<string, unknown>, RegExp][] = [
    [
      'query and preset',
      { query: 'up', preset: 'jvm' },
      /monitor\.query: set exactly one of query \(any PromQL\) or preset/,
    ],
    ['neither', {}, /monitor\.query: set exactly one of query/],
    [
      'an unknown preset',
      { preset: 'dotnet' },
      /monitor\.preset: preset must be 'container', 'host', 'jvm' or 'nodejs'/,
    ],
    ['a name with a preset', { preset: 'jvm', name: 'x' }, /monitor\.name: name is a query's series name/],
    ['a bad name', { query: 'up', name: 'heap bytes' }, /monitor\.name: name must be letters, digits and _/],
    [
      'a bad rate window',
      { preset: 'host', rateWindow: '5 minutes' },
      /monitor\.rateWindow: rateWindow must be a Prometheus duration/,
    ],
    [
      'a bad label name',
      { preset: 'host', labels: { 'app.kubernetes.io/name': 'x' } },
      /labels: a label name is letters/,
    ],
    [
      'a token in the config',
      { query: 'up', token: 'abc' },
      /unknown field monitor\.token \(secrets are never stored/,
    ],
    [
      'a variable not named for Cannonade',
      { query: 'up', tokenEnv: 'AWS_SECRET_ACCESS_KEY' },
      /monitor\.tokenEnv: tokenEnv must be one of .*PROMETHEUS_TOKEN or start with CANNONADE_/,
    ],
    [
      'both token sources',
      { query: 'up', tokenEnv: 'PROMETHEUS_TOKEN', tokenFile: '/t' },
      /set at most one of tokenEnv or tokenFile/,
    ],
    ['a relative token file', { query: 'up', tokenFile: 'token' }, /tokenFile must be an absolute path/],
    [
      'a token over plain http to another host',
      { url: 'http://prometheus.example:9090', query: 'up', tokenEnv: 'PROMETHEUS_TOKEN' },
      /monitor\.url: url must be https:\/\/ when a token is sent/,
    ],
    [
      'not a URL',
      { url: 'prometheus:9090', query: 'up' },
      /monitor\.url: url must be the http\(s\) URL of a Prometheus server/,
    ],
    [
      'a password in the URL',
      { url: 'https://admin:hunter2@prometheus.example', query: 'up' },
      /monitor\.url: url must not hold a user or password \(secrets are never stored/,
    ],
  ]
  for (const [what, fields, message] of cases) {
    it(`refuses ${what}, naming the field`, async () => {
      const r = await testMonitor({ kind: 'prometheus', url: 'http://127.0.0.1:9', ...fields })
      expect(r).toMatchObject({ ok: false, code: 'config' })
      expect(r.message).toMatch(message)
    })
  }
})

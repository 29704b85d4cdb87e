// HAR files into scenario steps: a page's own requests kept in the order they started, static
// assets and other sites left out unless asked for, what a step cannot replay always left out and
// said; and the HAR Chromium recorded of the app's own web mode (e2e/fixtures/web-mode.har, made by
// e2e/import.e2e.ts with Playwright's recordHar) read into the Api calls the page made.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { ConfigError } from '../config/errors.ts'
import { parseRunConfigText } from '../config/load.ts'
import { siteOf } from './har.ts'
import { importScenario } from './index.ts'

interface EntryOpts {
  method?: string
  headers?: Record<string, string> | [string, string][]
  body?: string
  status?: number
  mime?: string
  type?: string
  at?: number
}

/** One HAR entry as browsers write it. */
function entry(url: string, o: EntryOpts = {}): Record<string, unknown> {
  const headers = Array.isArray(o.headers) ? o.headers : Object.entries(o.headers ?? {})
  return {
    startedDateTime: new Date(Date.UTC(2025, 0, 1, 12, 0, 0, o.at ?? 0)).toISOString(),
    ...(o.type ? { _resourceType: o.type } : {}),
    request: {
      method: o.method ?? 'GET',
      url,
      httpVersion: 'HTTP/1.1',
      headers: headers.map(([name, value]) => ({ name, value })),
      queryString: [],
      cookies: [],
      headersSize: -1,
      bodySize: o.body?.length ?? 0,
      ...(o.body !== undefined ? { postData: { mimeType: 'application/json', text: o.body } } : {}),
    },
    response: { status: o.status ?? 200, content: { size: 0, mimeType: o.mime ?? 'application/json' } },
  }
}

const har = (entries: unknown[]) =>
  JSON.stringify({ log: { version: '1.2', creator: { name: 't' }, entries } })
const paths = (text: string, opts = {}) =>
  importScenario('har', [text], opts).config.targets.map((t) => [t.name, ...t.steps!.map((s) => s.path)])

/** A shop page: its document, assets, API calls, an analytics call and a WebSocket, out of order. */
const SHOP = har([
  entry('https://www.shop.example/api/cart', {
    at: 40,
    method: 'POST',
    body: '{"id":7}',
    headers: { 'Content-Type': 'application/json' },
  }),
  entry('https://www.shop.example/', { at: 0, type: 'document', mime: 'text/html' }),
  entry('https://www.shop.example/assets/app.3f9a.js', { at: 10, type: 'script', mime: 'text/javascript' }),
  entry('https://www.shop.example/assets/app.css', { at: 11, mime: 'text/css' }),
  entry('https://cdn.shop.example/logo.svg', { at: 12, mime: 'image/svg+xml' }),
  entry('https://www.shop.example/fonts/inter.woff2', { at: 13, mime: 'application/octet-stream' }),
  entry('https://api.shop.example/v1/items?page=1', { at: 20, type: 'fetch' }),
  entry('https://www.google-analytics.com/g/collect?v=2', { at: 30, method: 'POST', status: 204, mime: '' }),
  entry('wss://www.shop.example/live', { at: 35, type: 'websocket', status: 101 }),
  entry('https://www.shop.example/api/slow', { at: 45, status: 0 }),
  entry('data:image/png;base64,AAAA', { at: 46, mime: 'image/png' }),
])

describe('a HAR file', () => {
  it("keeps the page's own requests in the order they started, a target per origin of its site", () => {
    const made = importScenario('har', [SHOP])
    expect(
      made.config.targets.map((t) => [t.name, t.url, t.steps!.map((s) => `${s.method} ${s.path}`)]),
    ).toEqual([
      ['www.shop.example', 'https://www.shop.example', ['GET /', 'POST /api/cart']],
      ['api.shop.example', 'https://api.shop.example', ['GET /v1/items?page=1']],
    ])
    const notes = made.notes.join('\n')
    expect(notes).toMatch(/left out 4 static assets .*keep static assets to replay them/)
    expect(notes).toMatch(
      /left out 1 request to other sites \(www\.google-analytics\.com\): keep other sites' requests/,
    )
    expect(notes).toMatch(/left out 1 WebSocket/)
    expect(notes).toMatch(/left out 1 request the browser got no answer to/)
    expect(notes).toMatch(/left out 1 request that was not http or https/)
  })

  it('keeps static assets and other sites when asked, each site a target of its own', () => {
    expect(paths(SHOP, { keepStatic: true })[0]).toEqual([
      'www.shop.example',
      '/',
      '/assets/app.3f9a.js',
      '/assets/app.css',
      '/fonts/inter.woff2',
      '/api/cart',
    ])
    expect(paths(SHOP, { keepThirdParty: true }).map((t) => t[0])).toEqual([
      'www.shop.example',
      'api.shop.example',
      'www.google-analytics.com',
    ])
    // A non-2xx status the recording got is what the step expects.
    const analytics = importScenario('har', [SHOP], { keepThirdParty: true }).config.targets[2]!.steps![0]!
    expect(analytics).toMatchObject({ method: 'POST', path: '/g/collect?v=2' })
    expect(analytics.expectStatus).toBeUndefined()
  })

  it('sends the headers as a step may: pseudo-headers, framing and Host out, HTTP/2 cookies joined, secrets masked', () => {
    const text = har([
      entry('https://app.example/api/me?access_token=abc123', {
        headers: [
          [':authority', 'app.example'],
          [':method', 'GET'],
          [':path', '/api/me'],
          ['accept', 'application/json'],
          ['cookie', 'sid=s3cret'],
          ['cookie', 'theme=dark'],
          ['content-length', '0'],
          ['x-correlation-id', 'abc'],
          ['host', 'app.example'],
          ['x-api-key', 'k-42'],
        ],
        status: 304,
      }),
    ])
    const made = importScenario('har', [text])
    const target = made.config.targets[0]!
    expect(target.steps![0]).toMatchObject({
      path: '/api/me?access_token=${access_token}',
      headers: { accept: 'application/json', cookie: '${cookie}', 'x-api-key': '${x_api_key}' },
    })
    // A 304 is a success by default (200–399): nothing to expect of it.
    expect(target.steps![0]!.expectStatus).toBeUndefined()
    expect(Object.keys(target.steps![0]!.headers)).toHaveLength(3)
    expect(target.secrets).toEqual({
      access_token: 'CANNONADE_SECRET_ACCESS_TOKEN',
      cookie: 'CANNONADE_SECRET_COOKIE',
      x_api_key: 'CANNONADE_SECRET_X_API_KEY',
    })
    expect(made.secrets.find((s) => s.variable === 'cookie')?.where).toEqual([
      'step "GET /api/me" header cookie',
    ])
    expect(made.yaml).not.toMatch(/s3cret|abc123|k-42/)
    expect(made.notes.join('\n')).toMatch(/left out the headers content-length, host, x-correlation-id/)
  })

  it('masks password fields of JSON and form bodies, keeping the rest byte for byte', () => {
    const text = har([
      entry('http://127.0.0.1:8080/login', {
        method: 'POST',
        body: '{ "user": "bob",\n  "password": "p\\"w",  "remember": true }',
      }),
    ])
    const step = importScenario('har', [text]).config.targets[0]!.steps![0]!
    expect(step.body).toBe('{ "user": "bob",\n  "password": "${password}",  "remember": true }')
  })

  it('writes YAML the engine reads back as the same config', () => {
    const made = importScenario('har', [SHOP], { keepStatic: true, keepThirdParty: true })
    expect(parseRunConfigText(made.yaml, 'yaml')).toEqual(made.config)
  })

  it.each<[string, string, RegExp]>([
    ['not JSON', '<html>', /is not a HAR file: not JSON/],
    ['JSON that is no HAR', '{"openapi":"3.0.0"}', /log: is missing: this is not a HAR file/],
    ['a list', '[1,2]', /is not a HAR file: a HAR file is a JSON object/],
    ['entries that are not a list', '{"log":{"entries":{}}}', /log\.entries: must be a list of requests/],
    [
      'an entry without a URL',
      har([{ request: { method: 'GET', headers: [] } }]),
      /log\.entries\.0\.request\.url/,
    ],
    [
      'a URL that is none',
      har([entry('http://h/a'), entry('::nope')]),
      /log\.entries\.1\.request\.url: is not a URL/,
    ],
    ['no requests', har([]), /log\.entries: is empty/],
    [
      'only assets',
      har([entry('http://h/a.js', { mime: 'text/javascript' })]),
      /holds no request to replay \(left out 1 static asset/,
    ],
  ])('refuses %s, naming what is wrong', (_name, text, message) => {
    let error: unknown
    try {
      importScenario('har', [text])
    } catch (err) {
      error = err
    }
    expect(error).toBeInstanceOf(ConfigError)
    expect((error as Error).message).toMatch(message)
  })
})

describe('siteOf', () => {
  it.each([
    ['www.shop.example', 'shop.example'],
    ['api.eu.shop.example', 'shop.example'],
    ['shop.co.uk', 'shop.co.uk'],
    ['www.shop.co.uk', 'shop.co.uk'],
    ['127.0.0.1', '127.0.0.1'],
    ['[::1]', '::1'],
    ['localhost', 'localhost'],
  ])('%s is on %s', (host, site) => {
    expect(siteOf(host)).toBe(site)
  })
})

describe("the HAR Chromium recorded of the app's web mode", () => {
  it("becomes the page and the Api calls it made, the session token masked, the app's assets left out", () => {
    const text = readFileSync(new URL('../../e2e/fixtures/web-mode.har', import.meta.url), 'utf8')
    const made = importScenario('har', [text])
    expect(made.config.targets).toHaveLength(1)
    const steps = made.config.targets[0]!.steps!
    const calls = steps.filter((s) => s.path.startsWith('/api/'))
    expect(calls.length).toBeGreaterThan(3)
    for (const call of calls) {
      expect(call.method).toBe('POST')
      expect(call.headers['x-cannonade-token']).toBe('${x_cannonade_token}')
      expect(call.headers['content-type']).toBe('application/json')
    }
    expect(calls.map((s) => s.path)).toEqual(expect.arrayContaining(['/api/runs:list', '/api/settings:get']))
    expect(steps.some((s) => /\.(js|css)$/.test(s.path.split('?')[0]!))).toBe(false)
    expect(made.notes.join('\n')).toMatch(/left out \d+ static assets?/)
    // The page's URL carried the token too: masked in the query.
    expect(steps[0]!.path).toMatch(/^\/\?token=\$\{token\}$/)
    const pageUrl = (JSON.parse(text) as { log: { entries: { request: { url: string } }[] } }).log.entries[0]!
      .request.url
    expect(made.yaml).not.toContain(new URL(pageUrl).searchParams.get('token'))
  })
})

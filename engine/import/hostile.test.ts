// Imports read hostile sources as input, not authority (issue 29, items 11, 12, 13, 19, 20, 21):
// no OpenAPI path, base or curl line makes a target on a host the source does not name in the
// open; no secret the source holds stays in the config (query parameters by redact.ts's rule, JSON
// values at any depth, a URL's user and password); a malformed escape or path is bad input (a
// ConfigError: exit 2), never a raw error; one oversized request is left out, not the import;
// options that change what curl sends are said; and self-referencing schemas stay small.
import { describe, expect, it } from 'vitest'
import { ConfigError } from '../config/errors.ts'
import { importScenario, type ImportKind } from './index.ts'

const BASE = 'http://127.0.0.1:9'
const openapi = (paths: Record<string, unknown>, more: Record<string, unknown> = {}) =>
  JSON.stringify({ openapi: '3.0.3', info: { title: 't' }, paths, ...more })
const op = { get: { responses: {} } }
const har = (entries: { url: string; headers?: [string, string][]; body?: string; mime?: string }[]) =>
  JSON.stringify({
    log: {
      entries: entries.map((e) => ({
        request: {
          method: e.body ? 'POST' : 'GET',
          url: e.url,
          headers: (e.headers ?? []).map(([name, value]) => ({ name, value })),
          ...(e.body ? { postData: { mimeType: e.mime ?? 'application/json', text: e.body } } : {}),
        },
        response: { status: 200, content: { mimeType: 'application/json' } },
      })),
    },
  })

const hosts = (kind: ImportKind, text: string, base?: string) =>
  importScenario(kind, [text], base ? { base } : {}).config.targets.map((t) => new URL(t.url).host)

describe('no import changes a target’s host', () => {
  const PATHS = [
    '@evil.example/x',
    '@evil.example:80/x',
    'evil.example/x',
    'http://evil/x',
    'https://evil.example/x',
    '//evil.example/x',
    '\\\\evil.example\\x',
    ':@evil.example/x',
    '.evil.example/x',
    '#@evil.example/x',
    '?@evil.example/x',
    '%40evil.example/x',
    ' /x',
    '',
  ]
  for (const path of PATHS)
    it(`an OpenAPI path ${JSON.stringify(path)} is left out, the target stays on --base`, () => {
      const text = openapi({ [path]: op, '/ok': op })
      const made = importScenario('openapi', [text], { base: BASE })
      expect(made.config.targets.map((t) => t.url)).toEqual([BASE])
      expect(made.config.targets[0]!.steps!.map((s) => s.path)).toEqual(['/ok'])
      expect(made.notes.join('\n')).toMatch(/left out the paths .*a path starts with a single "\/"/)
    })

  for (const path of PATHS.filter((p) => p !== ''))
    it(`an OpenAPI document of only ${JSON.stringify(path)} is refused with its reason`, () => {
      const error = (() => {
        try {
          importScenario('openapi', [openapi({ [path]: op })], { base: BASE })
        } catch (e) {
          return e
        }
      })()
      expect(error).toBeInstanceOf(ConfigError)
      expect((error as Error).message).toMatch(/has no operations .*a path starts with a single "\/"/)
    })

  it('a server entry naming another host changes nothing: the paths go to --base', () => {
    const text = openapi({ '/x': op }, { servers: [{ url: 'https://evil.example/api' }] })
    expect(hosts('openapi', text, BASE)).toEqual(['127.0.0.1:9'])
  })
})

describe('no secret stays in an imported config', () => {
  const PARAMS = [
    'sig',
    'key',
    'pwd',
    'signature',
    'X-Amz-Signature',
    'api_key',
    'token',
    'secret',
    'passwd',
    'session',
    'code',
  ]
  for (const name of PARAMS)
    for (const kind of ['curl', 'har'] as const)
      it(`${kind}: the query parameter ${name}`, () => {
        const url = `http://127.0.0.1:9/x?page=2&${name}=S3CRETvalue`
        const text = kind === 'curl' ? `curl '${url}'` : har([{ url }])
        const made = importScenario(kind, [text])
        expect(made.yaml).not.toContain('S3CRETvalue')
        expect(made.config.targets[0]!.steps![0]!.path).toMatch(/page=2&/)
        expect(made.secrets.length).toBe(1)
      })

  const BODIES: [string, string][] = [
    ['a list of passwords', '{"password": ["S3CRETa", "S3CRETb"]}'],
    ['a nested object under a secret name', '{"auth": {"user": "u", "pass": "S3CRETc"}}'],
    ['a list of objects under a token', '{"token": [{"v": "S3CRETd"}]}'],
    ['escaped quotes', '{"password": "S3CRET\\"e"}'],
    ['a secret deep inside', '{"a": {"b": [{"client_secret": "S3CRETf"}]}}'],
    ['whitespace everywhere', '{ "password" : [ "S3CRETg" ] }'],
  ]
  for (const [what, body] of BODIES)
    it(`a JSON body with ${what}`, () => {
      const made = importScenario('har', [har([{ url: 'http://127.0.0.1:9/login', body }])])
      expect(made.yaml).not.toMatch(/S3CRET/)
      const sent = made.config.targets[0]!.steps![0]!.body as string
      expect(() => JSON.parse(sent.replace(/\$\{\w+\}/g, 'x')) as unknown).not.toThrow()
    })

  const USERINFO: [ImportKind, () => string, string | undefined][] = [
    ['openapi', () => openapi({ '/x': op }), 'http://admin:S3CRETh@127.0.0.1:9'],
    ['curl', () => "curl 'http://admin:S3CRETi@127.0.0.1:9/x'", undefined],
    ['curl', () => 'curl -u admin:S3CRETj http://127.0.0.1:9/x', undefined],
    ['har', () => har([{ url: 'http://admin:S3CRETk@127.0.0.1:9/x' }]), undefined],
  ]
  for (const [kind, text, base] of USERINFO)
    it(`${kind}: a password in ${base ? '--base' : 'the URL'} becomes a masked Authorization header, said`, () => {
      const made = importScenario(kind, [text()], base ? { base } : {})
      expect(made.yaml).not.toContain('S3CRET')
      expect(made.config.targets[0]!.url).toBe(BASE)
      expect(made.config.targets[0]!.steps![0]!.headers).toMatchObject({
        Authorization: 'Basic ${authorization}',
      })
      if (!text().includes(' -u '))
        expect(made.notes.join('\n')).toContain("the URL's user and password became an Authorization header")
    })
})

describe('bad input is a ConfigError naming it, never a raw error', () => {
  const CASES: [ImportKind, string, RegExp, string?][] = [
    ['curl', "curl $'http://127.0.0.1:9/\\U7FFFFFFF'", /\\U7FFFFFFF is not a character/],
    ['curl', "curl $'http://127.0.0.1:9/\\U00110000'", /is not a character/],
    ['curl', "curl $'http://127.0.0.1:9/\\UFFFFFFFF'", /is not a character/],
    ['curl', "curl 'http://[::1'", /is not a URL/],
    ['curl', 'curl http://%zz', /is not a URL|cannot be read/],
    ['openapi', openapi({ 'http://evil/x': op }), /has no operations/, BASE],
    ['openapi', openapi({ '/x': { get: { parameters: [{ $ref: '#/nowhere' }] } } }), /names nothing/, BASE],
    [
      'openapi',
      openapi({ '/x': { get: { parameters: [{ $ref: 'http://evil/p.yaml' }] } } }),
      /points outside/,
      BASE,
    ],
    ['openapi', '{"openapi": "3.0.0", "paths": {"/x": ', /not an OpenAPI document/, BASE],
    ['openapi', openapi({ '/x': op }), /is not a URL/, 'not a url'],
    ['openapi', openapi({ '/x': op }), /must be http/, 'ftp://127.0.0.1/'],
    ['har', har([{ url: 'http://127.0.0.1:9/ok' }, { url: '::' }]), /is not a URL/],
    ['har', '[]', /is not a HAR file/],
    ['har', 'null', /is not a HAR file/],
  ]
  for (const [kind, text, words, base] of CASES)
    it(`${kind}: ${text.slice(0, 60)}`, () => {
      let error: unknown
      try {
        importScenario(kind, [text], base ? { base } : {})
      } catch (e) {
        error = e
      }
      expect(error).toBeInstanceOf(ConfigError)
      expect((error as Error).message).toMatch(words)
    })
})

describe('one request past what a config holds is left out, not the import', () => {
  const big: [string, Parameters<typeof har>[0][number], RegExp][] = [
    ['a 9 KB URL', { url: `http://127.0.0.1:9/${'a'.repeat(9 * 1024)}` }, /its path is over 8192 characters/],
    [
      '101 headers',
      {
        url: 'http://127.0.0.1:9/h',
        headers: Array.from({ length: 101 }, (_, i): [string, string] => [`x-h${i}`, 'v']),
      },
      /it has 101 headers \(a step holds 100\)/,
    ],
    [
      'a header name of 300 characters',
      { url: 'http://127.0.0.1:9/n', headers: [['x'.repeat(300), 'v']] },
      /has a name over 256 characters/,
    ],
  ]
  for (const [what, request, words] of big)
    it(what, () => {
      const made = importScenario('har', [har([{ url: 'http://127.0.0.1:9/ok' }, request])])
      expect(made.config.targets[0]!.steps!.map((s) => s.path)).toEqual(['/ok'])
      expect(made.notes.join('\n')).toMatch(words)
    })
})

describe('options that change what curl sends are said, not dropped silently', () => {
  const OPTIONS: [string, RegExp][] = [
    ['-K ./more.conf', /left out -K \.\/more\.conf: curl reads more options from that file/],
    ['--config=./more.conf', /left out --config \.\/more\.conf/],
    ['--netrc-file ~/.netrc', /left out --netrc-file/],
    ['-n', /left out -n: curl reads a user and password from ~\/\.netrc/],
    ['--netrc', /left out --netrc/],
    ['--resolve 127.0.0.1:9:10.0.0.1', /left out --resolve .*connects to another address/],
    ['--connect-to ::evil.example:', /left out --connect-to .*connects to another host/],
  ]
  for (const [option, words] of OPTIONS)
    it(option, () => {
      const made = importScenario('curl', [`curl ${option} http://127.0.0.1:9/x`])
      expect(made.notes.join('\n')).toMatch(words)
      expect(made.config.targets.map((t) => t.url)).toEqual([BASE])
    })
})

describe('self-referencing schemas stay small (a 677-byte document once blocked serve)', () => {
  const schemas: [string, Record<string, unknown>][] = [
    [
      'five properties that are the schema itself',
      {
        type: 'object',
        required: ['a', 'b', 'c', 'd', 'e'],
        properties: Object.fromEntries(
          ['a', 'b', 'c', 'd', 'e'].map((k) => [k, { $ref: '#/components/schemas/N' }]),
        ),
      },
    ],
    [
      'an allOf of itself',
      { allOf: [{ $ref: '#/components/schemas/N' }, { $ref: '#/components/schemas/N' }] },
    ],
    [
      'an array of itself, twice',
      {
        type: 'array',
        items: { allOf: [{ $ref: '#/components/schemas/N' }, { $ref: '#/components/schemas/N' }] },
      },
    ],
    ['oneOf itself', { oneOf: [{ $ref: '#/components/schemas/N' }] }],
  ]
  for (const [what, N] of schemas)
    it(what, () => {
      const text = openapi(
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
        { components: { schemas: { N } } },
      )
      expect(text.length).toBeLessThan(1000)
      const body = importScenario('openapi', [text], { base: BASE }).config.targets[0]!.steps![0]!
        .body as string
      expect(body.length).toBeLessThan(10_000)
    })

  it('twelve levels of ten properties each stop at the document’s budget of values, said', () => {
    const schemas: Record<string, unknown> = {}
    for (let d = 0; d < 12; d++)
      schemas[`L${d}`] = {
        type: 'object',
        required: Array.from({ length: 10 }, (_, i) => `p${i}`),
        properties: Object.fromEntries(
          Array.from({ length: 10 }, (_, i) => [
            `p${i}`,
            d === 11 ? { type: 'string' } : { $ref: `#/components/schemas/L${d + 1}` },
          ]),
        ),
      }
    const text = openapi(
      {
        '/x': {
          post: {
            requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/L0' } } } },
            responses: {},
          },
        },
      },
      { components: { schemas } },
    )
    const made = importScenario('openapi', [text], { base: BASE })
    expect((made.config.targets[0]!.steps![0]!.body as string).length).toBeLessThan(1_000_000)
    expect(made.notes.join('\n')).toMatch(/make more than 20000 values/)
  })
})

// OpenAPI 3 documents into scenario steps: parameters (path, query, header, cookie; path-level and
// $ref'd), bodies (examples, schemas, forms), security schemes as masked secrets, values made up
// from types said in a note, and every document that is not OpenAPI 3 refused, naming why. The
// target stacks' own document is in replay.test.ts (what it sends) and targets/contract/openapi.ts
// (what the stacks answer).
import { describe, expect, it } from 'vitest'
import { stringify } from 'yaml'
import { ConfigError } from '../config/errors.ts'
import { importScenario } from './index.ts'

const BASE = 'http://127.0.0.1:8080'
const spec = (paths: Record<string, unknown>, more: Record<string, unknown> = {}) =>
  JSON.stringify({ openapi: '3.0.3', info: { title: 'Shop', version: '1' }, paths, ...more })
const imported = (text: string, base = BASE) => importScenario('openapi', [text], { base })
const steps = (text: string) => imported(text).config.targets[0]!.steps!

describe('an OpenAPI 3 document', () => {
  it('fills path, query, header and cookie parameters from examples, path-level ones and $refs included', () => {
    const text = spec(
      {
        '/shops/{shop}/items/{id}': {
          parameters: [{ $ref: '#/components/parameters/Shop' }],
          get: {
            operationId: 'getItem',
            parameters: [
              { name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 5 } },
              { name: 'fields', in: 'query', example: ['a', 'b'], schema: { type: 'array' } },
              { name: 'verbose', in: 'query', schema: { type: 'boolean' } },
              {
                name: 'X-Tenant',
                in: 'header',
                required: true,
                schema: { type: 'string', enum: ['eu', 'us'] },
              },
              { name: 'lang', in: 'cookie', example: 'de' },
            ],
            responses: { '200': { description: 'ok' } },
          },
        },
      },
      {
        components: {
          parameters: {
            Shop: { name: 'shop', in: 'path', required: true, schema: { type: 'string', example: 'a b' } },
          },
        },
      },
    )
    const made = imported(text)
    expect(made.config.targets[0]!.steps).toEqual([
      expect.objectContaining({
        name: 'getItem',
        method: 'GET',
        path: '/shops/a%20b/items/5?fields=a&fields=b',
        // A Cookie header is a secret whatever it holds (engine/config/redact.ts).
        headers: { 'X-Tenant': 'eu', Cookie: '${cookie}' },
      }),
    ])
    expect(made.secrets[0]).toMatchObject({ variable: 'cookie', where: ['step "getItem" header Cookie'] })
    // The optional verbose (no example) is left out; the id came from its type: said so.
    expect(made.notes.join('\n')).toMatch(
      /values made up from their types .*GET \/shops\/\{shop\}\/items\/\{id\} id/,
    )
  })

  it('makes bodies from examples, named examples, schemas and forms, in the document order of operations', () => {
    const text = spec(
      {
        '/a': {
          post: {
            requestBody: { content: { 'application/json': { example: { x: 1 } } } },
            responses: {},
          },
          put: {
            requestBody: {
              content: {
                'application/json': { examples: { first: { value: [1, 2] }, second: { value: [3] } } },
              },
            },
            responses: {},
          },
        },
        '/b': {
          post: {
            requestBody: {
              content: {
                'application/xml': { example: '<a/>' },
                'application/x-www-form-urlencoded': {
                  schema: {
                    type: 'object',
                    required: ['q'],
                    properties: { q: { type: 'string', default: 'a&b' }, n: { type: 'integer' } },
                  },
                },
              },
            },
            responses: {},
          },
          patch: {
            requestBody: {
              content: { 'application/merge-patch+json': { schema: { $ref: '#/components/schemas/Item' } } },
            },
            responses: {},
          },
        },
      },
      {
        components: {
          schemas: {
            Item: {
              allOf: [
                {
                  type: 'object',
                  required: ['id'],
                  properties: {
                    id: { type: 'integer', readOnly: true },
                    name: { type: 'string', example: 'bike' },
                  },
                },
                {
                  type: 'object',
                  properties: { when: { type: 'string', format: 'date-time' } },
                  required: ['when'],
                },
              ],
            },
          },
        },
      },
    )
    expect(steps(text).map((s) => [s.method, s.path, s.headers['Content-Type'], s.body])).toEqual([
      ['PUT', '/a', 'application/json', '[1,2]'],
      ['POST', '/a', 'application/json', '{"x":1}'],
      ['POST', '/b', 'application/x-www-form-urlencoded', 'q=a%26b'],
      ['PATCH', '/b', 'application/merge-patch+json', '{"name":"bike","when":"2025-01-01T00:00:00Z"}'],
    ])
  })

  it('turns security schemes into the header, query or cookie they name, each a masked secret', () => {
    const text = spec(
      {
        '/bearer': { get: { security: [{ jwt: [] }], responses: {} } },
        '/basic': { get: { security: [{ basic: [] }], responses: {} } },
        '/key': { get: { security: [{ key: [] }], responses: {} } },
        '/query': { get: { security: [{ q: [] }], responses: {} } },
        '/cookie': { get: { security: [{ c: [] }], responses: {} } },
        '/open': { get: { security: [], responses: {} } },
      },
      {
        security: [{ jwt: [] }],
        components: {
          securitySchemes: {
            jwt: { type: 'http', scheme: 'bearer' },
            basic: { type: 'http', scheme: 'basic' },
            key: { type: 'apiKey', in: 'header', name: 'X-Key' },
            q: { type: 'apiKey', in: 'query', name: 'key' },
            c: { type: 'apiKey', in: 'cookie', name: 'sid' },
          },
        },
      },
    )
    const made = imported(text)
    const target = made.config.targets[0]!
    expect(target.steps!.map((s) => [s.path, s.headers])).toEqual([
      ['/bearer', { Authorization: 'Bearer ${authorization}' }],
      ['/basic', { Authorization: 'Basic ${authorization}' }],
      ['/key', { 'X-Key': '${x_key}' }],
      ['/query?key=${key}', {}],
      ['/cookie', { Cookie: '${cookie}' }],
      ['/open', {}],
    ])
    expect(Object.values(target.secrets!)).toEqual([
      'CANNONADE_SECRET_AUTHORIZATION',
      'CANNONADE_SECRET_X_KEY',
      'CANNONADE_SECRET_KEY',
      'CANNONADE_SECRET_COOKIE',
    ])
  })

  it('reads YAML and 3.1 documents, appends paths to --base, and says when the server has a path of its own', () => {
    const yaml = stringify({
      openapi: '3.1.0',
      info: { title: 'Shop' },
      servers: [{ url: 'https://shop.example/api/v2' }],
      paths: {
        '/items': {
          get: {
            parameters: [
              { name: 'n', in: 'query', required: true, schema: { type: 'integer', examples: [7] } },
            ],
            responses: {},
          },
        },
      },
    })
    const made = imported(yaml, 'http://127.0.0.1:9000/')
    expect(made.config.targets[0]).toMatchObject({
      url: 'http://127.0.0.1:9000',
      steps: [{ path: '/items?n=7' }],
    })
    expect(made.config.name).toBe('Shop: 1 operation')
    expect(made.notes.join('\n')).toMatch(/server is https:\/\/shop\.example\/api\/v2: .*--base …\/api\/v2/)
    expect(imported(yaml, 'http://127.0.0.1:9000/api/v2').config.targets[0]).toMatchObject({
      url: 'http://127.0.0.1:9000/api/v2',
      steps: [{ path: '/items?n=7' }],
    })
  })

  it.each<[string, string, string | undefined, RegExp]>([
    [
      'OpenAPI 2',
      JSON.stringify({ swagger: '2.0', paths: { '/a': { get: {} } } }),
      BASE,
      /swagger: is OpenAPI 2 \(Swagger 2\.0\): Cannonade reads OpenAPI 3\.0 and 3\.1/,
    ],
    [
      'no version',
      JSON.stringify({ paths: {} }),
      BASE,
      /openapi: is not an OpenAPI document: it has no "openapi" field/,
    ],
    [
      'a later version',
      JSON.stringify({ openapi: '4.0.0', paths: { '/a': {} } }),
      BASE,
      /openapi: 4\.0\.0 is not a version this import reads/,
    ],
    ['neither JSON nor YAML', '{ "openapi": ', BASE, /is not an OpenAPI document: neither JSON nor YAML/],
    ['a scalar', 'just text', BASE, /is not an OpenAPI document: it is not a mapping/],
    ['no paths', spec({}), BASE, /paths: has no operations/],
    [
      'paths without operations',
      spec({ '/a': { summary: 'x' } }),
      BASE,
      /paths: has no operations under paths/,
    ],
    [
      'an outside $ref',
      spec({ '/a': { get: { parameters: [{ $ref: 'common.yaml#/P' }] } } }),
      BASE,
      /\$ref: "common\.yaml#\/P" points outside the document/,
    ],
    [
      'a $ref to nothing',
      spec({ '/a': { get: { parameters: [{ $ref: '#/components/parameters/Nope' }] } } }),
      BASE,
      /\$ref: "#\/components\/parameters\/Nope" names nothing/,
    ],
    ['no --base', spec({ '/a': { get: {} } }), undefined, /base: needs --base URL/],
    [
      'a --base that is no URL',
      spec({ '/a': { get: {} } }),
      'localhost:8080',
      /base: "localhost:8080" must be http:\/\/ or https:\/\/|is not a URL/,
    ],
    ['a --base of another scheme', spec({ '/a': { get: {} } }), 'ftp://h', /base: "ftp:\/\/h" must be http/],
  ])('refuses %s, naming what is wrong', (_name, text, base, message) => {
    let error: unknown
    try {
      importScenario('openapi', [text], base === undefined ? {} : { base })
    } catch (err) {
      error = err
    }
    expect(error).toBeInstanceOf(ConfigError)
    expect((error as Error).message).toMatch(message)
  })

  it('stops at a schema that refers to itself', () => {
    const text = spec(
      {
        '/tree': {
          post: {
            requestBody: {
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Node' } } },
            },
            responses: {},
          },
        },
      },
      {
        components: {
          schemas: {
            Node: {
              type: 'object',
              required: ['kids'],
              properties: { kids: { type: 'array', items: { $ref: '#/components/schemas/Node' } } },
            },
          },
        },
      },
    )
    const body = steps(text)[0]!.body!
    expect(body.startsWith('{"kids":[{"kids":[')).toBe(true)
    expect(body.length).toBeLessThan(1000)
  })
})

// What a valid config puts on the wire, byte for byte, as a raw TCP target receives it: the
// request line, Host, Basic auth from the URL's user and password (as curl sends it), the
// configured headers, Content-Length from the body, the correlation id, the body. And a value a
// target answers with cannot inject headers into the next step of a scenario.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startRawTarget, type RawTarget } from '../testing/raw-http.ts'
import { runConfig } from '../testing/run-config.ts'
import { applyCaptures, compileScenario } from './scenario.ts'

let target: RawTarget
beforeEach(async () => {
  target = await startRawTarget()
})
afterEach(async () => {
  await target.close()
})

// "alice:p@ss wörd" (the URL carries it percent-encoded; curl decodes it before encoding base64).
const BASIC = `Basic ${Buffer.from('alice:p@ss wörd', 'utf8').toString('base64')}`
const ID = /x-correlation-id: ([0-9a-f]+)-(\d{10})\r\n/

describe('the request a config sends', () => {
  it('is exactly the template: line, Host, Basic auth, headers, length, correlation id, body', async () => {
    const { summary } = await runConfig({
      version: 1,
      name: 'bytes',
      targets: [
        {
          name: 'raw',
          url: `http://alice:p%40ss%20w%C3%B6rd@127.0.0.1:${target.port}/items?q=a%20b&n=1`,
          method: 'POST',
          headers: { 'Content-Type': 'application/json; charset=utf-8', 'X-Note': 'caf\u00e9\tok' },
          body: '{"name":"wörd"}',
        },
      ],
      load: { connections: 1, requests: 3 },
      cooldownSeconds: 0,
    })
    expect(summary.status).toBe('done')
    expect(target.requests.length).toBeGreaterThanOrEqual(3)
    const seqs = new Set<string>()
    for (const raw of target.requests) {
      const text = raw.toString('latin1')
      const [, prefix, seq] = ID.exec(text) ?? []
      expect(prefix).toBe(summary.correlationPrefix)
      seqs.add(seq!)
      const expected = Buffer.concat([
        Buffer.from(
          `POST /items?q=a%20b&n=1 HTTP/1.1\r\n` +
            `Host: 127.0.0.1:${target.port}\r\n` +
            `Authorization: ${BASIC}\r\n` +
            `Connection: keep-alive\r\n` +
            `Content-Type: application/json; charset=utf-8\r\n` +
            `X-Note: caf\u00e9\tok\r\n` +
            `Content-Length: 16\r\n` +
            `x-correlation-id: ${prefix}-${seq}\r\n\r\n`,
          'latin1',
        ),
        Buffer.from('{"name":"wörd"}', 'utf8'),
      ])
      expect(raw.equals(expected), `got:\n${JSON.stringify(text)}`).toBe(true)
    }
    expect(seqs.size).toBe(target.requests.length)
  })

  it('a scenario step gets the same Basic auth unless it sets Authorization itself', async () => {
    const { summary } = await runConfig({
      version: 1,
      name: 'steps',
      targets: [
        {
          name: 'raw',
          url: `http://alice:p%40ss%20w%C3%B6rd@127.0.0.1:${target.port}/api`,
          steps: [
            { name: 'one', path: '/a?i=${iteration}&c=${conn}' },
            { name: 'two', path: '/b', headers: { Authorization: 'Bearer own' } },
          ],
        },
      ],
      load: { connections: 1, requests: 2, keepAlive: false },
      correlationHeader: 'X-Req',
      cooldownSeconds: 0,
    })
    expect(summary.status).toBe('done')
    const [one, two] = target.requests.map((r) => r.toString('latin1'))
    const id = (text: string) => /X-Req: (\S+)\r\n/.exec(text)?.[1]
    expect(one).toBe(
      `GET /api/a?i=${/i=(\d+)/.exec(one!)?.[1]}&c=0 HTTP/1.1\r\nHost: 127.0.0.1:${target.port}\r\n` +
        `Authorization: ${BASIC}\r\nConnection: close\r\nX-Req: ${id(one!)}\r\n\r\n`,
    )
    expect(two).toBe(
      `GET /api/b HTTP/1.1\r\nHost: 127.0.0.1:${target.port}\r\nConnection: close\r\n` +
        `Authorization: Bearer own\r\nX-Req: ${id(two!)}\r\n\r\n`,
    )
  })
})

describe('a captured value', () => {
  const [login] = compileScenario([
    {
      name: 'login',
      method: 'GET',
      path: '/login',
      headers: {},
      body: null,
      capture: { token: { json: 'token' }, session: { header: 'x-session' } },
      once: false,
    },
  ])

  it.each([
    ['CR/LF in a JSON value', { token: 'abc\r\nX-Injected: 1' }, []],
    ['a bare LF', { token: 'abc\nX-Injected: 1' }, []],
    ['NUL', { token: 'abc\u0000' }, []],
  ])('holding %s fails the capture instead of reaching the next request', (_name, body, headers) => {
    const vars: Record<string, string> = {}
    expect(applyCaptures(login!, JSON.stringify(body), headers, vars)).toBe(false)
    expect(vars.token).toBeUndefined()
  })

  it('holding printable text is kept', () => {
    const vars: Record<string, string> = {}
    expect(applyCaptures(login!, '{"token":"a b\\tc"}', ['X-Session', 's1'], vars)).toBe(true)
    expect(vars).toEqual({ token: 'a b\tc', session: 's1' })
  })
})

// `cannonade serve` never dies on a request: the real command in its own process, sent a hand
// list and a seeded stream of malformed request lines, paths, headers and WebSocket upgrades over
// raw TCP. Every one gets a 4xx (never a 5xx, never silence), each refusal is a log line, and the
// process still answers a valid call afterwards.
import type { ChildProcess } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServe, stopServe, waitUntil } from '../testing/process.ts'
import { picker, prng, rawExchange } from '../testing/raw-http.ts'

const SEED = 0x12ca7
const GENERATED = 240

let dir = ''
let child: ChildProcess
let port = 0
let token = ''
let stderr: () => string = () => ''

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cannonade-fuzz-'))
  const web = join(dir, 'web')
  mkdirSync(web)
  writeFileSync(join(web, 'index.html'), '<!doctype html><title>app</title>')
  const served = await startServe(dir, { CANNONADE_STATIC_DIR: web })
  child = served.child
  stderr = served.stderr
  const url = served.url
  port = Number(url.port)
  token = url.searchParams.get('token')!
})

afterAll(async () => {
  await stopServe(child)
  rmSync(dir, { recursive: true, force: true })
})

const host = () => `Host: 127.0.0.1:${port}\r\n`
const request = (line: string, headers = '') => `${line}\r\n${host()}${headers}\r\n`

/** The cases nobody should forget: each was a crash or a hang once, or is a classic. */
interface Case {
  name: string
  bytes: string
  /** Half-close after writing: the request is incomplete on purpose. */
  end?: boolean
  head?: boolean
}

function handList(): Case[] {
  const auth = () => `x-cannonade-token: ${token}\r\n`
  const ws = 'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n'
  const key = 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n'
  return [
    { name: 'absolute target that is no URL', bytes: request('GET http://[ HTTP/1.1') },
    { name: 'absolute target, ipv6 garbage', bytes: request('GET http://[::1:80/ HTTP/1.1') },
    {
      name: 'absolute target to the API',
      bytes: request(`POST http://127.0.0.1/api/runs:active HTTP/1.1`, auth()),
    },
    { name: 'asterisk form', bytes: request('OPTIONS * HTTP/1.1') },
    { name: 'authority form', bytes: request('CONNECT 127.0.0.1:22 HTTP/1.1') },
    { name: 'scheme-relative', bytes: request('GET //evil.example/x HTTP/1.1') },
    { name: 'bad %-escape, static', bytes: request('GET /%zz HTTP/1.1') },
    { name: 'bad %-escape, API with token', bytes: request('POST /api/%E0%A4%A HTTP/1.1', auth()) },
    { name: 'lone % in channel', bytes: request('POST /api/runs:list% HTTP/1.1', auth()) },
    { name: 'NUL in channel', bytes: request('POST /api/runs%00list HTTP/1.1', auth()) },
    { name: 'traversal in download', bytes: request(`GET /api/download?path=%2e%2e%2f HTTP/1.1`, auth()) },
    {
      name: 'bad escape in download query',
      bytes: request(`GET /api/download?path=%E0%A4%A HTTP/1.1`, auth()),
    },
    { name: 'no version', bytes: request('GET /') },
    { name: 'HTTP/9.9', bytes: request('GET / HTTP/9.9') },
    { name: 'blank lines, then half a request line', bytes: '\r\n\r\nGET', end: true },
    { name: 'headers never finished', bytes: `GET / HTTP/1.1\r\n${host()}X-A: b`, end: true },
    { name: 'not HTTP at all', bytes: '\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03' },
    { name: 'header without colon', bytes: request('GET / HTTP/1.1', 'no colon here\r\n') },
    { name: 'no Host', bytes: 'GET / HTTP/1.1\r\n\r\n' },
    {
      name: 'two Content-Length',
      bytes: request('POST /api/runs:active HTTP/1.1', `${auth()}Content-Length: 2\r\nContent-Length: 3\r\n`),
    },
    {
      name: 'Content-Length not a number',
      bytes: request('POST /api/runs:active HTTP/1.1', `${auth()}Content-Length: 1e3\r\n`),
    },
    {
      name: 'bad chunk size',
      bytes:
        request('POST /api/runs:active HTTP/1.1', `${auth()}Transfer-Encoding: chunked\r\n`) +
        'zz\r\n[]\r\n0\r\n\r\n',
    },
    { name: 'huge header', bytes: request('GET / HTTP/1.1', `X-Big: ${'a'.repeat(100_000)}\r\n`) },
    { name: 'upgrade, target no URL', bytes: request('GET http://[ HTTP/1.1', ws + key) },
    { name: 'upgrade, bad escape', bytes: request('GET /api/%E0%A4%A HTTP/1.1', ws + key + auth()) },
    { name: 'upgrade, no key', bytes: request(`GET /api/events?token=${token} HTTP/1.1`, ws) },
    {
      name: 'upgrade, bad key',
      bytes: request(`GET /api/events?token=${token} HTTP/1.1`, ws + 'Sec-WebSocket-Key: short\r\n'),
    },
    {
      name: 'upgrade, wrong version',
      bytes: request(
        `GET /api/events?token=${token} HTTP/1.1`,
        'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 99\r\n' + key,
      ),
    },
    { name: 'upgrade, POST', bytes: request(`POST /api/events?token=${token} HTTP/1.1`, ws + key) },
    {
      name: 'upgrade, not websocket',
      bytes: request(`GET /api/events?token=${token} HTTP/1.1`, 'Upgrade: h2c\r\nConnection: Upgrade\r\n'),
    },
    {
      name: 'upgrade, foreign Origin',
      bytes: request(`GET /api/events?token=${token} HTTP/1.1`, ws + key + 'Origin: http://evil.example\r\n'),
    },
    { name: 'upgrade, other path', bytes: request(`GET /api/runs:list?token=${token} HTTP/1.1`, ws + key) },
    { name: 'upgrade, no token', bytes: request('GET /api/events HTTP/1.1', ws + key) },
  ]
}

/** Seeded: request lines, targets, headers and upgrades built from pieces that break parsers. */
function generated(): Case[] {
  const random = prng(SEED)
  const { int, one, text } = picker(random)
  // Broken escapes, URL delimiters and plain characters: in both alphabets below.
  const badEscapes = ['%', '%2', '%zz', '%E0%A4%A', '%00']
  const delimiters = ['[', ']', ':', '@', '/', '?', '#', '..']
  const plain = ['a', 'Z', '9', '&', '=', '~']
  // Bytes a parser lets through in a target: what reaches the routes.
  const pathChars = [
    ...badEscapes,
    '%0d%0a',
    '%2f',
    '%2e%2e',
    ...delimiters,
    '\\',
    ...plain,
    '\xc3\xa9',
    'token=',
    'path=/etc/passwd',
  ]
  const targetChars = [
    ...badEscapes,
    '%2f',
    ...delimiters,
    ' ',
    '\t',
    '\x00',
    '\x7f',
    '\xff',
    'é',
    '\\',
    ...plain,
    '"',
    '<',
    '{',
  ]
  const prefixes = [
    '',
    '/',
    '/api/',
    '/api/runs:',
    '/api/download?path=',
    '/api/events',
    'http://',
    'http://[',
    '//',
    '*',
    'https://127.0.0.1',
    '/assets/',
    '?',
  ]
  const methods = [
    'GET',
    'POST',
    'HEAD',
    'PUT',
    'DELETE',
    'OPTIONS',
    'G\x00T',
    'get',
    'PRI',
    '',
    'XYZZY',
    'GET GET',
  ]
  const versions = ['HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0', 'HTTP/1.1 extra', 'HTTP/', 'http/1.1', '']
  const headerNames = [
    'Origin',
    'Content-Length',
    'Transfer-Encoding',
    'Host',
    'Upgrade',
    'Connection',
    'x-cannonade-token',
    'Authorization',
    'Sec-WebSocket-Key',
    'X-\x01',
    'Bad Name',
    '',
  ]
  const headerValues = [
    'http://evil.example',
    'null',
    '-1',
    '99999999999999999999',
    'chunked',
    'chunked, gzip',
    'websocket',
    'Upgrade',
    'Bearer ',
    '\x00',
    'é',
    '127.0.0.1',
    '',
  ]
  const cases: Case[] = []
  for (let i = 0; i < GENERATED; i++) {
    // Half well framed with a nasty path (the routes see it), half broken anywhere (the parser does).
    const framed = random() < 0.5
    const target = framed
      ? one(prefixes.filter((p) => p.startsWith('/'))) + text(pathChars, 12)
      : one(prefixes) + text(targetChars, 12)
    const line = framed
      ? `${one(['GET', 'POST', 'HEAD', 'PUT'])} ${target} HTTP/1.1`
      : `${one(methods)} ${target} ${one(versions)}`
    let headers = ''
    for (let h = int(4); h > 0; h--) {
      const name = one(headerNames)
      if (framed && (name === 'Host' || !/^[A-Za-z-]+$/.test(name))) continue
      headers += `${name}: ${one(framed ? headerValues.filter((v) => /^[\x20-\x7e]*$/.test(v)) : headerValues)}\r\n`
    }
    if (random() < 0.4) headers += `x-cannonade-token: ${token}\r\n`
    if (random() < 0.25)
      headers += 'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n'
    const body = random() < 0.2 ? text(targetChars, 40) : ''
    const name = `#${i} ${JSON.stringify(line)}`
    const head = line.startsWith('HEAD ')
    if (random() < 0.1) cases.push({ name, bytes: `${line}\r\n${headers}`, end: true, head })
    else cases.push({ name, bytes: request(line, headers) + body, head })
  }
  return cases
}

describe('serve under malformed requests', () => {
  it(`answers ${GENERATED} generated and every hand-listed case with a 4xx, and keeps serving`, async () => {
    const cases = [...handList(), ...generated()]
    expect(cases.length).toBeGreaterThanOrEqual(200)
    const results: { name: string; status: number | null; done: boolean }[] = []
    // Eight at a time: the server sees concurrent garbage, as it would from a hostile page.
    for (let i = 0; i < cases.length; i += 8) {
      const batch = cases.slice(i, i + 8)
      const replies = await Promise.all(batch.map((c) => rawExchange(port, c.bytes, c)))
      replies.forEach((r, j) => results.push({ name: batch[j]!.name, status: r.status, done: r.done }))
    }
    expect(child.exitCode, stderr()).toBeNull()
    const answered = results.filter((r) => r.status !== null)
    // No case may hang or be dropped without an answer, and none is a server error.
    expect(results.filter((r) => !r.done).map((r) => r.name)).toEqual([])
    expect(results.filter((r) => r.status === null).map((r) => r.name)).toEqual([])
    expect(answered.filter((r) => r.status! >= 500).map((r) => `${r.name}: ${r.status}`)).toEqual([])
    // The hand list is malformed by construction: each one is refused.
    const hand = results.slice(0, handList().length)
    expect(hand.filter((r) => r.status! < 400).map((r) => `${r.name}: ${r.status}`)).toEqual([])

    const valid = await fetch(`http://127.0.0.1:${port}/api/runs:active`, {
      method: 'POST',
      headers: { 'x-cannonade-token': token, 'content-type': 'application/json' },
      body: '[]',
    })
    expect(valid.status).toBe(200)
    expect(await valid.json()).toEqual([])
    expect(stderr()).not.toMatch(/\n\s+at /) // no stack trace
    expect(stderr()).toContain('cannonade serve: 400 GET http://[: the request target is not a path')
    expect(stderr()).not.toContain(token) // log lines drop the query
  })

  it('refuses a request that gives Host, Origin, the token, Authorization or a framing field twice (issue 29, item 23)', async () => {
    const auth = `x-cannonade-token: ${token}\r\n`
    const other = `Host: evil.example\r\n`
    const cases: [string, string, string][] = [
      ['two Hosts, the second elsewhere', `GET / HTTP/1.1\r\n${host()}${other}\r\n`, 'host'],
      ['two Hosts, the first elsewhere', `GET / HTTP/1.1\r\n${other}${host()}\r\n`, 'host'],
      ['two equal Hosts', `GET / HTTP/1.1\r\n${host()}${host()}\r\n`, 'host'],
      ['two Hosts in other cases', `GET / HTTP/1.1\r\n${host()}hOsT: 127.0.0.1:${port}\r\n\r\n`, 'host'],
      [
        'two Hosts to the API',
        request('POST /api/runs:active HTTP/1.1', `${auth}${other}Content-Length: 2\r\n`) + '[]',
        'host',
      ],
      [
        'two Origins',
        request(
          'POST /api/runs:active HTTP/1.1',
          `${auth}Origin: http://127.0.0.1:${port}\r\nOrigin: http://evil.example\r\nContent-Length: 2\r\n`,
        ) + '[]',
        'origin',
      ],
      [
        'two tokens',
        request(
          'POST /api/runs:active HTTP/1.1',
          `${auth}x-cannonade-token: wrong\r\nContent-Length: 2\r\n`,
        ) + '[]',
        'x-cannonade-token',
      ],
      [
        'two Authorizations',
        request(
          'POST /api/runs:active HTTP/1.1',
          `${auth}Authorization: Bearer a\r\nAuthorization: Bearer b\r\nContent-Length: 2\r\n`,
        ) + '[]',
        'authorization',
      ],
      [
        'two Content-Types',
        request(
          'POST /api/runs:active HTTP/1.1',
          `${auth}Content-Type: application/json\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n`,
        ) + '[]',
        'content-type',
      ],
      [
        'two Hosts on an upgrade',
        request(
          `GET /api/events?token=${token} HTTP/1.1`,
          `${other}Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n`,
        ),
        'host',
      ],
    ]
    for (const [what, bytes, field] of cases) {
      const r = await rawExchange(port, bytes, {})
      expect([what, r.status]).toEqual([what, 400])
      // The refusal's log line reaches the pipe just after the answer.
      await waitUntil(() => stderr().includes(`the ${field} header is given more than once`), 5000, what)
    }
    expect(child.exitCode).toBeNull()
  })
})

// Bad configs through the real `cannonade run` command (in process): each exits 2 with a message
// naming its field, before anything is written. The wire: nothing a config holds goes onto the
// wire unchecked (header injection, framing headers, paths, variables, names, duplicate JSON keys).
// Bounds are bad-input-bounds.test.ts, what stays allowed bad-input-allowed.test.ts.
import { describe, it } from 'vitest'
import { refusedConfigs } from '../testing/cli.ts'
import { config, scenario, step, withTarget, type Doc } from './bad-input-configs.ts'

const expectRefused = refusedConfigs()

const wire: [string, Doc | string, string, RegExp?][] = [
  [
    'CR/LF in a header value (injection)',
    withTarget({ headers: { 'X-A': 'v\r\nX-Injected: 1' } }),
    'targets.0.headers.X-A',
    /carriage return/,
  ],
  [
    'a bare LF in a header value',
    withTarget({ headers: { 'X-A': 'v\nX-Injected: 1' } }),
    'targets.0.headers.X-A',
    /line feed/,
  ],
  ['NUL in a header value', withTarget({ headers: { 'X-A': 'v\u0000w' } }), 'targets.0.headers.X-A', /NUL/],
  ['DEL in a header value', withTarget({ headers: { 'X-A': 'v\u007f' } }), 'targets.0.headers.X-A', /0x7f/],
  [
    'ESC in a header value',
    withTarget({ headers: { 'X-A': '\u001b[31m' } }),
    'targets.0.headers.X-A',
    /0x1b/,
  ],
  [
    'a character above 0xFF in a header value',
    withTarget({ headers: { 'X-A': '5 €' } }),
    'targets.0.headers.X-A',
    /one byte/,
  ],
  [
    'Content-Length header',
    withTarget({ headers: { 'Content-Length': '5' } }),
    'targets.0.headers.Content-Length',
    /from the body/,
  ],
  [
    'transfer-encoding header',
    withTarget({ headers: { 'transfer-encoding': 'chunked' } }),
    'targets.0.headers.transfer-encoding',
    /never chunked/,
  ],
  [
    'Connection header',
    withTarget({ headers: { Connection: 'close' } }),
    'targets.0.headers.Connection',
    /keepAlive/,
  ],
  ['Expect header', withTarget({ headers: { Expect: '100-continue' } }), 'targets.0.headers.Expect'],
  ['Upgrade header', withTarget({ headers: { Upgrade: 'websocket' } }), 'targets.0.headers.Upgrade'],
  ['TE header', withTarget({ headers: { TE: 'trailers' } }), 'targets.0.headers.TE'],
  [
    'one header twice, different case',
    withTarget({ headers: { 'X-A': '1', 'x-a': '2' } }),
    'targets.0.headers.x-a',
    /twice/,
  ],
  ['Host twice', withTarget({ headers: { Host: 'a', host: 'b' } }), 'targets.0.headers.host', /twice/],
  [
    'a header that is the correlation header',
    withTarget({ headers: { 'X-Correlation-Id': 'mine' } }),
    'targets.0.headers.X-Correlation-Id',
    /correlation header/,
  ],
  [
    'a header name that is no token',
    withTarget({ headers: { 'Bad Name': 'v' } }),
    'targets.0.headers.Bad Name',
  ],
  // The field is printed escaped: a key must not write raw line breaks into the terminal either.
  [
    'a header name with a colon and CR/LF',
    withTarget({ headers: { 'X-A: b\r\nX-B': 'v' } }),
    'targets.0.headers."X-A: b\\r\\nX-B"',
    /valid HTTP header name/,
  ],
  ['correlationHeader Content-Length', config({ correlationHeader: 'Content-Length' }), 'correlationHeader'],
  [
    'correlationHeader Transfer-Encoding',
    config({ correlationHeader: 'Transfer-Encoding' }),
    'correlationHeader',
  ],
  ['correlationHeader Host', config({ correlationHeader: 'Host' }), 'correlationHeader'],
  ['correlationHeader Connection', config({ correlationHeader: 'connection' }), 'correlationHeader'],
  ['correlationHeader with CR/LF', config({ correlationHeader: 'x-id\r\nX-Injected' }), 'correlationHeader'],
  ['a space in the URL', withTarget({ url: 'http://127.0.0.1:9/a b' }), 'targets.0.url', /a space/],
  [
    'CR/LF in the URL',
    withTarget({ url: 'http://127.0.0.1:9/a\r\nX-Injected: 1' }),
    'targets.0.url',
    /carriage return/,
  ],
  ['a tab in the URL', withTarget({ url: 'http://127.0.0.1:9/a\tb' }), 'targets.0.url'],
  ['NUL in the URL', withTarget({ url: 'http://127.0.0.1:9/a\u0000' }), 'targets.0.url', /NUL/],
  [
    'credentials in the URL and an Authorization header',
    withTarget({ url: 'http://u:p@127.0.0.1:9/', headers: { Authorization: 'Bearer x' } }),
    'targets.0.url',
    /keep one/,
  ],
  [
    'CR/LF in a step path (injection)',
    scenario(step({ path: '/a HTTP/1.1\r\nX-Injected: 1\r\n\r\nGET /b' })),
    'targets.0.steps.0.path',
    /carriage return|a space/,
  ],
  ['a space in a step path', scenario(step({ path: '/a b' })), 'targets.0.steps.0.path', /a space/],
  ['NUL in a step path', scenario(step({ path: '/a\u0000' })), 'targets.0.steps.0.path', /NUL/],
  ['a broken escape in a step path', scenario(step({ path: '/a%zz' })), 'targets.0.steps.0.path', /escape/],
  ['braces in a step path', scenario(step({ path: '/a{b}' })), 'targets.0.steps.0.path', /"\{"/],
  [
    'a Host header on a step',
    scenario(step({ headers: { Host: 'elsewhere' } })),
    'targets.0.steps.0.headers.Host',
  ],
  [
    'Content-Length on a step',
    scenario(step({ headers: { 'Content-Length': '1' } })),
    'targets.0.steps.0.headers.Content-Length',
  ],
  [
    'CR/LF in a step header',
    scenario(step({ headers: { 'X-A': 'a\r\nb' } })),
    'targets.0.steps.0.headers.X-A',
  ],
  [
    'an unknown variable in a step path',
    scenario(step({ path: '/users/${userId}' })),
    'targets.0.steps.0.path',
    /step "s" uses \$\{userId\}.*built in: iteration, user, conn, run/,
  ],
  [
    'a variable captured by a later step',
    scenario(
      step({ name: 'me', headers: { Authorization: 'Bearer ${token}' } }),
      step({ name: 'login', capture: { token: { json: 'token' } } }),
    ),
    'targets.0.steps.0.headers.Authorization',
    /step "me" uses \$\{token\}/,
  ],
  [
    'a variable used by the step that captures it',
    scenario(step({ path: '/x?t=${token}', capture: { token: { json: 'token' } } })),
    'targets.0.steps.0.path',
    /\$\{token\}/,
  ],
  [
    'an unknown variable in a step body',
    scenario(step({ method: 'POST', body: '{"id":"${nope}"}' })),
    'targets.0.steps.0.body',
    /\$\{nope\}/,
  ],
  [
    'an escape sequence in the run name',
    config({ name: 'run\u001b]0;pwned\u0007' }),
    'name',
    /control character/,
  ],
  [
    'a line break in a step name',
    scenario(step({ name: 'a\nb' })),
    'targets.0.steps.0.name',
    /control character/,
  ],
  [
    'a line break in a phase name',
    config(
      {},
      {
        duration: undefined,
        profile: { kind: 'phases', phases: [{ name: 'warm\nup', share: 1, duration: 1 }] },
      },
    ),
    'load.profile.phases.0.name',
  ],
  [
    'a duplicate key in JSON',
    '{"version":1,"name":"x","targets":[{"name":"a","url":"http://127.0.0.1:9/"}],"load":{"connections":4,"duration":10,"connections":10000}}',
    'load.connections',
    /twice/,
  ],
  [
    'a duplicate header in JSON',
    '{"version":1,"name":"x","targets":[{"name":"a","url":"http://127.0.0.1:9/","headers":{"X-A":"1","X-A":"2"}}],"load":{"connections":4,"duration":10}}',
    'targets.0.headers.X-A',
    /twice/,
  ],
]

describe('configs that would put something malformed on the wire exit 2 naming the field', () => {
  it.each(wire)('%s', async (_name, doc, field, message) => {
    await expectRefused(doc, field, message)
  })
})

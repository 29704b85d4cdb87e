// curl commands as browsers copy them (Chromium's "Copy all as cURL (bash)", Firefox's "Copy as
// cURL (POSIX)") and as people type them, into scenario steps: each step's method, path, headers
// and body against the requests written out by hand in fixtures/requests.ts, secrets masked.
import { describe, expect, it } from 'vitest'
import { ConfigError } from '../config/errors.ts'
import { parseRunConfigText } from '../config/load.ts'
import { chromiumRequests, curlFixture, firefoxRequests, stepRequests } from './fixtures/requests.ts'
import { importScenario } from './index.ts'
import { splitCommands } from './shell.ts'

const curl = (...texts: string[]) => importScenario('curl', texts)
const steps = (texts: string[]) => curl(...texts).config.targets.flatMap((t) => t.steps ?? [])

/** The message of the ConfigError `fn` throws. */
function refusal(fn: () => unknown): string {
  try {
    fn()
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError)
    return (err as Error).message
  }
  throw new Error('no error')
}

describe('browsers\' "Copy as cURL"', () => {
  it("Chromium's copy of three requests becomes three steps that send them, secrets masked", () => {
    const made = curl(curlFixture('chromium', 8080))
    expect(made.config.targets).toHaveLength(1)
    const target = made.config.targets[0]!
    expect(target.url).toBe('http://127.0.0.1:8080')
    expect(target.steps!.map((s) => s.name)).toEqual([
      'GET /api/items',
      'POST /api/items',
      'DELETE /api/items/7',
    ])
    // Masked: the cookie, the CSRF token and the bearer token (its scheme kept), each once.
    expect(target.secrets).toEqual({
      cookie: 'CANNONADE_SECRET_COOKIE',
      x_csrf_token: 'CANNONADE_SECRET_X_CSRF_TOKEN',
      authorization: 'CANNONADE_SECRET_AUTHORIZATION',
    })
    expect(target.steps![0]!.headers.Cookie).toBe('${cookie}')
    expect(target.steps![1]!.headers.Cookie).toBe('${cookie}')
    expect(target.steps![2]!.headers.Authorization).toBe('Bearer ${authorization}')
    expect(made.yaml).not.toMatch(/3f9a1c0e7b|9c1d2e4f|eyJhbGci/)
    const values = {
      cookie: 'session=3f9a1c0e7b; theme=dark',
      x_csrf_token: '9c1d2e4f',
      authorization: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI3In0.c2lnbmF0dXJl',
    }
    expect(stepRequests(target.steps!, values)).toEqual(chromiumRequests(8080))
    expect(made.notes.join('\n')).toMatch(/CANNONADE_SECRET_COOKIE/)
    expect(made.notes.join('\n')).toMatch(/left out the headers connection/)
  })

  it("Firefox's copy (one line each, -X, Accept-Encoding, a form login) becomes two steps", () => {
    const made = curl(curlFixture('firefox', 9090))
    const target = made.config.targets[0]!
    expect(target.secrets).toEqual({
      cookie: 'CANNONADE_SECRET_COOKIE',
      password: 'CANNONADE_SECRET_PASSWORD',
    })
    expect(target.steps![1]!.body).toBe('username=bob&password=${password}&remember=on')
    const values = { cookie: 'session=3f9a1c0e7b', password: 'hunter2%21' }
    expect(stepRequests(target.steps!, values)).toEqual(firefoxRequests(9090))
  })

  it('reads each command given apart the same as one pasted block', () => {
    const [a, b] = curlFixture('chromium', 8080).split(' ;\n')
    expect(steps([a!, b!]).map((s) => s.path)).toEqual(['/api/items?page=2&sort=price', '/api/items'])
  })

  it('writes YAML that the engine reads back as the same config', () => {
    const made = curl(curlFixture('chromium', 8080), curlFixture('firefox', 8080))
    expect(made.config.targets[0]!.steps).toHaveLength(5)
    expect(parseRunConfigText(made.yaml, 'yaml')).toEqual(made.config)
  })
})

describe('curl options typed by hand', () => {
  const one = (text: string) => steps([text])[0]!
  it.each<[string, string, Record<string, unknown>]>([
    [
      '-d posts a form',
      `curl -d 'a=1' -d 'b=2' http://h/x`,
      { method: 'POST', body: 'a=1&b=2', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } },
    ],
    [
      '--json posts JSON',
      `curl --json '{"a":1}' http://h/x`,
      {
        method: 'POST',
        body: '{"a":1}',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      },
    ],
    [
      '-G puts the data in the query',
      `curl -G -d q=bikes --data-urlencode 'w=a b' http://h/search`,
      { method: 'GET', path: '/search?q=bikes&w=a%20b', body: null },
    ],
    ['-I is HEAD', `curl -sI http://h/health`, { method: 'HEAD', path: '/health' }],
    [
      '-XPUT and -H attached',
      `curl -XPUT -H'X-Trace: 1' http://h/a`,
      { method: 'PUT', headers: { 'X-Trace': '1' } },
    ],
    [
      '-A and -e',
      `curl -A 'bot/1' -e http://h/from http://h/to`,
      { headers: { 'User-Agent': 'bot/1', Referer: 'http://h/from' } },
    ],
    ['a URL without a scheme is http', `curl h:8080/p?x=1`, { path: '/p?x=1' }],
    [
      'output options change nothing sent',
      `curl -sSL -o /dev/null -w '%{http_code}' --max-time 5 http://h/p`,
      { method: 'GET', path: '/p', headers: {} },
    ],
    ['"Name;" sends an empty header', `curl -H 'X-Empty;' http://h/p`, { headers: { 'X-Empty': '' } }],
    [
      'a path is percent-encoded where a request line needs it',
      `curl 'http://h/a b/ü?q="x"'`,
      { path: '/a%20b/%C3%BC?q=%22x%22' },
    ],
  ])('%s', (_name, text, want) => {
    expect(one(text)).toMatchObject(want)
  })

  it('-u is Basic auth, masked; -k makes the target insecure', () => {
    const made = curl(`curl -k -u bob:hunter2 https://h/me`)
    const target = made.config.targets[0]!
    expect(target.insecure).toBe(true)
    expect(target.steps![0]!.headers.Authorization).toBe('Basic ${authorization}')
    expect(made.yaml).not.toContain(Buffer.from('bob:hunter2').toString('base64'))
  })

  it('gives a target per origin, in the order first used', () => {
    const made = curl(`curl http://a.test/1; curl https://b.test:8443/2 && curl http://a.test/3`)
    expect(made.config.targets.map((t) => [t.name, t.url, t.steps!.map((s) => s.path)])).toEqual([
      ['a.test', 'http://a.test', ['/1', '/3']],
      ['b.test:8443', 'https://b.test:8443', ['/2']],
    ])
  })

  it('names steps uniquely within 40 characters', () => {
    const long = `http://h/${'x'.repeat(60)}`
    const names = steps([`curl ${long}; curl ${long}; curl http://h/a; curl http://h/a`]).map((s) => s.name)
    expect(new Set(names).size).toBe(4)
    for (const n of names) expect(n.length).toBeLessThanOrEqual(40)
    expect(names.slice(2)).toEqual(['GET /a', 'GET /a #2'])
  })
})

describe('shell text', () => {
  // The shell text is String.raw: what a user pastes, backslashes and all.
  it.each<[string, string, string[][]]>([
    ['single quotes keep everything', String.raw`curl 'a "b" \ $x'`, [['curl', 'a "b" \\ $x']]],
    ["$'…' reads escapes", String.raw`curl $'it\'s\n\x41\u00e9\\'`, [['curl', "it's\nAé\\"]]],
    [
      'double quotes escape " and \\',
      String.raw`curl "say \"hi\" \\ ok \n"`,
      [['curl', 'say "hi" \\ ok \\n']],
    ],
    ['a backslash escapes a space', String.raw`curl a\ b`, [['curl', 'a b']]],
    ['a backslash-newline joins lines', 'curl \\\n  -s \\\n  http://h', [['curl', '-s', 'http://h']]],
    [
      '; && || & and newlines separate commands',
      'curl a; curl b && curl c || curl d & curl e\ncurl f',
      [
        ['curl', 'a'],
        ['curl', 'b'],
        ['curl', 'c'],
        ['curl', 'd'],
        ['curl', 'e'],
        ['curl', 'f'],
      ],
    ],
    ['a comment is skipped', '# copied from the browser\ncurl a # the list', [['curl', 'a']]],
    [
      'CRLF line ends are read as LF',
      'curl a \\\r\n -s\r\ncurl b',
      [
        ['curl', 'a', '-s'],
        ['curl', 'b'],
      ],
    ],
  ])('%s', (_name, text, words) => {
    expect(splitCommands(text).map((c) => c.words)).toEqual(words)
  })

  it('leaves out what a pipe or redirection does with the answer, and says so', () => {
    const made = curl(`curl http://h/a -s | jq .items > out.json`)
    expect(made.config.targets[0]!.steps!.map((s) => s.path)).toEqual(['/a'])
    expect(made.notes.join('\n')).toMatch(
      /left out what follows a pipe or redirection \(jq \.items out\.json\)/,
    )
  })
})

describe('what is not a curl command this import can read', () => {
  it.each<[string, string, RegExp]>([
    ['another program', `wget http://h/a`, /command 1 \(line 1\): starts with "wget", not curl/],
    [
      'a later command that is not curl',
      `curl http://h/a\nhttp GET h/b`,
      /command 2 \(line 2\): starts with "http", not curl/,
    ],
    [
      'a shell variable',
      `curl -H "Authorization: Bearer $TOKEN" http://h/a`,
      /\$TOKEN is a shell expansion the import cannot evaluate/,
    ],
    ['a command substitution', `curl "http://h/$(whoami)"`, /\$\(whoami\) is a shell expansion/],
    ['an unclosed quote', `curl 'http://h/a`, /line 1: a quote ' is not closed/],
    ['a multipart form', `curl -F file=@a.png http://h/up`, /-F: multipart forms \(-F\) need files/],
    ['data from a file', `curl -d @body.json http://h/a`, /-d @body.json reads a file/],
    [
      'an unknown option',
      `curl --frobnicate http://h/a`,
      /--frobnicate is not a curl option this import knows/,
    ],
    ['a missing value', `curl http://h/a -H`, /-H needs a value/],
    ['no URL', `curl -s`, /command 1 \(line 1\): has no URL/],
    ['another scheme', `curl ftp://h/file`, /only http and https URLs make steps/],
    [
      "Windows' cmd format",
      'curl ^"http://h/a^" ^\n  -H ^"a: b^"',
      /"Copy as cURL \(cmd\)" for Windows: copy as cURL \(bash\)/,
    ],
    ['nothing', '   \n  ', /no curl command given/],
    ['a header that is not one', `curl -H 'nocolon' http://h/a`, /-H "nocolon" is not a header/],
  ])('%s', (_name, text, message) => {
    expect(refusal(() => curl(text.replace(/\\n/g, '\n')))).toMatch(message)
  })
})

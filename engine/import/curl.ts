// curl commands as requests: what Chromium's and Firefox's "Copy as cURL" write (-H, -b, -X,
// --data-raw, --compressed, $'…' quoting, line continuations), and the options people add by hand
// (-d, --json, -u, -G, -I, -A, -e, -k). An option that would change the request in a way a step
// cannot say (-F, -d @file, -T) is refused by name; options about curl's own output are ignored.
import { ConfigError } from '../config/errors.ts'
import { splitCommands, type ShellCommand } from './shell.ts'
import type { ReadRequests, SourceRequest } from './types.ts'

/** Options that take a value and change nothing a step sends (output, timeouts, TLS files…). */
const IGNORED_WITH_VALUE = new Set([
  '-o',
  '--output',
  '-w',
  '--write-out',
  '-m',
  '--max-time',
  '--connect-timeout',
  '--retry',
  '--retry-delay',
  '--retry-max-time',
  '-x',
  '--proxy',
  '--resolve',
  '--connect-to',
  '--cacert',
  '--capath',
  '-E',
  '--cert',
  '--key',
  '--cert-type',
  '--key-type',
  '--pass',
  '-c',
  '--cookie-jar',
  '-D',
  '--dump-header',
  '--limit-rate',
  '-y',
  '--speed-time',
  '-Y',
  '--speed-limit',
  '--max-redirs',
  '--interface',
  '--dns-servers',
  '--trace',
  '--trace-ascii',
  '--stderr',
  '--ciphers',
  '--unix-socket',
  '--abstract-unix-socket',
  '--keepalive-time',
  '--expect100-timeout',
  '--happy-eyeballs-timeout-ms',
  '--proto',
  '--proto-redir',
  '--proto-default',
  '-K',
  '--config',
  '--netrc-file',
  '--max-filesize',
])
/** Flags that change nothing a step sends. */
const IGNORED_FLAGS = new Set([
  '-s',
  '--silent',
  '-S',
  '--show-error',
  '-v',
  '--verbose',
  '-i',
  '--include',
  '-L',
  '--location',
  '--http1.0',
  '--http1.1',
  '--http2',
  '--http2-prior-knowledge',
  '--http3',
  '-f',
  '--fail',
  '--fail-with-body',
  '-N',
  '--no-buffer',
  '-#',
  '--progress-bar',
  '-g',
  '--globoff',
  '--path-as-is',
  '-4',
  '--ipv4',
  '-6',
  '--ipv6',
  '-n',
  '--netrc',
  '--netrc-optional',
  '-O',
  '--remote-name',
  '-J',
  '--remote-header-name',
  '-q',
  '--disable',
  '--no-keepalive',
  '--tcp-nodelay',
  '--tcp-fastopen',
  '-Z',
  '--parallel',
  '--tlsv1',
  '--tlsv1.0',
  '--tlsv1.1',
  '--tlsv1.2',
  '--tlsv1.3',
  '--ssl',
  '--ssl-reqd',
  '--no-sessionid',
  '--no-alpn',
  '--no-npn',
  '--raw',
  '--tr-encoding',
  '--styled-output',
  '--no-progress-meter',
  '--location-trusted',
  '--post301',
  '--post302',
  '--post303',
  '--compressed-ssh',
])
/** Options whose request a step cannot make: refused with the reason. */
const REFUSED: Record<string, string> = {
  '-F': 'multipart forms (-F) need files; send the form as a body with -d or --data-raw',
  '--form': 'multipart forms (--form) need files; send the form as a body with --data-raw',
  '--form-string': 'multipart forms need a boundary; send the form as a body with --data-raw',
  '-T': 'uploading a file (-T) needs the file; put its content in --data-raw',
  '--upload-file': 'uploading a file needs the file; put its content in --data-raw',
  '--digest': 'digest authentication answers a challenge per request, which a step cannot',
  '--ntlm': 'NTLM authentication answers a challenge per connection, which a step cannot',
  '--negotiate': 'Negotiate authentication answers a challenge, which a step cannot',
  '--aws-sigv4': 'AWS signatures are computed per request, which a step cannot',
}
/** Options left out that change what curl would send, or where: said in a note, never silently. */
const NOTED: Record<string, string> = {
  '-K': 'curl reads more options from that file, which the import does not read: none of them is in the config',
  '--config':
    'curl reads more options from that file, which the import does not read: none of them is in the config',
  '--netrc-file': 'curl reads a user and password from that file, which the import does not read',
  '-n': 'curl reads a user and password from ~/.netrc, which the import does not read',
  '--netrc': 'curl reads a user and password from ~/.netrc, which the import does not read',
  '--netrc-optional': 'curl reads a user and password from ~/.netrc, which the import does not read',
  '--resolve': "curl connects to another address than the URL's host; the config sends to the URL's host",
  '--connect-to': "curl connects to another host than the URL's; the config sends to the URL's host",
}
const DATA = new Set([
  '-d',
  '--data',
  '--data-ascii',
  '--data-binary',
  '--data-raw',
  '--data-urlencode',
  '--json',
])
/** Short options that take a value (so `-XPOST`, `-H'a: b'` hold it). */
const SHORT_WITH_VALUE = new Set([
  '-X',
  '-H',
  '-b',
  '-d',
  '-u',
  '-A',
  '-e',
  '-o',
  '-w',
  '-m',
  '-x',
  '-E',
  '-c',
  '-D',
  '-y',
  '-Y',
  '-K',
  '-F',
  '-T',
])

interface Parsed {
  urls: string[]
  method: string | null
  headers: [string, string][]
  data: string[]
  json: boolean
  get: boolean
  head: boolean
  compressed: boolean
  insecure: boolean
  user: string | null
  /** What was left out that changes the request (NOTED). */
  notes: string[]
}

type Fail = (message: string) => never

function dataValue(option: string, value: string, fail: Fail): string {
  if (option === '--data-raw') return value
  if (option === '--data-urlencode') {
    const eq = value.indexOf('=')
    const at = value.indexOf('@')
    if (at >= 0 && (eq < 0 || at < eq)) fail(`${option} ${value} reads a file: give its content instead`)
    if (eq < 0) return encodeURIComponent(value)
    const encoded = encodeURIComponent(value.slice(eq + 1))
    return eq === 0 ? encoded : `${value.slice(0, eq)}=${encoded}`
  }
  if (value.startsWith('@')) fail(`${option} ${value} reads a file: give its content with --data-raw instead`)
  return value
}

/** One option and its value (or none) into `p`. */
function apply(p: Parsed, option: string, value: string, fail: Fail): void {
  if (option === '-X' || option === '--request') p.method = value.toUpperCase()
  else if (option === '-H' || option === '--header') {
    const colon = value.indexOf(':')
    const semi = value.indexOf(';')
    // "Name;" sends an empty header; "Name:" with nothing after removes one curl would add.
    if (colon < 0 && semi > 0 && value.slice(semi + 1).trim() === '')
      p.headers.push([value.slice(0, semi).trim(), ''])
    else if (colon <= 0) fail(`-H "${value}" is not a header (Name: value)`)
    else if (value.slice(colon + 1).trim() !== '')
      p.headers.push([value.slice(0, colon).trim(), value.slice(colon + 1).trim()])
  } else if (option === '-b' || option === '--cookie') {
    if (!value.includes('=')) fail(`-b ${value} reads cookies from a file: give them as -b 'name=value'`)
    p.headers.push(['Cookie', value])
  } else if (DATA.has(option)) {
    p.data.push(dataValue(option, value, fail))
    if (option === '--json') p.json = true
  } else if (option === '-u' || option === '--user') p.user = value
  else if (option === '-A' || option === '--user-agent') p.headers.push(['User-Agent', value])
  else if (option === '-e' || option === '--referer') p.headers.push(['Referer', value.replace(/;auto$/, '')])
  else if (option === '--url') p.urls.push(value)
}

function flag(p: Parsed, option: string): boolean {
  if (option === '--compressed') p.compressed = true
  else if (option === '-k' || option === '--insecure') p.insecure = true
  else if (option === '-G' || option === '--get') p.get = true
  else if (option === '-I' || option === '--head') p.head = true
  else return IGNORED_FLAGS.has(option)
  return true
}

/** `-sSL`, `-XPOST`, `-H'a: b'`: short options cut into [option, attached value]. */
function shortOptions(word: string): [string, string | null][] {
  const out: [string, string | null][] = []
  for (let i = 1; i < word.length; i++) {
    const option = `-${word[i]}`
    if (SHORT_WITH_VALUE.has(option) || option in REFUSED) {
      out.push([option, i + 1 < word.length ? word.slice(i + 1) : null])
      return out
    }
    out.push([option, null])
  }
  return out
}

function parseWords(words: readonly string[], fail: Fail): Parsed {
  const p: Parsed = {
    urls: [],
    method: null,
    headers: [],
    data: [],
    json: false,
    get: false,
    head: false,
    compressed: false,
    insecure: false,
    user: null,
    notes: [],
  }
  const takesValue = (o: string) =>
    SHORT_WITH_VALUE.has(o) ||
    IGNORED_WITH_VALUE.has(o) ||
    DATA.has(o) ||
    ['--request', '--header', '--cookie', '--user', '--user-agent', '--referer', '--url'].includes(o) ||
    o in REFUSED
  for (let i = 1; i < words.length; i++) {
    const word = words[i]!
    if (word === '--') {
      p.urls.push(...words.slice(i + 1))
      break
    }
    if (!word.startsWith('-') || word === '-') {
      p.urls.push(word)
      continue
    }
    const eq = word.startsWith('--') ? word.indexOf('=') : -1
    const options: [string, string | null][] = word.startsWith('--')
      ? [eq > 0 ? [word.slice(0, eq), word.slice(eq + 1)] : [word, null]]
      : shortOptions(word)
    for (const [option, attached] of options) {
      if (option in REFUSED) fail(`${option}: ${REFUSED[option]}`)
      if (!takesValue(option)) {
        if (!flag(p, option)) fail(`${option} is not a curl option this import knows`)
        if (option in NOTED) p.notes.push(`left out ${option}: ${NOTED[option]}`)
        continue
      }
      const value = attached ?? words[++i]
      if (value === undefined) fail(`${option} needs a value`)
      if (option in NOTED) p.notes.push(`left out ${option} ${value.slice(0, 80)}: ${NOTED[option]}`)
      if (!IGNORED_WITH_VALUE.has(option)) apply(p, option, value, fail)
    }
  }
  return p
}

/** The URL curl would request: a scheme added when none is given, the query of -G appended. */
function requestUrl(raw: string, query: string | null, fail: Fail): string {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`
  let url: URL
  try {
    url = new URL(withScheme)
  } catch {
    return fail(`"${raw}" is not a URL`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    fail(`${raw}: only http and https URLs make steps`)
  if (query) url.search = url.search ? `${url.search}&${query}` : `?${query}`
  return url.toString()
}

function toRequests(p: Parsed, fail: Fail): SourceRequest[] {
  if (p.urls.length === 0) fail('has no URL')
  const headers = [...p.headers]
  const has = (name: string) => headers.some(([n]) => n.toLowerCase() === name)
  const data = p.data.length ? p.data.join('&') : null
  if (data !== null && !p.get && !has('content-type'))
    headers.push(['Content-Type', p.json ? 'application/json' : 'application/x-www-form-urlencoded'])
  if (p.json && !has('accept')) headers.push(['Accept', 'application/json'])
  // What curl sends for --compressed (a browser's own list, which Chromium's copy leaves to curl).
  if (p.compressed && !has('accept-encoding')) headers.push(['Accept-Encoding', 'gzip, deflate, br'])
  if (p.user !== null && !has('authorization'))
    headers.push([
      'Authorization',
      `Basic ${Buffer.from(p.user.includes(':') ? p.user : `${p.user}:`, 'utf8').toString('base64')}`,
    ])
  const method = p.method ?? (p.head ? 'HEAD' : data !== null && !p.get ? 'POST' : 'GET')
  return p.urls.map((raw) => ({
    method,
    url: requestUrl(raw, p.get ? data : null, fail),
    headers,
    body: p.get ? null : data,
    ...(p.insecure ? { insecure: true } : {}),
  }))
}

function commandRequests(command: ShellCommand, index: number, notes: string[]): SourceRequest[] {
  const fail: Fail = (message) => {
    throw new ConfigError([{ field: '', message: `command ${index + 1} (line ${command.line}): ${message}` }])
  }
  const program = command.words[0] ?? ''
  if (!/(^|\/)curl(\.exe)?$/.test(program))
    fail(`starts with "${program.slice(0, 40)}", not curl: paste curl commands (a browser's "Copy as cURL")`)
  const parsed = parseWords(command.words, fail)
  for (const n of parsed.notes) notes.push(`command ${index + 1}: ${n}`)
  return toRequests(parsed, fail)
}

/**
 * Every request of one or more curl commands, in order: shell texts (a pasted block), or one
 * command's words already split by a shell (`cannonade import curl curl -H … URL`).
 */
export function readCurl(sources: readonly (string | readonly string[])[]): ReadRequests {
  const commands = sources.flatMap((t) =>
    typeof t === 'string' ? splitCommands(t) : [{ words: [...t], line: 1, dropped: [] }],
  )
  if (commands.length === 0)
    throw new ConfigError([
      { field: '', message: 'no curl command given (paste one or more "curl …" commands)' },
    ])
  const notes: string[] = []
  const requests = commands.flatMap((c, i) => {
    if (c.dropped.length)
      notes.push(
        `command ${i + 1}: left out what follows a pipe or redirection (${c.dropped.join(' ').slice(0, 60)})`,
      )
    return commandRequests(c, i, notes)
  })
  return { requests, notes, name: `curl: ${requests.length} request${requests.length === 1 ? '' : 's'}` }
}

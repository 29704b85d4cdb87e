// Requests into targets and scenario steps: one target per origin (the first party's first), one
// step per request with its method, path, headers and body as a RunConfig may hold them (headers
// Cannonade sets itself, HTTP/2 pseudo-headers and the correlation header left out, duplicates
// joined), secrets masked (mask.ts), and a note for whatever was changed or left out. A URL's
// user and password become an Authorization header masked as a secret (as curl sends them), never
// a target's URL; a request an import reads against a base (OpenAPI --base) that lands on another
// origin is left out: no import changes a target's host. Linear in the requests: past a target's
// 50 steps the rest are only counted.
import { HTTP_METHODS } from '../config/schema-fields.ts'
import { DEFAULT_CORRELATION_HEADER } from '../config/schema-stored.ts'
import { FRAMING_HEADERS, fieldValueProblem } from '../config/wire.ts'
import { LIMITS } from '../config/limits.ts'
import { maskBody, maskHeader, maskPath, SecretMasker } from './mask.ts'
import type { ImportedSecret, ReadRequests, SourceRequest } from './types.ts'

/** The most steps a target holds and targets a config holds (engine/config/schema-target.ts, schema-stored.ts). */
const MAX_STEPS = 50
const MAX_TARGETS = 32
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/
// What a request line may carry as is (RFC 3986, as engine/config/wire.ts checks a step path).
const PATH_CHAR = /[A-Za-z0-9\-._~!$&'()*+,;=:@/?%]/

export interface StepInput {
  name: string
  method?: string
  path: string
  headers?: Record<string, string>
  body?: string
  expectStatus?: number
}

export interface TargetInput {
  name: string
  url: string
  insecure?: boolean
  secrets?: Record<string, string>
  steps: StepInput[]
}

export interface Built {
  targets: TargetInput[]
  notes: string[]
  secrets: ImportedSecret[]
}

/** A path as a request line may carry it: other characters percent-encoded, a stray % too. */
export function requestPath(path: string): string {
  let out = ''
  for (let i = 0; i < path.length; i++) {
    const c = path[i]!
    if (c === '%' && !/^[0-9A-Fa-f]{2}$/.test(path.slice(i + 1, i + 3))) out += '%25'
    else if (PATH_CHAR.test(c)) out += c
    else out += encodeURIComponent(c)
  }
  return out
}

interface Group {
  url: string
  requests: SourceRequest[]
}

/** `url` without its user and password (they never stand in a target's URL). */
function withoutUserinfo(url: string): string {
  const u = new URL(url)
  if (u.username === '' && u.password === '') return url
  u.username = ''
  u.password = ''
  const s = u.toString()
  return url.endsWith('/') || u.pathname !== '/' ? s : s.slice(0, -1)
}

/** The requests by the target they go to: under `base`, or their origin; the first party first. */
function groups(read: ReadRequests, c: Context): Group[] {
  const byUrl = new Map<string, Group>()
  const base = read.base ? withoutUserinfo(read.base) : undefined
  if (read.firstParty) byUrl.set(read.firstParty, { url: read.firstParty, requests: [] })
  for (const r of read.requests) {
    const url = new URL(r.url)
    if (base && url.origin !== new URL(base).origin) {
      if (c.offBase++ < 3)
        c.notes.push(
          `left out ${r.method} ${r.url.slice(0, 120)}: it is not on --base ${base} (an import never changes a target's host)`,
        )
      continue
    }
    const plain = withoutUserinfo(r.url)
    const under = base && (plain === base || plain.startsWith(`${base}/`) || plain.startsWith(`${base}?`))
    const key = under && base ? base : url.origin
    if (!byUrl.has(key)) byUrl.set(key, { url: key, requests: [] })
    byUrl.get(key)!.requests.push(r)
  }
  return [...byUrl.values()].filter((g) => g.requests.length > 0)
}

const DROPPED_HEADERS = new Set(['host', ...Object.keys(FRAMING_HEADERS)])

/** Headers as a step may send them: one per name (cookies joined by ";", others by ","). */
function cleanHeaders(
  headers: readonly [string, string][],
  dropped: Set<string>,
): Map<string, [string, string]> {
  const out = new Map<string, [string, string]>()
  for (const [name, value] of headers) {
    const lower = name.toLowerCase()
    if (name.startsWith(':')) continue // HTTP/2 pseudo-headers: the request line says them
    if (DROPPED_HEADERS.has(lower) || lower === DEFAULT_CORRELATION_HEADER || !HEADER_NAME.test(name)) {
      dropped.add(lower)
      continue
    }
    if (fieldValueProblem(value) || value.length > LIMITS.headerValueLength) {
      dropped.add(lower)
      continue
    }
    const had = out.get(lower)
    out.set(lower, had ? [had[0], `${had[1]}${lower === 'cookie' ? '; ' : ', '}${value}`] : [name, value])
  }
  return out
}

/** A step name: the source's, else METHOD /path, cut to 40 characters and made unique. */
function stepName(r: SourceRequest, path: string, taken: Set<string>): string {
  const base = (r.name ?? `${r.method} ${path.split('?')[0]}`).replace(/[\p{Cc}]/gu, ' ').trim() || r.method
  const cut = (s: string, room: number) => (s.length > room ? `${s.slice(0, room - 1)}…` : s)
  let name = cut(base, 40)
  for (let n = 2; taken.has(name); n++) name = `${cut(base, 40 - ` #${n}`.length)} #${n}`
  taken.add(name)
  return name
}

interface Context {
  notes: string[]
  dropped: Set<string>
  /** Origins whose URLs held a user and password (said once each). */
  userinfo: Set<string>
  /** Requests not on the base (the first three are named). */
  offBase: number
}

/** A URL's user and password, as the Authorization header curl sends for them; the URL without them. */
function userinfo(r: SourceRequest, c: Context): SourceRequest {
  const url = new URL(r.url)
  if (url.username === '' && url.password === '') return r
  const user = decodeURIComponent(url.username)
  const password = decodeURIComponent(url.password)
  url.username = ''
  url.password = ''
  c.userinfo.add(url.origin)
  const has = r.headers.some(([n]) => n.toLowerCase() === 'authorization')
  const basic = `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`
  return {
    ...r,
    url: url.toString(),
    headers: has ? r.headers : [...r.headers, ['Authorization', basic]],
    credentials: [...(r.credentials ?? []), 'Authorization'],
  }
}

/** Why a step's request line or headers are past what a config holds, or null. */
function tooLarge(path: string, headers: Map<string, [string, string]>): string | null {
  if (path.length > LIMITS.urlLength) return `its path is over ${LIMITS.urlLength} characters`
  if (headers.size > LIMITS.headers) return `it has ${headers.size} headers (a step holds ${LIMITS.headers})`
  const long = [...headers.values()].find(([k]) => k.length > LIMITS.headerNameLength)
  return long
    ? `its header ${long[0].slice(0, 40)}… has a name over ${LIMITS.headerNameLength} characters`
    : null
}

function step(
  r: SourceRequest,
  basePath: string,
  m: SecretMasker,
  taken: Set<string>,
  c: Context,
): StepInput | null {
  const url = new URL(r.url)
  const where = `${r.method} ${url.pathname}`
  if (!(HTTP_METHODS as readonly string[]).includes(r.method)) {
    c.notes.push(`left out ${where}: a step's method is one of ${HTTP_METHODS.join(', ')}`)
    return null
  }
  const full = requestPath(`${url.pathname}${url.search}`)
  const path = basePath && full.startsWith(basePath) ? full.slice(basePath.length) || '/' : full
  const headers = cleanHeaders(r.headers, c.dropped)
  const large = tooLarge(path, headers)
  if (large) {
    c.notes.push(`left out ${where.slice(0, 120)}: ${large}`)
    return null
  }
  const body = r.body === null || r.body === '' ? null : r.body
  const literal = [path, ...[...headers.values()].map(([, v]) => v), body ?? ''].some((t) => t.includes('${'))
  if (literal) {
    c.notes.push(`left out ${where}: it holds "\${", which a step would read as a variable`)
    return null
  }
  if (body !== null && Buffer.byteLength(body) > LIMITS.bodyBytes) {
    c.notes.push(`left out ${where}: its body is over ${LIMITS.bodyBytes / 1024 / 1024} MB`)
    return null
  }
  const name = stepName(r, path, taken)
  const credentials = r.credentials ?? []
  const contentType = headers.get('content-type')?.[1] ?? ''
  const out: StepInput = {
    name,
    ...(r.method !== 'GET' ? { method: r.method } : {}),
    path: maskPath(m, path, credentials, name),
  }
  if (headers.size)
    out.headers = Object.fromEntries(
      [...headers.values()].map(([k, v]) => [k, maskHeader(m, k, v, credentials.includes(k), name)]),
    )
  if (body !== null) out.body = maskBody(m, body, contentType, name)
  // A status the default rule (200–399) does not count as a success: the step expects it.
  if (r.status !== undefined && r.status >= 100 && r.status < 600 && (r.status < 200 || r.status >= 400))
    out.expectStatus = r.status
  return out
}

/** A target's name from its URL: host and port, in the characters a target name may hold. */
function targetName(url: string, taken: Set<string>): string {
  const base =
    new URL(url).host
      .replace(/[^A-Za-z0-9 ._:@+-]/g, '')
      .replace(/^[^A-Za-z0-9]+/, '')
      .slice(0, 56) || 'target'
  let name = base
  for (let n = 2; taken.has(name); n++) name = `${base} ${n}`
  taken.add(name)
  return name
}

/** The targets and steps of what a source read. */
export function buildTargets(read: ReadRequests): Built {
  const c: Context = { notes: [], dropped: new Set(), userinfo: new Set(), offBase: 0 }
  const secrets: ImportedSecret[] = []
  const names = new Set<string>()
  let all = groups(read, c)
  if (all.length > MAX_TARGETS) {
    c.notes.push(
      `left out ${all.length - MAX_TARGETS} sites after the first ${MAX_TARGETS} (a config holds ${MAX_TARGETS} targets)`,
    )
    all = all.slice(0, MAX_TARGETS)
  }
  const targets: TargetInput[] = []
  for (const g of all) {
    const name = targetName(g.url, names)
    const masker = new SecretMasker(name)
    const taken = new Set<string>()
    const basePath = new URL(g.url).pathname.replace(/\/$/, '')
    const steps: StepInput[] = []
    let i = 0
    for (; i < g.requests.length && steps.length < MAX_STEPS; i++) {
      const s = step(userinfo(g.requests[i]!, c), basePath, masker, taken, c)
      if (s) steps.push(s)
    }
    // Past a target's steps the rest are counted, not made (100,000 requests stay linear).
    if (i < g.requests.length)
      c.notes.push(
        `${name}: kept the first ${MAX_STEPS} steps; ${g.requests.length - i} more requests were left out (a target holds ${MAX_STEPS} steps)`,
      )
    if (steps.length === 0) continue
    const made = masker
      .list()
      .filter((s) => steps.some((st) => JSON.stringify(st).includes('${' + s.variable + '}')))
    secrets.push(...made)
    targets.push({
      name,
      url: g.url,
      ...(g.requests.some((r) => r.insecure) ? { insecure: true } : {}),
      ...(made.length ? { secrets: Object.fromEntries(made.map((s) => [s.variable, s.env])) } : {}),
      steps,
    })
  }
  if (c.offBase > 3) c.notes.push(`left out ${c.offBase - 3} more requests not on --base`)
  for (const origin of c.userinfo)
    c.notes.push(
      `${origin}: the URL's user and password became an Authorization header, kept out of the config as a secret`,
    )
  if (c.dropped.size)
    c.notes.push(
      `left out the headers ${[...c.dropped].sort().join(', ')}: Cannonade sets them itself, or they cannot be sent as they were`,
    )
  // A source of 100,000 requests left out one by one does not make 100,000 lines of notes.
  const notes =
    c.notes.length > 40
      ? [...c.notes.slice(0, 40), `and ${c.notes.length - 40} more notes like these`]
      : c.notes
  return { targets, notes, secrets }
}

// Requests into targets and scenario steps: one target per origin (the first party's first), one
// step per request with its method, path, headers and body as a RunConfig may hold them (headers
// Cannonade sets itself, HTTP/2 pseudo-headers and the correlation header left out, duplicates
// joined), secrets masked (mask.ts), and a note for whatever was changed or left out.
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

/** The requests by the target they go to: under `base`, or their origin; the first party first. */
function groups(read: ReadRequests): Group[] {
  const byUrl = new Map<string, Group>()
  if (read.firstParty) byUrl.set(read.firstParty, { url: read.firstParty, requests: [] })
  for (const r of read.requests) {
    const url = new URL(r.url)
    const under =
      read.base &&
      (r.url === read.base || r.url.startsWith(`${read.base}/`) || r.url.startsWith(`${read.base}?`))
    const key = under ? read.base! : url.origin
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
  const c: Context = { notes: [], dropped: new Set() }
  const secrets: ImportedSecret[] = []
  const names = new Set<string>()
  let all = groups(read)
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
    let steps = g.requests.map((r) => step(r, basePath, masker, taken, c)).filter((s) => s !== null)
    if (steps.length > MAX_STEPS) {
      c.notes.push(
        `${name}: kept the first ${MAX_STEPS} of ${steps.length} requests (a target holds ${MAX_STEPS} steps)`,
      )
      steps = steps.slice(0, MAX_STEPS)
    }
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
  if (c.dropped.size)
    c.notes.push(
      `left out the headers ${[...c.dropped].sort().join(', ')}: Cannonade sets them itself, or they cannot be sent as they were`,
    )
  return { targets, notes: c.notes, secrets }
}

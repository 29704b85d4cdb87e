// What a config may put on the wire, and the counts only new input is held to. The runner writes a target's request into a template as is
// (engine/runner/connection.ts) and a scenario step's request line and headers by concatenation
// (engine/runner/scenario.ts), so anything unchecked here is sent as written: a CR/LF in a header
// value or a step path injects headers, a NUL goes out raw, and a `Content-Length` header (or a
// correlation header named so) breaks the request's framing. Checked per RFC 9110 / RFC 3986 on
// new input only (schema.ts: RunConfigV1Schema); runs already stored are read without these rules.
import { LIMITS } from './limits.ts'
import type { StoredRunConfig } from './schema-stored.ts'

type Path = (string | number)[]
export interface WireIssue {
  path: Path
  message: string
}

/**
 * Headers the request's framing or connection handling depends on: Cannonade sets them (Host from
 * the URL, Content-Length from the body, Connection from keepAlive) or must never send them
 * (chunked bodies, upgrades, 100-continue waits, hop-by-hop fields).
 */
export const FRAMING_HEADERS: Readonly<Record<string, string>> = {
  'content-length': 'Cannonade sets it from the body',
  'transfer-encoding': 'Cannonade sends bodies with a Content-Length, never chunked',
  connection: 'Cannonade sets it from load.keepAlive',
  'keep-alive': 'it is a hop-by-hop field tied to Connection',
  'proxy-connection': 'it is a hop-by-hop field tied to Connection',
  upgrade: 'the connection must stay HTTP/1.1',
  te: 'it is a hop-by-hop field',
  trailer: 'Cannonade sends no trailers',
  expect: 'a 100-continue wait would stall every request',
}

/** Why a header of this name may not be set in a config, or null. */
function framingReason(name: string): string | null {
  return FRAMING_HEADERS[name.toLowerCase()] ?? null
}

const CTL_NAMES: Record<number, string> = { 0: 'NUL', 10: 'a line feed (LF)', 13: 'a carriage return (CR)' }

function describeChar(code: number): string {
  return CTL_NAMES[code] ?? `the control character 0x${code.toString(16).padStart(2, '0')}`
}

/**
 * RFC 9110 field-value: visible characters, space, tab and obs-text (0x80–0xFF). A CR or LF would
 * end the header line (header injection), NUL and other controls are refused by servers or
 * mangled, and a character above 0xFF cannot be written as one byte.
 */
export function fieldValueProblem(value: string): string | null {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i)
    if ((c < 0x20 && c !== 0x09) || c === 0x7f)
      return `holds ${describeChar(c)}, which a header value cannot carry`
    if (c > 0xff)
      return `holds "${value[i]}", which a header value cannot carry as one byte; percent-encode it or use ASCII`
  }
  return null
}

/** The first character below 0x20 (or DEL, or also space with `space`), or -1. */
function firstControl(text: string, space = false): number {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c < 0x20 || c === 0x7f || (space && c === 0x20)) return i
  }
  return -1
}
const hasControl = (text: string) => firstControl(text) >= 0
const VAR = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g
// RFC 3986 path-abempty + query: unreserved, sub-delims, ":", "@", "/", "?", and %HH.
const PATH_CHARS = /^[A-Za-z0-9\-._~!$&'()*+,;=:@/?%]*$/
const BAD_ESCAPE = /%(?![0-9A-Fa-f]{2})/

/** A step path (variables stripped first): what may stand in a request line's target. */
export function pathProblem(path: string): string | null {
  const literal = path.replace(VAR, '')
  if (!PATH_CHARS.test(literal)) {
    const bad = [...literal].find((ch) => !PATH_CHARS.test(ch)) ?? ''
    const code = bad.charCodeAt(0)
    const what = code < 0x20 || code === 0x7f ? describeChar(code) : bad === ' ' ? 'a space' : `"${bad}"`
    return `holds ${what}, which a request line cannot carry; percent-encode it (a space is %20)`
  }
  if (BAD_ESCAPE.test(literal)) return 'holds a % that does not start an escape like %20'
  return null
}

/** UTF-8 length of a string without encoding it (a body may be megabytes). */
function utf8Bytes(s: string): number {
  let n = 0
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c < 0x80) n += 1
    else if (c < 0x800) n += 2
    else if (c >= 0xd800 && c <= 0xdbff) {
      n += 4
      i++
    } else n += 3
  }
  return n
}

function bodyIssue(body: string | null, path: Path): WireIssue | null {
  if (body === null || body.length <= LIMITS.bodyBytes / 4) return null
  const bytes = utf8Bytes(body)
  return bytes > LIMITS.bodyBytes
    ? {
        path,
        message: `is ${bytes.toLocaleString('en')} bytes, more than ${LIMITS.bodyBytes.toLocaleString('en')}`,
      }
    : null
}

/** A target's or a step's headers: count, names, values, framing, duplicates. */
function headerIssues(
  headers: Record<string, string>,
  path: Path,
  opts: { correlationHeader: string; hostAllowed: boolean },
): WireIssue[] {
  const issues: WireIssue[] = []
  const entries = Object.entries(headers)
  if (entries.length > LIMITS.headers)
    issues.push({ path, message: `has ${entries.length} headers, more than ${LIMITS.headers}` })
  const seen = new Map<string, string>()
  for (const [name, value] of entries) {
    const at = [...path, name]
    const lower = name.toLowerCase()
    if (name.length > LIMITS.headerNameLength) {
      issues.push({ path: at, message: `is a header name longer than ${LIMITS.headerNameLength} characters` })
      continue
    }
    const framing = framingReason(name)
    if (framing) issues.push({ path: at, message: `cannot be set: ${framing}` })
    else if (lower === 'host' && !opts.hostAllowed)
      issues.push({ path: at, message: "cannot be set on a step: its requests carry the target url's host" })
    else if (lower === opts.correlationHeader.toLowerCase())
      issues.push({
        path: at,
        message: `is the correlation header: Cannonade sets it on every request (choose another correlationHeader to send your own)`,
      })
    const twin = seen.get(lower)
    if (twin !== undefined)
      issues.push({ path: at, message: `is given twice ("${twin}" too; header names are case-insensitive)` })
    seen.set(lower, name)
    if (value.length > LIMITS.headerValueLength)
      issues.push({
        path: at,
        message: `is longer than ${LIMITS.headerValueLength.toLocaleString('en')} characters`,
      })
    const problem = fieldValueProblem(value)
    if (problem) issues.push({ path: at, message: problem })
  }
  return issues
}

/** `${name}` uses in `text` that are neither built in nor captured by an earlier step. */
function unknownVariables(text: string, known: ReadonlySet<string>): string[] {
  const out: string[] = []
  for (const m of text.matchAll(VAR)) if (!known.has(m[1]!) && !out.includes(m[1]!)) out.push(m[1]!)
  return out
}

/**
 * What a scenario step may use as `${…}` without capturing it (engine/runner/connection.ts sets
 * them): `iteration` is new each pass, `user` the same for a connection's once-steps and every pass
 * after them, `conn` the connection's number, `run` the run's correlation prefix (names made from
 * it are new in every run, though a stack's database keeps earlier runs' users).
 */
export const BUILTIN_VARIABLES = ['iteration', 'user', 'conn', 'run'] as const
export type BuiltinVariable = (typeof BUILTIN_VARIABLES)[number]

function stepIssues(
  target: StoredRunConfig['targets'][number],
  i: number,
  correlationHeader: string,
): WireIssue[] {
  const issues: WireIssue[] = []
  const secrets = Object.keys(target.secrets ?? {})
  for (const name of secrets)
    if ((BUILTIN_VARIABLES as readonly string[]).includes(name))
      issues.push({ path: ['targets', i, 'secrets', name], message: `${name} is a built-in variable` })
  if (secrets.length > 0 && !target.steps)
    issues.push({
      path: ['targets', i, 'secrets'],
      message: "are for the ${…} of a target's steps, and this target has none",
    })
  const known = new Set<string>([...BUILTIN_VARIABLES, ...secrets])
  target.steps?.forEach((step, j) => {
    const at: Path = ['targets', i, 'steps', j]
    const variables = (text: string, path: Path) => {
      for (const name of unknownVariables(text, known))
        issues.push({
          path,
          message: `step ${JSON.stringify(step.name)} uses \${${name}}, which no earlier step captures (built in: ${BUILTIN_VARIABLES.join(', ')}${secrets.length ? `; secrets: ${secrets.join(', ')}` : ''})`,
        })
    }
    for (const name of Object.keys(step.capture))
      if (secrets.includes(name))
        issues.push({
          path: [...at, 'capture', name],
          message: `${name} is one of the target's secrets: capture it under another name`,
        })
    if (hasControl(step.name)) issues.push({ path: [...at, 'name'], message: 'holds a control character' })
    const problem = pathProblem(step.path)
    if (problem) issues.push({ path: [...at, 'path'], message: problem })
    if (step.path.length > LIMITS.urlLength)
      issues.push({ path: [...at, 'path'], message: `is longer than ${LIMITS.urlLength} characters` })
    variables(step.path, [...at, 'path'])
    issues.push(...headerIssues(step.headers, [...at, 'headers'], { correlationHeader, hostAllowed: false }))
    for (const [name, value] of Object.entries(step.headers)) variables(value, [...at, 'headers', name])
    const body = bodyIssue(step.body, [...at, 'body'])
    if (body) issues.push(body)
    if (step.body !== null) variables(step.body, [...at, 'body'])
    // Captured here, usable from the next step on (once-steps' captures stay for every pass).
    for (const name of Object.keys(step.capture)) known.add(name)
  })
  return issues
}

/** Everything a config would send that HTTP does not allow, or that breaks the request. */
export function inputIssues(cfg: StoredRunConfig): WireIssue[] {
  const issues: WireIssue[] = []
  const correlation = cfg.correlationHeader
  const framing = framingReason(correlation)
  if (framing) issues.push({ path: ['correlationHeader'], message: `cannot be ${correlation}: ${framing}` })
  else if (correlation.toLowerCase() === 'host')
    issues.push({ path: ['correlationHeader'], message: 'cannot be Host: every request needs its own' })
  if (correlation.length > LIMITS.headerNameLength)
    issues.push({
      path: ['correlationHeader'],
      message: `is longer than ${LIMITS.headerNameLength} characters`,
    })
  cfg.targets.forEach((t, i) => {
    const at: Path = ['targets', i]
    const raw = firstControl(t.url, true)
    if (raw >= 0)
      issues.push({
        path: [...at, 'url'],
        message: `holds ${t.url[raw] === ' ' ? 'a space' : describeChar(t.url.charCodeAt(raw))}; percent-encode it (a space is %20)`,
      })
    if (t.url.length > LIMITS.urlLength)
      issues.push({ path: [...at, 'url'], message: `is longer than ${LIMITS.urlLength} characters` })
    issues.push(
      ...headerIssues(t.headers, [...at, 'headers'], { correlationHeader: correlation, hostAllowed: true }),
    )
    const credentials = urlHasCredentials(t.url)
    const authorization = Object.keys(t.headers).find((h) => h.toLowerCase() === 'authorization')
    if (credentials && authorization)
      issues.push({
        path: [...at, 'url'],
        message: `holds a user and password, and headers.${authorization} is set too: keep one`,
      })
    // A generated body ({ size }) is bounded by its own schema.
    const body = bodyIssue(typeof t.body === 'string' ? t.body : null, [...at, 'body'])
    if (body) issues.push(body)
    issues.push(...stepIssues(t, i, correlation))
  })
  // Names and tags are printed (CLI, reports, exports, logs): no line breaks or escape sequences.
  if (hasControl(cfg.name)) issues.push({ path: ['name'], message: 'holds a control character' })
  if (cfg.tags.length > LIMITS.tags) issues.push({ path: ['tags'], message: `at most ${LIMITS.tags} tags` })
  if (cfg.thresholds.length > LIMITS.thresholds)
    issues.push({ path: ['thresholds'], message: `at most ${LIMITS.thresholds} thresholds` })
  cfg.tags.forEach((tag, i) => {
    if (hasControl(tag)) issues.push({ path: ['tags', i], message: 'holds a control character' })
  })
  if (cfg.load.profile.kind === 'phases')
    cfg.load.profile.phases.forEach((ph, i) => {
      if (hasControl(ph.name))
        issues.push({ path: ['load', 'profile', 'phases', i, 'name'], message: 'holds a control character' })
    })
  return issues
}

function urlHasCredentials(url: string): boolean {
  try {
    const u = new URL(url)
    return u.username !== '' || u.password !== ''
  } catch {
    return false
  }
}

// Scenarios: a target whose connections each run a sequence of requests (register → login →
// browse), with values captured from one response and used in the next, as in the Locust study.
// Plain targets never come here: their request is prebuilt once (connection.ts).
import type { Step, Target } from '../config/schema.ts'
import { basicAuthorization } from '../config/redact.ts'
import { successRule, successTable } from '../config/status-rule.ts'

type Part = string | { v: string }

export interface CompiledStep {
  name: string
  method: string
  path: Part[]
  headers: [string, Part[]][]
  body: Part[] | null
  captures: [string, { json: string[] } | { header: string }][]
  /** Which statuses are a success for this step: its own rule, else its target's (status-rule.ts). */
  success: Uint8Array
  hasAuthorization: boolean
}

const VAR = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g

function parts(text: string): Part[] {
  const out: Part[] = []
  let last = 0
  for (const m of text.matchAll(VAR)) {
    if (m.index > last) out.push(text.slice(last, m.index))
    out.push({ v: m[1]! })
    last = m.index + m[0].length
  }
  if (last < text.length) out.push(text.slice(last))
  return out
}

function render(p: readonly Part[], vars: Record<string, string>): string {
  let s = ''
  for (const x of p) s += typeof x === 'string' ? x : (vars[x.v] ?? '')
  return s
}

export function compileScenario(steps: readonly Step[], target: Pick<Target, 'expect'> = {}): CompiledStep[] {
  return steps.map((s) => ({
    name: s.name,
    method: s.method,
    path: parts(s.path),
    headers: Object.entries(s.headers).map(([k, v]) => [k, parts(v)]),
    body: s.body === null ? null : parts(s.body),
    captures: Object.entries(s.capture).map(([name, c]) => [
      name,
      'json' in c ? { json: c.json.split('.').filter(Boolean) } : { header: c.header.toLowerCase() },
    ]),
    success: successTable(successRule(target, s)),
    hasAuthorization: Object.keys(s.headers).some((k) => k.toLowerCase() === 'authorization'),
  }))
}

export function renderStepRequest(
  step: CompiledStep,
  vars: Record<string, string>,
  opts: {
    host: string
    basePath: string
    /** Basic auth from the target URL's user and password, unless the step sets its own. */
    authorization: string | null
    keepAlive: boolean
    correlationHeader: string
    correlationId: string
  },
): Buffer {
  const body = step.body ? Buffer.from(render(step.body, vars), 'utf8') : null
  let head = `${step.method} ${opts.basePath}${render(step.path, vars)} HTTP/1.1\r\nHost: ${opts.host}\r\n${opts.authorization && !step.hasAuthorization ? `Authorization: ${opts.authorization}\r\n` : ''}Connection: ${opts.keepAlive ? 'keep-alive' : 'close'}\r\n`
  for (const [k, v] of step.headers) head += `${k}: ${render(v, vars)}\r\n`
  if (body) head += `Content-Length: ${body.length}\r\n`
  head += `${opts.correlationHeader}: ${opts.correlationId}\r\n\r\n`
  const h = Buffer.from(head, 'utf8')
  return body ? Buffer.concat([h, body]) : h
}

/** A step's request as HTTP/2 fields are made of it (h2/request.ts): its path, headers and body. */
export function renderStepParts(
  step: CompiledStep,
  vars: Record<string, string>,
  basePath: string,
): { path: string; headers: [string, string][]; body: Buffer | null } {
  return {
    path: basePath + render(step.path, vars),
    headers: step.headers.map(([k, v]) => [k, render(v, vars)]),
    body: step.body ? Buffer.from(render(step.body, vars), 'utf8') : null,
  }
}

/** Apply the captures of a step's successful answer; false when a value is missing. */
export function applyCaptures(
  step: CompiledStep,
  body: string,
  rawHeaders: readonly string[],
  vars: Record<string, string>,
): boolean {
  if (step.captures.length === 0) return true
  let json: unknown
  let parsed = false
  for (const [name, c] of step.captures) {
    let value: unknown
    if ('header' in c) {
      for (let i = 0; i < rawHeaders.length; i += 2)
        if (rawHeaders[i]!.toLowerCase() === c.header) value = rawHeaders[i + 1]
    } else {
      if (!parsed) {
        parsed = true
        try {
          json = JSON.parse(body)
        } catch {
          json = undefined
        }
      }
      value = json
      for (const key of c.json)
        value =
          value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined
    }
    // A value is written into the next request line or header as is: one holding CR, LF or NUL
    // (a hostile or broken target's answer) would inject headers, so it fails the capture.
    if (typeof value === 'string') {
      if (/[\r\n\0]/.test(value)) return false
      vars[name] = value
    } else if (typeof value === 'number' || typeof value === 'boolean') vars[name] = String(value)
    else return false
  }
  return true
}

/** What a scenario connection needs: the compiled steps and where and how to send them. */
export interface ScenarioSetup {
  steps: CompiledStep[]
  /** The first step that repeats: the ones before it run once per connection (`once: true`). */
  firstLoop: number
  host: string
  basePath: string
  authorization: string | null
  keepAlive: boolean
  correlationHeader: string
  correlationPrefix: string
}

export function scenarioSetup(
  target: Pick<Target, 'expect'> & { steps: readonly Step[] },
  url: URL,
  keepAlive: boolean,
  correlationHeader: string,
  correlationPrefix: string,
): ScenarioSetup {
  return {
    steps: compileScenario(target.steps, target),
    firstLoop: Math.max(
      0,
      target.steps.findIndex((s) => !s.once),
    ),
    host: url.host,
    basePath: url.pathname.replace(/\/$/, ''),
    authorization: basicAuthorization(url),
    keepAlive,
    correlationHeader,
    correlationPrefix,
  }
}

// The stacks against their OpenAPI document (targets/openapi.yaml): every operation, sent as
// `cannonade import openapi` makes it (engine/import/), must answer its documented success status
// with the documented headers, content type and body schema. Run by contract() in ./checks.ts, so
// natively and under Docker alike; a stack and the document cannot drift apart unnoticed.
import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'
import { parse } from 'yaml'
import { importScenario } from '../../engine/import/index.ts'
import { deref, isNode, type Node } from '../../engine/import/openapi-values.ts'

export const OPENAPI_FILE = new URL('../openapi.yaml', import.meta.url)
const TEXT = readFileSync(OPENAPI_FILE, 'utf8')
const DOC = parse(TEXT, { maxAliasCount: 100 }) as Node

const node = (v: unknown): Node => (isNode(v) ? v : {})

/** The title of the ad the document's createAd example posts (checks.ts allows it past the seed). */
export const OPENAPI_AD_TITLE = String(
  node(
    node(node(node(node(node(node(DOC.paths)['/ads']).post).requestBody).content)['application/json'])
      .example,
  ).title,
)

const FORMATS: Record<string, RegExp> = {
  'date-time': /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/,
}

/** What in `value` disagrees with `raw` (a schema of the subset the document uses), by path. */
export function schemaProblems(raw: unknown, value: unknown, at = '$'): string[] {
  const s = node(deref(DOC, raw))
  if (Array.isArray(s.enum) && !s.enum.includes(value))
    return [`${at}: ${JSON.stringify(value)} is not one of ${JSON.stringify(s.enum)}`]
  const type = s.type
  const fail = (what: string) => [`${at}: ${JSON.stringify(value)?.slice(0, 80)} is not ${what}`]
  if (type === 'integer' && !Number.isInteger(value)) return fail('an integer')
  if (type === 'number' && typeof value !== 'number') return fail('a number')
  if (type === 'boolean' && typeof value !== 'boolean') return fail('a boolean')
  if (type === 'string') {
    if (typeof value !== 'string') return fail('a string')
    if (typeof s.pattern === 'string' && !new RegExp(s.pattern).test(value))
      return fail(`matching ${s.pattern}`)
    const format = typeof s.format === 'string' ? FORMATS[s.format] : undefined
    if (format && !format.test(value)) return fail(`a ${String(s.format)}`)
  }
  if (typeof value === 'number') {
    if (typeof s.minimum === 'number' && value < s.minimum) return fail(`≥ ${s.minimum}`)
    if (typeof s.maximum === 'number' && value > s.maximum) return fail(`≤ ${s.maximum}`)
  }
  if (type === 'array') {
    if (!Array.isArray(value)) return fail('an array')
    return value.flatMap((v, i) => schemaProblems(s.items, v, `${at}[${i}]`))
  }
  if (type === 'object') {
    if (!isNode(value)) return fail('an object')
    const required = Array.isArray(s.required) ? s.required.map(String) : []
    const missing = required.filter((k) => !(k in value)).map((k) => `${at}.${k}: is missing`)
    const props = node(s.properties)
    return [
      ...missing,
      ...Object.keys(props)
        .filter((k) => k in value)
        .flatMap((k) => schemaProblems(props[k], value[k], `${at}.${k}`)),
    ]
  }
  return []
}

interface Sent {
  status: number
  headers: Headers
  text: string
}

async function send(
  base: string,
  step: { method: string; path: string; headers: Record<string, string>; body: string | null },
  vars: Record<string, string>,
): Promise<Sent> {
  const fill = (t: string) => t.replace(/\$\{(\w+)\}/g, (w, name: string) => vars[name] ?? w)
  const res = await fetch(base + fill(step.path), {
    method: step.method,
    headers: {
      ...Object.fromEntries(Object.entries(step.headers).map(([k, v]) => [k, fill(v)])),
      'x-correlation-id': 'openapi-contract',
    },
    ...(step.body !== null ? { body: fill(step.body) } : {}),
    signal: AbortSignal.timeout(30_000),
  })
  return { status: res.status, headers: res.headers, text: await res.text() }
}

/** What the document says the operation named `id` answers when it succeeds. */
function success(id: string): { status: number; response: Node } {
  for (const item of Object.values(node(DOC.paths)))
    for (const op of Object.values(node(item)))
      if (node(op).operationId === id) {
        const responses = node(node(op).responses)
        const code = Object.keys(responses).find((c) => c.startsWith('2'))!
        return { status: Number(code), response: node(deref(DOC, responses[code])) }
      }
  throw new Error(`no operation ${id} in targets/openapi.yaml`)
}

export function openapiContract(target: () => { base: string }): void {
  it('answers every operation of targets/openapi.yaml as documented, each sent as cannonade import openapi makes it', async () => {
    const made = importScenario('openapi', [TEXT], { base: target().base, source: 'targets/openapi.yaml' })
    const steps = made.config.targets[0]!.steps!
    const ids = Object.values(node(DOC.paths)).flatMap((item) =>
      Object.values(node(item)).map((op) => node(op).operationId),
    )
    expect(steps.map((s) => s.name)).toEqual(ids)
    // A fresh user each time (the document's example name is taken after the first run); the
    // password is the import's ${password} secret, the token the answer of login.
    const user = `openapi-${process.pid}-${Date.now()}`
    const vars: Record<string, string> = { password: 'contract-secret' }
    for (const step of steps) {
      const sent = await send(
        target().base,
        { ...step, body: step.body?.replaceAll('"user-1"', JSON.stringify(user)) ?? null },
        vars,
      )
      const { status, response } = success(step.name)
      const where = `${step.method} ${step.path} (${step.name})`
      expect(sent.status, `${where}: ${sent.text.slice(0, 200)}`).toBe(status)
      for (const header of Object.keys(node(response.headers)))
        expect(sent.headers.get(header), `${where}: header ${header}`).not.toBeNull()
      const content = node(response.content)
      const type = (sent.headers.get('content-type') ?? '').split(';')[0]!.trim()
      expect(Object.keys(content), `${where}: content type`).toContain(type)
      if (type === 'application/json') {
        const body = JSON.parse(sent.text) as unknown
        expect(schemaProblems(node(content[type]).schema, body), where).toEqual([])
        if (step.name === 'login') vars.authorization = String(node(body).token)
      }
    }
    expect(vars.authorization).toMatch(/\S/)
  })
}

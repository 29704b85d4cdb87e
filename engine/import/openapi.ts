// An OpenAPI 3 document (3.0 or 3.1, JSON or YAML) as requests: one per operation, in the
// document's order, against the base URL the user gives. Path, query, header and cookie
// parameters and the request body come from the document's examples and defaults, else from
// their schemas' types (said in a note); security schemes become the header, query or cookie they
// name, with a placeholder the import masks as a secret.
import { parse as parseYaml } from 'yaml'
import { ConfigError } from '../config/errors.ts'
import {
  deref,
  isNode,
  parameterValue,
  schemaValue,
  VALUE_BUDGET,
  type Guess,
  type Node,
} from './openapi-values.ts'
import type { ReadRequests, SourceRequest } from './types.ts'

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'] as const
/** Stands for a credential the document only describes; masked as a secret (secrets.ts). */
const PLACEHOLDER = 'CREDENTIAL'

const bad = (message: string, field = ''): never => {
  throw new ConfigError([{ field, message }])
}

function parseDocument(text: string): Node {
  let doc: unknown
  try {
    doc = text.trimStart().startsWith('{') ? JSON.parse(text) : parseYaml(text, { maxAliasCount: 100 })
  } catch (err) {
    const detail = err instanceof Error ? err.message.split('\n')[0] : String(err)
    return bad(`is not an OpenAPI document: neither JSON nor YAML (${detail})`)
  }
  if (!isNode(doc)) return bad('is not an OpenAPI document: it is not a mapping with "openapi" and "paths"')
  if ('swagger' in doc)
    bad(
      `is OpenAPI 2 (Swagger ${String(doc.swagger)}): Cannonade reads OpenAPI 3.0 and 3.1; convert it first (e.g. with swagger2openapi)`,
      'swagger',
    )
  if (typeof doc.openapi !== 'string')
    bad(
      'is not an OpenAPI document: it has no "openapi" field naming its version (3.0.x or 3.1.x)',
      'openapi',
    )
  if (!/^3\.[01](\.|$)/.test(doc.openapi as string))
    bad(`${String(doc.openapi)} is not a version this import reads (3.0.x or 3.1.x)`, 'openapi')
  if (!isNode(doc.paths) || Object.keys(doc.paths).length === 0)
    bad('has no operations (paths is missing or empty)', 'paths')
  return doc
}

interface Operation {
  path: string
  method: string
  op: Node
  params: Node[]
}

/** Path-level and operation-level parameters, the operation's winning on the same name and place. */
function parametersOf(doc: Node, item: Node, op: Node): Node[] {
  const list = (v: unknown): unknown[] => (Array.isArray(v) ? (v as unknown[]) : [])
  const all = [...list(item.parameters), ...list(op.parameters)].map((p) => deref(doc, p)).filter(isNode)
  const byKey = new Map<string, Node>()
  for (const p of all) byKey.set(`${String(p.in)}:${String(p.name)}`, p)
  return [...byKey.values()]
}

/**
 * The document's operations under paths that are paths: OpenAPI's keys start with "/" (one such
 * as "@evil.example/x" or "http://evil/x" appended to --base would name another host); others are
 * left out, named in `notes`.
 */
function operations(doc: Node, notes: string[]): Operation[] {
  const out: Operation[] = []
  const bad: string[] = []
  for (const [path, rawItem] of Object.entries(doc.paths as Node)) {
    if (!path.startsWith('/') || path.startsWith('//')) {
      bad.push(JSON.stringify(path.slice(0, 60)))
      continue
    }
    const item = deref(doc, rawItem)
    if (!isNode(item)) continue
    for (const method of METHODS) {
      const op = item[method]
      if (isNode(op))
        out.push({ path, method: method.toUpperCase(), op, params: parametersOf(doc, item, op) })
    }
  }
  if (bad.length)
    notes.push(
      `left out the paths ${bad.slice(0, 3).join(', ')}${bad.length > 3 ? `, and ${bad.length - 3} more` : ''}: a path starts with a single "/" (it is appended to --base, whose host it must not change)`,
    )
  return out
}

const text = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v))

/** The media type a body is sent as: JSON first, then a form, then text, then the first. */
function bodyOf(doc: Node, op: Node, where: string, g: Guess): { type: string; body: string } | null {
  const requestBody = deref(doc, op.requestBody)
  if (!isNode(requestBody) || !isNode(requestBody.content)) return null
  const types = Object.keys(requestBody.content)
  const type =
    types.find((t) => /^application\/(.+\+)?json/.test(t)) ??
    types.find((t) => t === 'application/x-www-form-urlencoded') ??
    types.find((t) => t.startsWith('text/')) ??
    types[0]
  if (type === undefined) return null
  const media = deref(doc, requestBody.content[type])
  const node = isNode(media) ? media : {}
  const value =
    'example' in node
      ? node.example
      : isNode(node.examples)
        ? (deref(doc, Object.values(node.examples)[0]) as Node | undefined)?.value
        : schemaValue(doc, node.schema, `${where} body`, g)
  if (type === 'application/x-www-form-urlencoded' && isNode(value))
    return {
      type,
      body: new URLSearchParams(
        Object.entries(value).map(([k, v]): [string, string] => [k, text(v)]),
      ).toString(),
    }
  if (/json/.test(type)) return { type, body: JSON.stringify(value ?? null) }
  return { type: type === '*/*' ? 'application/octet-stream' : type, body: value == null ? '' : text(value) }
}

/** Headers, query and cookies a security requirement asks for, with placeholders. */
function security(
  doc: Node,
  op: Node,
  q: URLSearchParams,
  headers: [string, string][],
  cookies: string[],
): string[] {
  const requirements = Array.isArray(op.security)
    ? op.security
    : Array.isArray(doc.security)
      ? doc.security
      : []
  const first: unknown = requirements[0]
  const schemes =
    isNode(doc.components) && isNode(doc.components.securitySchemes) ? doc.components.securitySchemes : {}
  const credentials: string[] = []
  if (!isNode(first)) return credentials
  for (const name of Object.keys(first)) {
    const scheme = deref(doc, schemes[name])
    if (!isNode(scheme)) continue
    const http = typeof scheme.scheme === 'string' ? scheme.scheme.toLowerCase() : ''
    if (scheme.type === 'apiKey' && typeof scheme.name === 'string') {
      credentials.push(scheme.name)
      if (scheme.in === 'query') q.append(scheme.name, PLACEHOLDER)
      else if (scheme.in === 'cookie') cookies.push(`${scheme.name}=${PLACEHOLDER}`)
      else headers.push([scheme.name, PLACEHOLDER])
    } else if (scheme.type === 'http' || scheme.type === 'oauth2' || scheme.type === 'openIdConnect') {
      credentials.push('Authorization')
      headers.push(['Authorization', `${http === 'basic' ? 'Basic' : 'Bearer'} ${PLACEHOLDER}`])
    }
  }
  return credentials
}

function request(doc: Node, base: string, o: Operation, g: Guess): SourceRequest {
  const where = `${o.method} ${o.path}`
  let path = o.path
  const q = new URLSearchParams()
  const headers: [string, string][] = []
  const cookies: string[] = []
  for (const p of o.params) {
    const name = String(p.name)
    const wanted = p.in === 'path' || p.required === true || 'example' in p || 'examples' in p
    if (!wanted) continue
    const value = parameterValue(doc, p, `${where} ${name}`, g)
    const values = Array.isArray(value) ? value.map(text) : [text(value)]
    if (p.in === 'path') path = path.split(`{${name}}`).join(encodeURIComponent(values.join(',')))
    else if (p.in === 'query') for (const v of values) q.append(name, v)
    else if (p.in === 'header') headers.push([name, values.join(',')])
    else if (p.in === 'cookie') cookies.push(`${name}=${values.join(',')}`)
  }
  const credentials = security(doc, o.op, q, headers, cookies)
  if (cookies.length) headers.push(['Cookie', cookies.join('; ')])
  const body = bodyOf(doc, o.op, where, g)
  if (body) headers.push(['Content-Type', body.type])
  const query = q.toString()
  const id = typeof o.op.operationId === 'string' ? o.op.operationId : undefined
  return {
    method: o.method,
    url: `${base}${path}${query ? `?${query}` : ''}`,
    headers,
    body: body?.body ?? null,
    ...(id ? { name: id } : {}),
    ...(credentials.length ? { credentials } : {}),
  }
}

function baseUrl(base: string | undefined): string {
  if (!base)
    return bad(
      'needs --base URL: where the API runs, e.g. http://127.0.0.1:8082 (its paths are appended)',
      'base',
    )
  let url: URL
  try {
    url = new URL(base)
  } catch {
    return bad(`"${base}" is not a URL (e.g. http://127.0.0.1:8082)`, 'base')
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    bad(`"${base}" must be http:// or https://`, 'base')
  url.search = ''
  url.hash = ''
  return url.toString().replace(/\/$/, '')
}

/** One request per operation of an OpenAPI 3 document, against `base`. */
export function readOpenApi(source: string, base: string | undefined): ReadRequests {
  const doc = parseDocument(source)
  const root = baseUrl(base)
  const g: Guess = { guessed: [], budget: VALUE_BUDGET }
  const notes: string[] = []
  const requests = operations(doc, notes).map((o) => request(doc, root, o, g))
  if (requests.length === 0)
    bad(
      `has no operations under paths (get, put, post, delete, options, head, patch)${notes.length ? ` (${notes.join('; ')})` : ''}`,
      'paths',
    )
  const first: unknown = Array.isArray(doc.servers) ? doc.servers[0] : undefined
  const server = isNode(first) && typeof first.url === 'string' ? first.url : ''
  const serverPath = /^(https?:\/\/[^/]+)?(\/.*?)\/?$/.exec(server)?.[2] ?? ''
  if (serverPath && !root.endsWith(serverPath))
    notes.push(
      `the document's server is ${server}: its paths are appended to --base ${root}; give --base …${serverPath} if they live under it`,
    )
  if (g.budget <= 0)
    notes.push(
      `its schemas make more than ${VALUE_BUDGET} values (deep or self-referencing): the bodies were cut there (null)`,
    )
  if (g.guessed.length)
    notes.push(
      `values made up from their types (the document gives no example): ${g.guessed.slice(0, 8).join(', ')}${g.guessed.length > 8 ? ', …' : ''}`,
    )
  const info = isNode(doc.info) ? doc.info : {}
  const title = typeof info.title === 'string' && info.title.trim() ? info.title.trim() : 'OpenAPI'
  const name = `${title}: ${requests.length} operation${requests.length === 1 ? '' : 's'}`
  return { requests, notes, name, base: root }
}

// Values for an OpenAPI operation's parameters and bodies: the document's own examples and
// defaults first, then a value of the schema's type (noted as guessed). Local `$ref`s only
// (#/components/…). A schema that refers to itself (a property, an item, an allOf) is expanded
// inside itself once, then stops, and a document's values are counted: past VALUE_BUDGET every schema gives null, so
// a few hundred bytes of schemas never expand into billions of values.
import { ConfigError } from '../config/errors.ts'

export type Node = Record<string, unknown>
export const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v)

const MAX_DEPTH = 12

/** `node` with its `$ref` followed (repeatedly) inside `doc`. */
export function deref(doc: Node, node: unknown, depth = 0): unknown {
  if (!isNode(node) || typeof node.$ref !== 'string') return node
  const ref = node.$ref
  if (!ref.startsWith('#/'))
    throw new ConfigError([
      { field: '$ref', message: `"${ref}" points outside the document: bundle the spec into one file first` },
    ])
  if (depth > MAX_DEPTH) throw new ConfigError([{ field: '$ref', message: `"${ref}" refers to itself` }])
  let at: unknown = doc
  for (const part of ref.slice(2).split('/')) {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~')
    at = isNode(at) && Object.hasOwn(at, key) ? at[key] : undefined
  }
  if (at === undefined)
    throw new ConfigError([{ field: '$ref', message: `"${ref}" names nothing in the document` }])
  return deref(doc, at, depth + 1)
}

/** A value the document gives: example, examples (3.0 map or 3.1 list), default, enum, const. */
export function givenValue(doc: Node, node: Node): { value: unknown } | null {
  if ('example' in node) return { value: node.example }
  if (Array.isArray(node.examples) && node.examples.length) return { value: node.examples[0] }
  if (isNode(node.examples)) {
    const first = deref(doc, Object.values(node.examples)[0])
    if (isNode(first) && 'value' in first) return { value: first.value }
  }
  if ('default' in node) return { value: node.default }
  if (Array.isArray(node.enum) && node.enum.length) return { value: node.enum[0] }
  if ('const' in node) return { value: node.const }
  return null
}

const STRING_FORMATS: Record<string, string> = {
  'date-time': '2025-01-01T00:00:00Z',
  date: '2025-01-01',
  time: '00:00:00',
  email: 'user@example.com',
  uuid: '00000000-0000-4000-8000-000000000000',
  uri: 'https://example.com/',
  hostname: 'example.com',
  ipv4: '127.0.0.1',
  password: 'password',
}

function numberFor(schema: Node, integer: boolean): number {
  const min =
    typeof schema.minimum === 'number'
      ? schema.minimum
      : typeof schema.exclusiveMinimum === 'number'
        ? schema.exclusiveMinimum + (integer ? 1 : 0.5)
        : 1
  const max = typeof schema.maximum === 'number' ? schema.maximum : Number.POSITIVE_INFINITY
  const n = Math.min(Math.max(1, min), max)
  return integer ? Math.ceil(n) : n
}

function typeOf(schema: Node): string | undefined {
  const t = schema.type
  if (Array.isArray(t)) return t.find((x): x is string => typeof x === 'string' && x !== 'null')
  if (typeof t === 'string') return t
  if (isNode(schema.properties)) return 'object'
  if (schema.items !== undefined) return 'array'
  return undefined
}

/** The most values one document's schemas are expanded into. */
export const VALUE_BUDGET = 20_000

/** What `guessed` collects: the names of values made up from a type, not given by the document. */
export interface Guess {
  guessed: string[]
  /** Values still to make (VALUE_BUDGET at first); at 0 every schema gives null. */
  budget: number
  /** How often each schema is being expanded now: one met a third time is a cycle cut there. */
  path?: Map<unknown, number>
}

/** A schema inside itself is expanded this often (a tree shows its shape), then null. */
const SELF_NESTING = 2

function objectValue(doc: Node, schema: Node, where: string, g: Guess, depth: number): Node {
  const props = isNode(schema.properties) ? schema.properties : {}
  const required = Array.isArray(schema.required) ? (schema.required as unknown[]).map(String) : null
  const out: Node = {}
  for (const [key, raw] of Object.entries(props)) {
    const prop = deref(doc, raw)
    const given = isNode(prop) ? givenValue(doc, prop) : null
    if (required && !required.includes(key) && !given) continue
    if (isNode(prop) && prop.readOnly === true) continue
    out[key] = given ? given.value : schemaValue(doc, prop, `${where}.${key}`, g, depth + 1)
  }
  return out
}

/** A value for `raw` (a schema): the document's own, else one of its type. */
export function schemaValue(doc: Node, raw: unknown, where: string, g: Guess, depth = 0): unknown {
  const schema = deref(doc, raw)
  g.path ??= new Map()
  const open = g.path.get(schema) ?? 0
  if (!isNode(schema) || depth > MAX_DEPTH || open >= SELF_NESTING || g.budget <= 0) return null
  g.budget--
  g.path.set(schema, open + 1)
  try {
    return valueOf(doc, schema, where, g, depth)
  } finally {
    g.path.set(schema, open)
  }
}

function valueOf(doc: Node, schema: Node, where: string, g: Guess, depth: number): unknown {
  const given = givenValue(doc, schema)
  if (given) return given.value
  for (const key of ['oneOf', 'anyOf'] as const)
    if (Array.isArray(schema[key]) && schema[key].length)
      return schemaValue(doc, schema[key][0], where, g, depth + 1)
  if (Array.isArray(schema.allOf)) {
    const parts = schema.allOf.map((s) => schemaValue(doc, s, where, g, depth + 1))
    return parts.every(isNode) ? Object.assign({}, ...parts) : (parts[0] ?? null)
  }
  const type = typeOf(schema)
  if (type === 'object') return objectValue(doc, schema, where, g, depth)
  if (type === 'array') return [schemaValue(doc, schema.items, `${where}[]`, g, depth + 1)]
  g.guessed.push(where)
  if (type === 'integer' || type === 'number') return numberFor(schema, type === 'integer')
  if (type === 'boolean') return true
  if (type === 'null') return null
  return STRING_FORMATS[String(schema.format)] ?? 'example'
}

/** A parameter's value: its own example, or its schema's. */
export function parameterValue(doc: Node, param: Node, where: string, g: Guess): unknown {
  return givenValue(doc, param)?.value ?? schemaValue(doc, param.schema, where, g)
}

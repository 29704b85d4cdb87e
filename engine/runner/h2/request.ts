// A plain target's HTTP/2 request, built once per segment as HPACK header blocks with zeros where
// the correlation id's sequence number goes (the HTTP/2 twin of request-template.ts): the
// connection writes the id's digits in place for each request instead of encoding it again.
// Three blocks: `first` puts every field that is not in the static table into the server's
// dynamic table (the first request on a connection), `next` refers to them by index (every request
// after it: a few bytes), `plain` indexes nothing (a server whose table is too small for them).
// Fields follow RFC 9113 §8.3: pseudo-fields first, names in lower case, no connection-specific
// fields; a `Host` header becomes `:authority`.
import { requestBody } from '../../config/body.ts'
import { basicAuthorization } from '../../config/redact.ts'
import type { Target } from '../../config/schema.ts'
import { SEQ_DIGITS } from '../../store/correlation.ts'
import { encodeFields, encodeInteger, encodeLiteral, entrySize, staticIndex } from './hpack.ts'

export interface H2Block {
  bytes: Buffer
  /** Offset of the sequence number's first digit. */
  idOffset: number
}

export interface H2Request {
  first: H2Block
  next: H2Block
  plain: H2Block
  /** Octets `first` adds to the server's dynamic table: `next` needs a table at least this large. */
  tableBytes: number
  body: Buffer | null
}

/** Fields HTTP/2 forbids (RFC 9113 §8.2.2) or carries otherwise (Host is `:authority`). */
const DROPPED = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'host',
])

/** A request's fields in HTTP/2's form, without the correlation id. */
export function h2Fields(opts: {
  method: string
  url: URL
  path: string
  headers: Record<string, string> | readonly (readonly [string, string])[]
  authorization: string | null
  contentType: string | null
  bodyLength: number | null
}): [string, string][] {
  const entries = Array.isArray(opts.headers)
    ? (opts.headers as readonly (readonly [string, string])[])
    : Object.entries(opts.headers as Record<string, string>)
  const host = entries.find(([k]) => k.toLowerCase() === 'host')?.[1]
  const fields: [string, string][] = [
    [':method', opts.method],
    [':scheme', opts.url.protocol === 'https:' ? 'https' : 'http'],
    [':authority', host ?? opts.url.host],
    [':path', opts.path],
  ]
  const has = (name: string) => entries.some(([k]) => k.toLowerCase() === name)
  if (opts.authorization !== null && !has('authorization')) fields.push(['authorization', opts.authorization])
  for (const [k, v] of entries) {
    const name = k.toLowerCase()
    if (DROPPED.has(name) || name === 'content-length') continue
    // TE is allowed with the value "trailers" only.
    if (name === 'te' && v.trim().toLowerCase() !== 'trailers') continue
    fields.push([name, v])
  }
  if (opts.contentType && !has('content-type')) fields.push(['content-type', opts.contentType])
  if (opts.bodyLength !== null) fields.push(['content-length', String(opts.bodyLength)])
  return fields
}

export function buildH2Request(opts: {
  method: string
  url: URL
  headers: Record<string, string>
  body: Target['body']
  correlationHeader: string
  correlationPrefix: string
}): H2Request {
  const { bytes: body, contentType } = requestBody(opts.body)
  const fields = h2Fields({
    method: opts.method,
    url: opts.url,
    path: opts.url.pathname + opts.url.search,
    headers: opts.headers,
    authorization: basicAuthorization(opts.url),
    contentType: contentType ?? null,
    bodyLength: body ? body.length : null,
  })
  const idName = opts.correlationHeader.toLowerCase()
  const idValue = `${opts.correlationPrefix}-${'0'.repeat(SEQ_DIGITS)}`
  const first: number[] = []
  const next: number[] = []
  // Entries `first` inserts, oldest first; the id's entry comes last, so it is the newest (62).
  const inserted: string[] = []
  let tableBytes = 0
  for (const [name, value] of fields) {
    const s = staticIndex(name, value)
    if (s.exact) {
      encodeInteger(first, s.exact, 7, 0x80)
      continue
    }
    encodeLiteral(first, name, value, true, s.name)
    inserted.push(name)
    tableBytes += entrySize(name, value)
  }
  const k = inserted.length
  let at = 0
  for (const [name, value] of fields) {
    const s = staticIndex(name, value)
    if (s.exact) encodeInteger(next, s.exact, 7, 0x80)
    // The j-th inserted of k sits at 62 + (k - j): the id's entry (inserted after them) is 62.
    else encodeInteger(next, 62 + (k - at++), 7, 0x80)
  }
  tableBytes += entrySize(idName, idValue)
  encodeLiteral(first, idName, idValue, true)
  encodeLiteral(next, idName, idValue, false, 62)
  const plainBytes = encodeFields([...fields, [idName, idValue]])
  return {
    first: { bytes: Buffer.from(first), idOffset: first.length - SEQ_DIGITS },
    next: { bytes: Buffer.from(next), idOffset: next.length - SEQ_DIGITS },
    plain: { bytes: plainBytes, idOffset: plainBytes.length - SEQ_DIGITS },
    tableBytes,
    body: body ?? null,
  }
}

/** One request of a scenario step: its whole header block (nothing indexed) and body. */
export function h2StepRequest(opts: {
  method: string
  url: URL
  path: string
  headers: [string, string][]
  body: Buffer | null
  authorization: string | null
  correlationHeader: string
  correlationId: string
}): { block: Buffer; body: Buffer | null } {
  const fields = h2Fields({
    method: opts.method,
    url: opts.url,
    path: opts.path,
    headers: opts.headers,
    authorization: opts.authorization,
    contentType: null,
    bodyLength: opts.body ? opts.body.length : null,
  })
  fields.push([opts.correlationHeader.toLowerCase(), opts.correlationId])
  return { block: encodeFields(fields), body: opts.body }
}

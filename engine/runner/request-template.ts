// A plain target's request, built once per segment: the full HTTP/1.1 request as bytes with zeros
// where the correlation id's sequence number goes, so engine/runner/connection.ts writes the id's
// digits in place for each request instead of rebuilding it.
import { requestBody } from '../config/body.ts'
import { basicAuthorization } from '../config/redact.ts'
import type { Target } from '../config/schema.ts'
import { SEQ_DIGITS } from '../store/correlation.ts'

export interface RequestTemplate {
  /** The full request with `digits` zeros where the sequence number goes. */
  bytes: Buffer
  /** Offset of the sequence number's first digit. */
  idOffset: number
}

export function buildRequestTemplate(opts: {
  method: string
  url: URL
  headers: Record<string, string>
  /** A literal body, or `{ size, kind }`: generated here, once per segment (engine/config/body.ts). */
  body: Target['body']
  keepAlive: boolean
  correlationHeader: string
  correlationPrefix: string
}): RequestTemplate {
  const { url } = opts
  const lines = [`${opts.method} ${url.pathname}${url.search} HTTP/1.1`]
  const has = (name: string) => Object.keys(opts.headers).some((h) => h.toLowerCase() === name)
  if (!has('host')) lines.push(`Host: ${url.host}`)
  // A user and password in the URL are Basic auth, as curl sends them (the schema refuses a URL
  // with credentials and an Authorization header both).
  const auth = basicAuthorization(url)
  if (auth !== null && !has('authorization')) lines.push(`Authorization: ${auth}`)
  lines.push(`Connection: ${opts.keepAlive ? 'keep-alive' : 'close'}`)
  for (const [k, v] of Object.entries(opts.headers)) {
    if (k.toLowerCase() === 'connection' || k.toLowerCase() === 'content-length') continue
    lines.push(`${k}: ${v}`)
  }
  const { bytes: body, contentType } = requestBody(opts.body)
  if (contentType && !has('content-type')) lines.push(`Content-Type: ${contentType}`)
  if (body) lines.push(`Content-Length: ${body.length}`)
  const idLine = `${opts.correlationHeader}: ${opts.correlationPrefix}-`
  const head = lines.join('\r\n') + '\r\n' + idLine
  const headBytes = Buffer.from(head, 'latin1')
  const tail = Buffer.from('0'.repeat(SEQ_DIGITS) + '\r\n\r\n', 'latin1')
  return {
    bytes: Buffer.concat(body ? [headBytes, tail, body] : [headBytes, tail]),
    idOffset: headBytes.length,
  }
}

// Request bodies generated from `body: { size, kind }` (schema.ts), built once when a segment's
// request is prepared, never per request. Deterministic, so every run and every stack receives
// the same bytes: text is a repeated printable line, JSON an object of records padded with
// whitespace to the exact size (valid JSON of any size from 2 bytes: `{` spaces `}`).
import type { Target } from './schema.ts'

const TEXT_LINE = 'Cannonade request payload, the same bytes in every run and every stack.\n'

function text(size: number): Buffer {
  const line = Buffer.from(TEXT_LINE, 'latin1')
  const out = Buffer.allocUnsafe(size)
  for (let at = 0; at < size; at += line.length) line.copy(out, at, 0, Math.min(line.length, size - at))
  return out
}

function record(i: number): string {
  return JSON.stringify({ id: i, name: `item ${i}`, tags: ['red', 'large'], price: (i % 997) + 0.5 })
}

function json(size: number): Buffer {
  const open = '{"items":['
  const close = ']}'
  if (size < open.length + close.length) return Buffer.from(`{${' '.repeat(size - 2)}}`, 'latin1')
  const parts: string[] = []
  let used = open.length + close.length
  for (let i = 0; ; i++) {
    const next = (parts.length > 0 ? 1 : 0) + record(i).length
    if (used + next > size) break
    parts.push(record(i))
    used += next
  }
  // Whitespace between tokens is valid JSON: it makes up the exact size.
  return Buffer.from(`${open}${parts.join(',')}${' '.repeat(size - used)}${close}`, 'latin1')
}

/** The bytes to send and the content type a generated body implies; a literal body as UTF-8. */
export function requestBody(body: Target['body']): { bytes: Buffer | null; contentType: string | null } {
  if (body === null) return { bytes: null, contentType: null }
  if (typeof body === 'string') return { bytes: Buffer.from(body, 'utf8'), contentType: null }
  return body.kind === 'json'
    ? { bytes: json(body.size), contentType: 'application/json' }
    : { bytes: text(body.size), contentType: 'text/plain; charset=utf-8' }
}

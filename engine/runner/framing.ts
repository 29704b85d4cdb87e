// Response framing checks the HTTP parser (http-parser-js, inside autocannon) leaves out: it
// reads Content-Length with `+value` and a chunk size with parseInt, so `abc`, `-1`, `2e0` or `zz`
// pass and a malformed response counts as a success. Each check throws an error the connection
// reports as 'parse' (connection.ts), as it does the parser's own errors.

/** A framing error found in a response, shaped like the parser's own (code HPE_…). */
export function parseError(code: string): Error {
  return Object.assign(new Error('Parse Error'), { code })
}

/** RFC 9110 Content-Length: digits only (a list, a sign or an exponent is a framing error). */
export function validContentLength(v: string): boolean {
  const n = v.length
  if (n === 0 || n > 15) return false
  for (let i = 0; i < n; i++) {
    const c = v.charCodeAt(i)
    if (c < 48 || c > 57) return false
  }
  return true
}

/** The parser's state while it reads a chunk-size line. */
export interface ChunkHeadParser {
  consumeLine(): string | undefined
  body_bytes: number | null
  state: string
}

const CHUNK_SIZE = /^[0-9A-Fa-f]{1,15}(?:[ \t]*;.*)?$/

/** The parser's BODY_CHUNKHEAD state method, with the chunk size checked before it is read. */
export function strictChunkHead(this: ChunkHeadParser): void {
  const line = this.consumeLine()
  if (line === undefined) return
  if (!CHUNK_SIZE.test(line)) throw parseError('HPE_INVALID_CHUNK_SIZE')
  this.body_bytes = parseInt(line, 16)
  this.state = this.body_bytes ? 'BODY_CHUNK' : 'BODY_CHUNKTRAILERS'
}

// A response's header block read from its bytes (response-parser.ts calls it once per response):
// the status line and the fields that frame the body, without making a string of the block or of
// each line. Strings are made only of what is used: Content-Length's, Connection's and
// Transfer-Encoding's values, Server-Timing, and every field when the request's scenario step
// reads headers. (Reading the block as text took about 2 µs of the load thread's CPU per response,
// more than any other part of the parser: bench/RESULTS.md.)
import { validContentLength } from './framing.ts'

export interface Framing {
  status: number
  /** [name, value, ...]: every field with `all`, otherwise only Server-Timing fields. */
  headers: string[]
  /** May the connection be reused after this response, given how its body is framed? */
  keepAlive: boolean
  /**
   * What the Connection field and the HTTP version alone say (RFC 9112 §9.3): the answer for a
   * response that has no body whatever its framing fields say (1xx, 204, 304, any answer to HEAD),
   * whose end is its header block (§6.3), so a missing length or a Transfer-Encoding ends nothing.
   */
  persistent: boolean
  chunked: boolean
  /** Content-Length, or -1: none (chunked or close-delimited). */
  length: number
}

/**
 * The first LF in buf[p, to), or -1. A loop, not Buffer#indexOf: a header line is a few dozen
 * bytes, fewer than a call into C++ costs (the indexOf calls were ~2 % of the load thread's CPU).
 */
function lfIn(buf: Buffer, p: number, to: number): number {
  for (; p < to; p++) if (buf[p] === 10) return p
  return -1
}

/** Where a header block ends in buf[from, to): the index after its empty line, or -1. */
export function headEnd(buf: Buffer, from: number, to: number): number {
  let p = from
  for (;;) {
    const lf = lfIn(buf, p, to)
    if (lf < 0 || lf + 1 >= to) return -1
    const c = buf[lf + 1]
    if (c === 10) return lf + 2
    if (c === 13) {
      if (lf + 2 >= to) return -1
      if (buf[lf + 2] === 10) return lf + 3
    }
    p = lf + 1
  }
}

/** Characters of an RFC 9110 token (a field name), by byte. */
const TCHAR = new Uint8Array(256)
for (const c of "!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
  TCHAR[c.charCodeAt(0)] = 1

const lowerBytes = (name: string) => Uint8Array.from(name, (c) => c.charCodeAt(0))
const CONTENT_LENGTH = lowerBytes('content-length')
const TRANSFER_ENCODING = lowerBytes('transfer-encoding')
const CONNECTION = lowerBytes('connection')
const SERVER_TIMING = lowerBytes('server-timing')

/**
 * Is buf[at, at + len) the field name `lower` (lowercase letters and '-'), in any case? ORing 0x20
 * lowercases a letter and leaves '-' as it is; no other token byte becomes a letter or '-'.
 */
function nameIs(buf: Buffer, at: number, len: number, lower: Uint8Array): boolean {
  if (len !== lower.length) return false
  for (let k = 0; k < len; k++) if ((buf[at + k]! | 0x20) !== lower[k]) return false
  return true
}

/** Up to 80 bytes of buf[from, to) as a quoted string, for a message. */
const quoted = (buf: Buffer, from: number, to: number) =>
  JSON.stringify(buf.toString('latin1', from, Math.min(to, from + 80)))

const isDigit = (c: number) => c >= 48 && c <= 57

/** `HTTP/1.x NNN[ reason]` in buf[s, e): the status × 2, + 1 for HTTP/1.0; -1 when it is not one. */
function statusLine(buf: Buffer, s: number, e: number): number {
  if (e - s < 12) return -1
  // "HTTP/1."
  if (buf[s] !== 72 || buf[s + 1] !== 84 || buf[s + 2] !== 84 || buf[s + 3] !== 80) return -1
  if (buf[s + 4] !== 47 || buf[s + 5] !== 49 || buf[s + 6] !== 46 || buf[s + 8] !== 32) return -1
  const minor = buf[s + 7]!
  if (minor !== 48 && minor !== 49) return -1
  const a = buf[s + 9]!
  const b = buf[s + 10]!
  const c = buf[s + 11]!
  if (!isDigit(a) || !isDigit(b) || !isDigit(c)) return -1
  if (e - s > 12 && buf[s + 12] !== 32 && buf[s + 12] !== 9) return -1
  return ((a - 48) * 100 + (b - 48) * 10 + (c - 48)) * 2 + (minor === 48 ? 1 : 0)
}

/** The end of a line starting at `p` (its LF, or `end`), and where its text ends (before a CR). */
function lineAt(buf: Buffer, p: number, end: number): [lf: number, eol: number] {
  let lf = lfIn(buf, p, end)
  if (lf < 0) lf = end
  return [lf, lf > p && buf[lf - 1] === 13 ? lf - 1 : lf]
}

/** Connection options → may the connection be reused (RFC 9112 §9.3)? */
function keepAliveOf(connection: string, http10: boolean): boolean {
  const options = connection.toLowerCase()
  if (options === 'keep-alive') return true
  if (options === 'close') return false
  return http10
    ? /(?:^|,)\s*keep-alive\s*(?:,|$)/.test(options)
    : options === '' || !/(?:^|,)\s*close\s*(?:,|$)/.test(options)
}

/** The fields that frame the body, as they are read. */
interface Fields {
  headers: string[]
  te: string
  length: number
  connection: string
  /** Fields read, and whether the last one is in `headers` (a folded line continues it). */
  count: number
  lastKept: boolean
}

/** One field line, buf[p, eol): its name checked, its framing read; a string names what is wrong. */
function field(buf: Buffer, p: number, eol: number, all: boolean, f: Fields): string | null {
  let q = p
  while (q < eol && TCHAR[buf[q]!] === 1) q++
  if (q === p || q === eol || buf[q] !== 58) {
    const colon = buf.indexOf(58, p)
    if (colon <= p || colon >= eol) return `a header line without a name: ${quoted(buf, p, eol)}`
    return `a header name that is not a token: ${quoted(buf, p, colon)}`
  }
  let v0 = q + 1
  let v1 = eol
  while (v0 < v1 && (buf[v0] === 32 || buf[v0] === 9)) v0++
  while (v1 > v0 && (buf[v1 - 1] === 32 || buf[v1 - 1] === 9)) v1--
  const len = q - p
  f.count++
  if (len === 14 && nameIs(buf, p, len, CONTENT_LENGTH)) {
    const value = buf.toString('latin1', v0, v1)
    if (!validContentLength(value)) return `Content-Length ${JSON.stringify(value)} is not a length`
    const n = Number(value)
    if (f.length >= 0 && n !== f.length) return 'two different Content-Lengths'
    f.length = n
  } else if (len === 17 && nameIs(buf, p, len, TRANSFER_ENCODING)) {
    const value = buf.toString('latin1', v0, v1)
    f.te = f.te ? `${f.te},${value}` : value
  } else if (len === 10 && nameIs(buf, p, len, CONNECTION)) {
    const value = buf.toString('latin1', v0, v1)
    f.connection = f.connection ? `${f.connection},${value}` : value
  }
  f.lastKept = all || (len === 13 && nameIs(buf, p, len, SERVER_TIMING))
  if (f.lastKept) f.headers.push(buf.toString('latin1', p, q), buf.toString('latin1', v0, v1))
  return null
}

/**
 * The header block buf[start, end) (status line, fields and the empty line): its framing, or a
 * string naming what is wrong. With `all`, every field is in `headers`; otherwise only
 * Server-Timing ones (the rest are read for framing and not kept).
 */
export function parseHead(buf: Buffer, start: number, end: number, all: boolean): Framing | string {
  let [lf, eol] = lineAt(buf, start, end)
  const sl = statusLine(buf, start, eol)
  if (sl < 0) return `not an HTTP/1.x status line: ${quoted(buf, start, eol)}`
  const status = sl >> 1
  const http10 = (sl & 1) === 1
  if (status < 100) return `status ${status} is not a status code`
  const f: Fields = { headers: [], te: '', length: -1, connection: '', count: 0, lastKept: false }
  for (let p = lf + 1; p < end; p = lf + 1) {
    ;[lf, eol] = lineAt(buf, p, end)
    if (eol === p) continue
    const c = buf[p]
    if (c === 32 || c === 9) {
      // obs-fold: the line continues the previous field's value (RFC 9112 §5.2).
      if (f.count === 0) return 'a folded line before any header field'
      if (f.lastKept) f.headers[f.headers.length - 1] += ' ' + buf.toString('latin1', p, eol).trim()
      continue
    }
    const wrong = field(buf, p, eol, all, f)
    if (wrong !== null) return wrong
  }
  let { length } = f
  const persistent = keepAliveOf(f.connection, http10)
  let keepAlive = persistent
  let chunked = false
  if (f.te) {
    const codings = f.te.toLowerCase().split(',')
    chunked = codings[codings.length - 1]!.trim() === 'chunked'
    if (length >= 0) keepAlive = false
    length = -1
    if (!chunked) keepAlive = false
  } else if (length < 0) keepAlive = false
  return { status, headers: f.headers, keepAlive, persistent, chunked, length }
}

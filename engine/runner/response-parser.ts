// The load client's HTTP/1.1 response parser: a state machine over the bytes a connection receives,
// framing each response as RFC 9112 §6.3 says (autocannon's parser, http-parser-js, took interim
// responses as final ones, waited for a body after HEAD, 204 and 304, failed close-delimited bodies
// and accumulated every body as a string: issue 18).
// - A 1xx interim response (100 Continue, 103 Early Hints) is skipped: the request's latency ends at
//   its final response. 101 was never asked for: a parse error.
// - No body after HEAD, 1xx, 204 and 304, whatever their headers say, and their connection is kept
//   unless Connection or HTTP/1.0 says otherwise: without a Content-Length they end at their header
//   block (wrk's http-parser does the same; taking them as close-delimited reopened a connection
//   per request against a Node.js 204 or nginx's 304: issue 28).
// - Transfer-Encoding wins over Content-Length: chunked (extensions and trailers read and dropped)
//   when it is the last coding, otherwise the body ends at close. A response with both is a success
//   but its connection is not reused (it can mean response splitting).
// - Content-Length: digits only; several that differ, or a list, are a parse error.
// - Neither: the body ends when the server closes (a success), and the connection is not reused.
// - Bare LF line endings are accepted; a header block may be split across packets, up to
//   MAX_HEAD_BYTES (past it: a parse error).
// - Body bytes are counted, never kept, unless the request's step captures from the body: then up
//   to MAX_CAPTURE_BODY_BYTES are kept (past it the capture fails).
import { headEnd, parseHead } from './response-head.ts'

/** The largest header block (status line and headers, or trailers) accepted. */
export const MAX_HEAD_BYTES = 256 * 1024
/** The largest body kept for a scenario step's captures. */
export const MAX_CAPTURE_BODY_BYTES = 1024 * 1024
/** The longest chunk-size line (with its extensions) accepted. */
const MAX_CHUNK_LINE = 4096

/** Flags of the request a response answers (ResponseSink.begin). */
export const NO_BODY = 1
export const KEEP_BODY = 2
/** begin(): no request is waiting for this response (it is unsolicited). */
export const UNSOLICITED = -1

export interface ResponseSink {
  /** A response starts: the flags of the request it answers, or UNSOLICITED. */
  begin(): number
  /**
   * The final response's head: its status and headers as [name, value, name, value, ...] (every
   * field when the parser was made with `allHeaders`, otherwise only Server-Timing fields).
   */
  headers(status: number, headers: string[]): void
  /** A whole response: its status, its bytes on the wire (interim ones included), whether its connection may be reused. */
  complete(status: number, bytes: number, keepAlive: boolean): void
  /** The response broke HTTP/1.1: the parser reads nothing more until reset(). */
  fail(reason: string): void
}

/** Parser states. */
const S = {
  Idle: 0,
  Head: 1,
  Length: 2,
  ChunkSize: 3,
  ChunkData: 4,
  ChunkEnd: 5,
  Trailers: 6,
  Close: 7,
  Failed: 8,
} as const
type State = (typeof S)[keyof typeof S]

const CHUNK_SIZE = /^([0-9A-Fa-f]{1,15})(?:[ \t]*;.*)?$/

export class ResponseParser {
  private state: State = S.Idle
  private readonly sink: ResponseSink
  /** The flags begin() gave the response being read. */
  private flags = 0
  private inResponse = false
  private status = 0
  private keepAlive = true
  private bytes = 0
  private remaining = 0
  /** A header block, trailer block or chunk-size line that is not complete yet. */
  private pending: Buffer[] = []
  private pendingLen = 0
  private line = ''
  private body: Buffer[] = []
  private bodyLen = 0
  /** The kept body went past MAX_CAPTURE_BODY_BYTES. */
  bodyOverflow = false
  /** Where the chunk being fed ends (its bytes past it are not this read's). */
  private limit = 0
  /** Bumped by reset(): a feed() whose callback reset the parser stops. */
  private generation = 0

  /** Give the sink every header field (a scenario's captures read them), not only Server-Timing. */
  private readonly allHeaders: boolean

  constructor(sink: ResponseSink, allHeaders = false) {
    this.sink = sink
    this.allHeaders = allHeaders
  }

  /** A new socket: forget what was being read. */
  reset(): void {
    this.state = S.Idle
    this.inResponse = false
    this.pending = []
    this.pendingLen = 0
    this.line = ''
    this.body = []
    this.bodyLen = 0
    this.generation++
  }

  /** Is a response partly read (or one whose body ends at close being read)? */
  get busy(): boolean {
    return this.inResponse || this.pendingLen > 0
  }

  /** The body kept for captures of the last complete response ('' when none was kept). */
  keptBody(): string {
    return this.body.length === 0 ? '' : Buffer.concat(this.body, this.bodyLen).toString('utf8')
  }

  /** The bytes chunk[0, n) were received (a read buffer may be longer than what was read into it). */
  feed(chunk: Buffer, n = chunk.length): void {
    const gen = this.generation
    this.limit = n
    let i = 0
    while (i < n && this.generation === gen) {
      switch (this.state) {
        case S.Idle:
          i = this.start(chunk, i)
          break
        case S.Head:
          i = this.head(chunk, i)
          break
        case S.Length: {
          const take = Math.min(this.remaining, n - i)
          this.bodyBytes(chunk, i, take)
          this.remaining -= take
          i += take
          if (this.remaining === 0) this.done()
          break
        }
        case S.ChunkSize:
        case S.ChunkEnd:
        case S.Trailers:
          i = this.chunkLine(chunk, i)
          break
        case S.ChunkData: {
          const take = Math.min(this.remaining, n - i)
          this.bodyBytes(chunk, i, take)
          this.remaining -= take
          i += take
          if (this.remaining === 0) this.state = S.ChunkEnd
          break
        }
        case S.Close:
          this.bodyBytes(chunk, i, n - i)
          i = n
          break
        case S.Failed:
          return
      }
    }
  }

  /**
   * The server closed its side. 'complete': a body that ends at close ended; 'idle': nothing was
   * being read; 'truncated': a response was cut short.
   */
  end(): 'complete' | 'idle' | 'truncated' {
    if (this.state === S.Close) {
      this.done()
      return 'complete'
    }
    return this.busy ? 'truncated' : 'idle'
  }

  private start(chunk: Buffer, i: number): number {
    // Empty lines between responses are ignored (RFC 9112 §2.2).
    const c = chunk[i]
    if (c === 13 || c === 10) return i + 1
    if (!this.inResponse) {
      const flags = this.sink.begin()
      if (flags === UNSOLICITED) {
        this.failWith('a response arrived with no request waiting for it')
        return this.limit
      }
      this.flags = flags
      this.inResponse = true
      this.bytes = 0
      this.body = []
      this.bodyLen = 0
      this.bodyOverflow = false
    }
    this.state = S.Head
    return i
  }

  private head(chunk: Buffer, i: number): number {
    let buf = chunk
    let from = i
    let base = i
    let to = this.limit
    if (this.pendingLen > 0) {
      buf = Buffer.concat([...this.pending, chunk.subarray(i, to)])
      from = Math.max(0, this.pendingLen - 3)
      base = 0
      to = buf.length
    }
    const end = headEnd(buf, from, to)
    if (end < 0) {
      const len = to - base
      if (len > MAX_HEAD_BYTES) return this.failWith(`a header block over ${MAX_HEAD_BYTES} bytes`)
      // A copy: the chunk is the connection's read buffer, which the next read overwrites.
      this.pending = [base === 0 && buf !== chunk ? buf : Buffer.from(chunk.subarray(i, to))]
      this.pendingLen = len
      return this.limit
    }
    if (end - base > MAX_HEAD_BYTES) return this.failWith(`a header block over ${MAX_HEAD_BYTES} bytes`)
    const used = end - base - this.pendingLen
    this.pending = []
    this.pendingLen = 0
    this.bytes += end - base
    const gen = this.generation
    this.onHead(buf, base, end)
    return this.generation === gen && this.state !== S.Failed ? i + used : this.limit
  }

  private onHead(buf: Buffer, start: number, end: number): void {
    const f = parseHead(buf, start, end, this.allHeaders)
    if (typeof f === 'string') {
      this.failWith(f)
      return
    }
    const status = f.status
    if (status < 200) {
      if (status === 101) this.failWith('101 Switching Protocols, which no request asked for')
      else this.state = S.Idle // interim: the final response follows
      return
    }
    this.status = status
    const bodiless = (this.flags & NO_BODY) !== 0 || status === 204 || status === 304
    this.keepAlive = bodiless ? f.persistent : f.keepAlive
    this.sink.headers(status, f.headers)
    if (bodiless || f.length === 0) this.done()
    else if (f.chunked) this.state = S.ChunkSize
    else if (f.length > 0) {
      this.remaining = f.length
      this.state = S.Length
    } else this.state = S.Close
  }

  /** Read a line of the chunked framing: a chunk size, the end of a chunk's data, or a trailer. */
  private chunkLine(chunk: Buffer, i: number): number {
    let lf = chunk.indexOf(10, i)
    if (lf >= this.limit) lf = -1
    const stop = lf < 0 ? this.limit : lf
    this.line += chunk.toString('latin1', i, stop)
    this.bytes += stop - i
    if (this.line.length > (this.state === S.Trailers ? MAX_HEAD_BYTES : MAX_CHUNK_LINE))
      return this.failWith('a chunk-size or trailer line too long')
    if (lf < 0) return this.limit
    this.bytes++
    let line = this.line
    this.line = ''
    if (line.endsWith('\r')) line = line.slice(0, -1)
    if (this.state === S.ChunkEnd) {
      if (line !== '') return this.failWith('chunk data longer than its size')
      this.state = S.ChunkSize
    } else if (this.state === S.Trailers) {
      if (line === '') this.done()
    } else {
      const m = CHUNK_SIZE.exec(line)
      if (!m) return this.failWith(`chunk size ${JSON.stringify(line.slice(0, 40))} is not hexadecimal`)
      this.remaining = parseInt(m[1]!, 16)
      this.state = this.remaining === 0 ? S.Trailers : S.ChunkData
    }
    return lf + 1
  }

  private bodyBytes(chunk: Buffer, i: number, len: number): void {
    this.bytes += len
    if (!(this.flags & KEEP_BODY) || len === 0) return
    if (this.bodyLen + len > MAX_CAPTURE_BODY_BYTES) {
      this.bodyOverflow = true
      this.body = []
      this.bodyLen = 0
      this.flags &= ~KEEP_BODY
      return
    }
    this.body.push(Buffer.from(chunk.subarray(i, i + len)))
    this.bodyLen += len
  }

  private done(): void {
    this.state = S.Idle
    this.inResponse = false
    this.sink.complete(this.status, this.bytes, this.keepAlive)
  }

  private failWith(reason: string): number {
    this.state = S.Failed
    this.inResponse = false
    this.pending = []
    this.pendingLen = 0
    this.sink.fail(reason)
    return Number.MAX_SAFE_INTEGER
  }
}

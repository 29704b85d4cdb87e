// The HTTP/2 frame reader of the load client: frames cut out of the bytes a connection receives,
// however they are split across reads. DATA payloads are handed on as they arrive, never
// gathered (a body of any size is counted, not kept: memory stays flat); a header block is
// gathered across HEADERS and its CONTINUATION frames and handed on whole; other frames are
// small and handed on whole. Padding and priority fields are stripped here. Connection errors
// (RFC 9113 §5.4.1) end the reader: it reads nothing more until reset().
import { FLAG, FRAME, FRAME_HEADER, H2_ERROR } from './frames.ts'

export interface FrameHandler {
  /** Body bytes of a DATA frame on `stream`, as they arrive (`buf[start, end)`). */
  data(stream: number, buf: Buffer, start: number, end: number): void
  /** A DATA frame ended: its whole payload length (flow control counts padding) and flags. */
  dataEnd(stream: number, length: number, flags: number): void
  /** A whole header block (HEADERS + CONTINUATION): `flags` of the HEADERS frame, `wire` its frames' bytes. */
  headers(stream: number, flags: number, block: Buffer, start: number, end: number, wire: number): void
  /** A PUSH_PROMISE's whole header block (decoded for HPACK's sake) and the stream it promised. */
  push(stream: number, promised: number, block: Buffer, start: number, end: number): void
  /** Any other frame, whole. */
  frame(type: number, flags: number, stream: number, payload: Buffer, start: number, end: number): void
  /** The peer broke the protocol: a connection error with this code. */
  error(code: number, why: string): void
}

const S_HEAD = 0
const S_DATA = 1
const S_PAYLOAD = 2
const S_FAILED = 3

export class FrameReader {
  private state = S_HEAD
  private readonly h: FrameHandler
  /** The largest frame payload accepted (our SETTINGS_MAX_FRAME_SIZE). */
  private readonly maxFrame: number
  private readonly head = Buffer.alloc(FRAME_HEADER)
  private headLen = 0
  private type = 0
  private flags = 0
  private stream = 0
  private length = 0
  /** Payload bytes of the current frame still to come. */
  private left = 0
  /** DATA: pad length still unknown (PADDED, first byte not read), padding bytes at the end. */
  private padPending = false
  private pad = 0
  /** Payload of a non-DATA frame, gathered. */
  private payload: Buffer = Buffer.alloc(0)
  private payloadLen = 0
  /** A header block in progress: its stream, the HEADERS flags, promised stream, bytes so far. */
  private blockStream = 0
  private blockFlags = 0
  private blockPromised = 0
  private block: Buffer = Buffer.alloc(0)
  private blockLen = 0
  private blockWire = 0
  private readonly maxBlock: number

  constructor(handler: FrameHandler, maxFrame: number, maxBlock: number) {
    this.h = handler
    this.maxFrame = maxFrame
    this.maxBlock = maxBlock
  }

  reset(): void {
    this.state = S_HEAD
    this.headLen = 0
    this.blockStream = 0
    this.blockLen = 0
  }

  /** Read `buf[0, n)`. */
  feed(buf: Buffer, n: number): void {
    let i = 0
    while (i < n && this.state !== S_FAILED) {
      if (this.state === S_HEAD) {
        const take = Math.min(FRAME_HEADER - this.headLen, n - i)
        buf.copy(this.head, this.headLen, i, i + take)
        this.headLen += take
        i += take
        if (this.headLen === FRAME_HEADER) this.beginFrame()
      } else if (this.state === S_DATA) i = this.dataBytes(buf, i, n)
      else {
        const take = Math.min(this.left, n - i)
        buf.copy(this.payload, this.payloadLen, i, i + take)
        this.payloadLen += take
        this.left -= take
        i += take
        if (this.left === 0) this.endFrame()
      }
    }
  }

  private fail(code: number, why: string): void {
    this.state = S_FAILED
    this.h.error(code, why)
  }

  private beginFrame(): void {
    const h = this.head
    this.length = (h[0]! << 16) | (h[1]! << 8) | h[2]!
    this.type = h[3]!
    this.flags = h[4]!
    this.stream = h.readUInt32BE(5) & 0x7fffffff
    this.headLen = 0
    this.left = this.length
    if (this.length > this.maxFrame)
      return this.fail(H2_ERROR.FRAME_SIZE_ERROR, 'a frame larger than allowed')
    // Between HEADERS and its last CONTINUATION nothing else may come (RFC 9113 §6.10).
    if (this.blockStream !== 0 && (this.type !== FRAME.CONTINUATION || this.stream !== this.blockStream))
      return this.fail(H2_ERROR.PROTOCOL_ERROR, 'a header block interrupted')
    if (this.type === FRAME.CONTINUATION && this.blockStream === 0)
      return this.fail(H2_ERROR.PROTOCOL_ERROR, 'CONTINUATION without HEADERS')
    if (this.type === FRAME.DATA) {
      if (this.stream === 0) return this.fail(H2_ERROR.PROTOCOL_ERROR, 'DATA on stream 0')
      this.padPending = (this.flags & FLAG.PADDED) !== 0
      this.pad = 0
      this.state = S_DATA
      if (this.left === 0) this.endData()
      return
    }
    if (this.payload.length < this.length) this.payload = Buffer.allocUnsafe(Math.max(this.length, 1024))
    this.payloadLen = 0
    this.state = S_PAYLOAD
    if (this.left === 0) this.endFrame()
  }

  private dataBytes(buf: Buffer, i: number, n: number): number {
    if (this.padPending) {
      this.padPending = false
      this.pad = buf[i]!
      this.left--
      i++
      if (this.pad > this.left) {
        this.fail(H2_ERROR.PROTOCOL_ERROR, 'padding longer than its frame')
        return n
      }
    }
    const take = Math.min(this.left, n - i)
    // The body is what comes before the padding.
    const body = Math.min(take, Math.max(0, this.left - this.pad))
    if (body > 0) this.h.data(this.stream, buf, i, i + body)
    this.left -= take
    if (this.left === 0) this.endData()
    return i + take
  }

  private endData(): void {
    if (this.padPending) return this.fail(H2_ERROR.PROTOCOL_ERROR, 'a padded frame without its pad length')
    this.state = S_HEAD
    this.h.dataEnd(this.stream, this.length, this.flags)
  }

  private endFrame(): void {
    this.state = S_HEAD
    const p = this.payload
    const len = this.payloadLen
    const type = this.type
    if (type === FRAME.HEADERS || type === FRAME.PUSH_PROMISE) return this.beginBlock(p, len)
    if (type === FRAME.CONTINUATION) return this.addBlock(p, 0, len, this.flags)
    this.h.frame(type, this.flags, this.stream, p, 0, len)
  }

  /** HEADERS or PUSH_PROMISE: strip padding, priority and the promised id; gather the block. */
  private beginBlock(p: Buffer, len: number): void {
    if (this.stream === 0) return this.fail(H2_ERROR.PROTOCOL_ERROR, 'a header block on stream 0')
    let start = 0
    let end = len
    if (this.flags & FLAG.PADDED) {
      if (len < 1) return this.fail(H2_ERROR.FRAME_SIZE_ERROR, 'a padded frame without its pad length')
      const pad = p[0]!
      start = 1
      end = len - pad
    }
    let promised = 0
    if (this.type === FRAME.PUSH_PROMISE) {
      promised = start + 4 <= end ? p.readUInt32BE(start) & 0x7fffffff : 0
      start += 4
    } else if (this.flags & FLAG.PRIORITY) start += 5
    if (end < start) return this.fail(H2_ERROR.PROTOCOL_ERROR, 'padding longer than its frame')
    this.blockStream = this.stream
    this.blockFlags = this.type === FRAME.PUSH_PROMISE ? -1 : this.flags
    this.blockPromised = promised
    this.blockLen = 0
    this.blockWire = 0
    this.addBlock(p, start, end, this.flags, len)
  }

  private addBlock(p: Buffer, start: number, end: number, flags: number, length = end - start): void {
    const n = end - start
    if (this.blockLen + n > this.maxBlock)
      return this.fail(H2_ERROR.ENHANCE_YOUR_CALM, 'a header block too large')
    if (this.block.length < this.blockLen + n) {
      const grown = Buffer.allocUnsafe(Math.max(this.blockLen + n, this.block.length * 2, 4096))
      this.block.copy(grown, 0, 0, this.blockLen)
      this.block = grown
    }
    p.copy(this.block, this.blockLen, start, end)
    this.blockLen += n
    this.blockWire += FRAME_HEADER + length
    if ((flags & FLAG.END_HEADERS) === 0) return
    const stream = this.blockStream
    this.blockStream = 0
    if (this.blockFlags === -1) this.h.push(stream, this.blockPromised, this.block, 0, this.blockLen)
    else this.h.headers(stream, this.blockFlags, this.block, 0, this.blockLen, this.blockWire)
  }
}

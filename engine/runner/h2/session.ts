// One HTTP/2 connection's protocol side (RFC 9113), under the load connection (connection.ts
// extends it with the requests): the socket (TLS with ALPN `h2`, or cleartext with prior
// knowledge), the preface and SETTINGS, flow control both ways, PING answered, pushes refused,
// GOAWAY and the connection errors, and the output: frames gathered in one buffer and written
// once per turn of the event loop (a read of ten responses sends the ten next requests in one
// write). The connection is ready once the server's SETTINGS arrived: its limits are known
// before any request leaves, and the time until then is the preface's, never a request's.
import type net from 'node:net'
import { HpackDecoder, type HeaderSink } from './hpack.ts'
import { FrameReader, type FrameHandler } from './reader.ts'
import {
  DEFAULT_MAX_FRAME,
  DEFAULT_WINDOW,
  FLAG,
  FRAME,
  FRAME_HEADER,
  H2_ERROR,
  MAX_WINDOW,
  PREFACE,
  SETTING,
  frame,
  frameHeader,
  settingsPayload,
  u32,
} from './frames.ts'
import { openSocket, type SocketOptions } from '../socket.ts'

/** Each stream's receive window (SETTINGS_INITIAL_WINDOW_SIZE), and the connection's. */
export const STREAM_WINDOW = 1 << 24
export const CONNECTION_WINDOW = 1 << 30
/** The largest header block accepted, as the HTTP/1.1 parser's MAX_HEAD_BYTES. */
const MAX_BLOCK = 256 * 1024

export abstract class H2Session implements FrameHandler {
  protected socket: net.Socket | null = null
  protected readonly socketOptions: SocketOptions
  protected readonly reader: FrameReader
  protected readonly decoder = new HpackDecoder()
  protected readonly sink: HeaderSink
  /** The server's settings. */
  protected peerMaxStreams = 0x7fffffff
  protected peerWindow = DEFAULT_WINDOW
  protected peerMaxFrame = DEFAULT_MAX_FRAME
  protected peerTableSize = 4096
  /** Connection-level send window, and what was received since the last WINDOW_UPDATE. */
  protected sendWindow = DEFAULT_WINDOW
  private recvUnacked = 0
  /** The server's SETTINGS arrived: requests may go (none is sent before). */
  ready = false
  /** GOAWAY received: its last stream id and code (-1: none). */
  protected goawayLast = -1
  protected goawayCode = 0
  protected nextStreamId = 1
  private out = Buffer.allocUnsafe(64 * 1024)
  private outLen = 0
  /** Where the bytes not written yet begin. */
  private outStart = 0
  private flushQueued = false
  /** performance.now() when the socket was made, TCP connected, TLS done. */
  protected openedAt = 0
  private tcpAt = 0
  private tlsAt = 0

  constructor(socketOptions: SocketOptions, allHeaders: boolean) {
    this.socketOptions = socketOptions
    this.reader = new FrameReader(this, DEFAULT_MAX_FRAME, MAX_BLOCK)
    this.sink = { status: 0, all: allHeaders, fields: [] }
  }

  // ---- what the load connection does with the protocol's events ------------------------------

  /** The server's SETTINGS arrived (the first time on this socket): `times` µs. */
  protected abstract onReady(tcpUs: number, tlsUs: number, prefaceUs: number): void
  /** The server's concurrent-stream limit (first SETTINGS, or a change). */
  protected abstract onStreamLimit(limit: number): void
  /** The server's SETTINGS_HEADER_TABLE_SIZE changed. */
  protected abstract onTableSize(size: number): void
  /** Windows grew (WINDOW_UPDATE or SETTINGS): request bodies may go on. */
  protected abstract onWindow(stream: number, delta: number): void
  /** GOAWAY: streams above `last` were not processed. */
  protected abstract onGoaway(last: number, code: number): void
  /** The server reset `stream` with `code`. */
  protected abstract onReset(stream: number, code: number): void
  /** The socket is gone (closed, reset, or a connection error): `kind` for what was in flight. */
  protected abstract onLost(socket: net.Socket, kind: number, idle: boolean): void
  abstract data(stream: number, buf: Buffer, start: number, end: number): void
  abstract dataEnd(stream: number, length: number, flags: number): void
  abstract headers(
    stream: number,
    flags: number,
    block: Buffer,
    start: number,
    end: number,
    wire: number,
  ): void

  // ---- the socket ----------------------------------------------------------------------------

  protected open(onError: (socket: net.Socket, err: NodeJS.ErrnoException) => void): void {
    this.reader.reset()
    this.ready = false
    this.goawayLast = -1
    this.goawayCode = 0
    this.nextStreamId = 1
    this.peerMaxStreams = 0x7fffffff
    this.peerWindow = DEFAULT_WINDOW
    this.peerMaxFrame = DEFAULT_MAX_FRAME
    this.peerTableSize = 4096
    this.sendWindow = DEFAULT_WINDOW
    this.recvUnacked = 0
    this.outLen = 0
    this.outStart = 0
    this.out = Buffer.allocUnsafe(this.out.length)
    this.decoder.reset()
    const socket = openSocket(this.socketOptions, (buf, n) => {
      if (this.socket !== socket) return
      this.reader.feed(buf, n)
      this.flush()
    })
    socket.setNoDelay(true)
    this.socket = socket
    this.openedAt = performance.now()
    this.tcpAt = 0
    this.tlsAt = 0
    socket.once('connect', () => (this.tcpAt = performance.now()))
    const secure = this.socketOptions.secure
    socket.once(secure ? 'secureConnect' : 'connect', () => this.onSocketReady(socket))
    socket.on('error', (err: NodeJS.ErrnoException) => onError(socket, err))
    socket.on('end', () => this.socket === socket && this.onLost(socket, -1, this.ready))
  }

  private onSocketReady(socket: net.Socket): void {
    if (this.socket !== socket) return
    this.tlsAt = performance.now()
    if (
      this.socketOptions.secure &&
      (socket as net.Socket & { alpnProtocol?: string | false }).alpnProtocol !== 'h2'
    ) {
      socket.emit(
        'error',
        Object.assign(new Error('the server did not agree to h2 by ALPN'), { code: 'ERR_H2_ALPN' }),
      )
      return
    }
    const settings = settingsPayload([
      [SETTING.ENABLE_PUSH, 0],
      [SETTING.INITIAL_WINDOW_SIZE, STREAM_WINDOW],
    ])
    const at = this.reserve(PREFACE.length)
    PREFACE.copy(this.out, at)
    this.put(frame(FRAME.SETTINGS, 0, 0, settings))
    this.put(frame(FRAME.WINDOW_UPDATE, 0, 0, u32(CONNECTION_WINDOW - DEFAULT_WINDOW)))
    this.flush()
  }

  /** Drop the socket without a word. */
  protected dropSocket(): void {
    const s = this.socket
    if (!s) return
    this.socket = null
    s.removeAllListeners('data')
    s.removeAllListeners('end')
    s.removeAllListeners('error')
    s.on('error', () => {})
    s.destroy()
  }

  // ---- output --------------------------------------------------------------------------------

  /** Room for `n` bytes at the end of the output; their offset. */
  protected reserve(n: number): number {
    // Nothing gathered and the socket holds none of the buffer: start again at its beginning.
    if (this.outLen === this.outStart && this.outLen > 0 && (this.socket?.writableLength ?? 0) === 0) {
      this.outStart = 0
      this.outLen = 0
    }
    if (this.outLen + n > this.out.length) {
      // The socket may still hold the bytes written from this buffer: gather in a new one.
      const pending = this.outLen - this.outStart
      const grown = Buffer.allocUnsafe(Math.max(this.out.length, (pending + n) * 2))
      this.out.copy(grown, 0, this.outStart, this.outLen)
      this.out = grown
      this.outStart = 0
      this.outLen = pending
    }
    const at = this.outLen
    this.outLen += n
    if (!this.flushQueued) {
      this.flushQueued = true
      queueMicrotask(this.flushSoon)
    }
    return at
  }

  protected get outBuffer(): Buffer {
    return this.out
  }

  protected put(bytes: Buffer): void {
    const at = this.reserve(bytes.length)
    bytes.copy(this.out, at)
  }

  private readonly flushSoon = (): void => this.flush()

  /**
   * Write what was gathered. The bytes written stay untouched (the socket may hold them until its
   * write completes): later frames go after them, and the buffer starts over only when the socket
   * holds nothing (no buffer per write: one per write made the collector a fifth of the CPU).
   */
  protected flush(): void {
    this.flushQueued = false
    const s = this.socket
    if (this.outLen === this.outStart || !s) return
    s.write(this.out.subarray(this.outStart, this.outLen))
    this.outStart = this.outLen
  }

  // ---- frames in -----------------------------------------------------------------------------

  /** Body bytes were read on `stream`: give the windows back once half is used. */
  protected consumed(stream: number, length: number, streamUnacked: number): number {
    this.recvUnacked += length
    if (this.recvUnacked >= CONNECTION_WINDOW / 2) {
      this.windowUpdate(0, this.recvUnacked)
      this.recvUnacked = 0
    }
    if (streamUnacked + length >= STREAM_WINDOW / 2) {
      this.windowUpdate(stream, streamUnacked + length)
      return 0
    }
    return streamUnacked + length
  }

  private windowUpdate(stream: number, inc: number): void {
    const at = this.reserve(FRAME_HEADER + 4)
    frameHeader(this.out, at, 4, FRAME.WINDOW_UPDATE, 0, stream)
    this.out.writeUInt32BE(inc, at + FRAME_HEADER)
  }

  protected rstStream(stream: number, code: number): void {
    this.put(frame(FRAME.RST_STREAM, 0, stream, u32(code)))
  }

  /** A connection error of ours: GOAWAY with `code`, then the socket goes. */
  error(code: number, _why: string): void {
    const s = this.socket
    if (!s) return
    const payload = Buffer.alloc(8)
    payload.writeUInt32BE(0, 0) // the last stream the server opened: none (pushes are refused)
    payload.writeUInt32BE(code, 4)
    this.put(frame(FRAME.GOAWAY, 0, 0, payload))
    this.flush()
    this.onLost(s, -2, false)
  }

  push(_stream: number, promised: number, block: Buffer, start: number, end: number): void {
    // Decoded for the dynamic table's sake, then refused: a load client wants no pushes.
    if (!this.decoder.decode(block, start, end, this.sink))
      return this.error(H2_ERROR.COMPRESSION_ERROR, 'HPACK')
    this.rstStream(promised, H2_ERROR.REFUSED_STREAM)
  }

  frame(type: number, flags: number, stream: number, p: Buffer, start: number, end: number): void {
    const len = end - start
    switch (type) {
      case FRAME.SETTINGS:
        if (stream !== 0) return this.error(H2_ERROR.PROTOCOL_ERROR, 'SETTINGS on a stream')
        if (flags & FLAG.ACK) return
        if (len % 6 !== 0) return this.error(H2_ERROR.FRAME_SIZE_ERROR, 'SETTINGS length')
        return this.settings(p, start, end)
      case FRAME.PING:
        if (stream !== 0 || len !== 8) return this.error(H2_ERROR.PROTOCOL_ERROR, 'PING')
        if ((flags & FLAG.ACK) === 0) this.put(frame(FRAME.PING, FLAG.ACK, 0, p.subarray(start, end)))
        return
      case FRAME.WINDOW_UPDATE:
        if (len !== 4) return this.error(H2_ERROR.FRAME_SIZE_ERROR, 'WINDOW_UPDATE length')
        return this.windowIn(stream, p.readUInt32BE(start) & 0x7fffffff)
      case FRAME.RST_STREAM:
        if (stream === 0 || len !== 4) return this.error(H2_ERROR.PROTOCOL_ERROR, 'RST_STREAM')
        return this.onReset(stream, p.readUInt32BE(start))
      case FRAME.GOAWAY:
        if (stream !== 0 || len < 8) return this.error(H2_ERROR.PROTOCOL_ERROR, 'GOAWAY')
        this.goawayLast = p.readUInt32BE(start) & 0x7fffffff
        // An error code stays: a later GOAWAY without one (a server closing after it) does not undo it.
        if (this.goawayCode === 0) this.goawayCode = p.readUInt32BE(start + 4)
        return this.onGoaway(this.goawayLast, p.readUInt32BE(start + 4))
      default:
      // PRIORITY and frame types this client does not know are ignored (RFC 9113 §4.1, §5.5).
    }
  }

  private settings(p: Buffer, start: number, end: number): void {
    for (let i = start; i < end; i += 6) {
      const id = p.readUInt16BE(i)
      const v = p.readUInt32BE(i + 2)
      if (id === SETTING.MAX_CONCURRENT_STREAMS) {
        this.peerMaxStreams = v
        if (this.ready) this.onStreamLimit(v)
      } else if (id === SETTING.INITIAL_WINDOW_SIZE) {
        if (v > MAX_WINDOW) return this.error(H2_ERROR.FLOW_CONTROL_ERROR, 'INITIAL_WINDOW_SIZE')
        const delta = v - this.peerWindow
        this.peerWindow = v
        if (delta !== 0) this.onWindow(-1, delta)
      } else if (id === SETTING.MAX_FRAME_SIZE) {
        if (v < DEFAULT_MAX_FRAME || v > 16_777_215)
          return this.error(H2_ERROR.PROTOCOL_ERROR, 'MAX_FRAME_SIZE')
        this.peerMaxFrame = v
      } else if (id === SETTING.HEADER_TABLE_SIZE && v !== this.peerTableSize) {
        this.peerTableSize = v
        this.onTableSize(v)
      }
    }
    this.put(frame(FRAME.SETTINGS, FLAG.ACK, 0))
    if (!this.ready) {
      this.ready = true
      const now = performance.now()
      const tcp = this.tcpAt || this.tlsAt
      this.onStreamLimit(this.peerMaxStreams)
      this.onReady((tcp - this.openedAt) * 1000, (this.tlsAt - tcp) * 1000, (now - this.tlsAt) * 1000)
    }
  }

  private windowIn(stream: number, inc: number): void {
    if (inc === 0) {
      if (stream === 0) return this.error(H2_ERROR.PROTOCOL_ERROR, 'a WINDOW_UPDATE of 0')
      return this.rstStream(stream, H2_ERROR.PROTOCOL_ERROR)
    }
    if (stream === 0) {
      if (this.sendWindow + inc > MAX_WINDOW)
        return this.error(H2_ERROR.FLOW_CONTROL_ERROR, 'window overflow')
      this.sendWindow += inc
    }
    this.onWindow(stream, inc)
  }
}

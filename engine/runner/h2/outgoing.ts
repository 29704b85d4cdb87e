// How a load connection's requests leave (the layer between the streams, streams.ts, and the load
// connection, connection.ts): a request opens the next stream id with its header block in HEADERS
// (and CONTINUATION past the server's frame size), then its body as the windows allow. A plain
// target's block is one of the three prebuilt ones (request.ts): `first` fills the server's
// dynamic table, `next` refers to it, `plain` for a server whose table is too small; the
// correlation id's digits are written into the output in place. A change of the server's
// SETTINGS_HEADER_TABLE_SIZE is acknowledged by size updates before the next block.
import { FLAG, FRAME, FRAME_HEADER, MAX_STREAM_ID, frameHeader } from './frames.ts'
import { encodeInteger } from './hpack.ts'
import type { H2Request } from './request.ts'
import { H2Streams } from './streams.ts'
import { SEQ_DIGITS } from '../../store/correlation.ts'
import type { SocketOptions } from '../socket.ts'

/** The encoder's table: HPACK's default size, never more. */
const ENCODER_TABLE = 4096
const TABLE_FIRST = 0
const TABLE_NEXT = 1
const TABLE_PLAIN = 2

export abstract class H2Outgoing extends H2Streams {
  protected readonly request: H2Request
  /** No new stream on this socket: the driver's keep-alive off, ids used up, or GOAWAY. */
  protected draining = false
  private tableMode = TABLE_FIRST
  private tableSizes: number[] = []
  private encoderTable = ENCODER_TABLE

  constructor(socket: SocketOptions, capacity: number, allHeaders: boolean, request: H2Request) {
    super(socket, capacity, allHeaders, request.body)
    this.request = request
  }

  /** A new socket: the server's table is empty and of the default size again. */
  protected resetEncoder(): void {
    this.draining = false
    this.tableMode = this.request.tableBytes <= ENCODER_TABLE ? TABLE_FIRST : TABLE_PLAIN
    this.tableSizes = []
    this.encoderTable = ENCODER_TABLE
  }

  protected onTableSize(size: number): void {
    const next = Math.min(size, ENCODER_TABLE)
    if (next === this.encoderTable) return
    // Empty the table the server keeps for us, then set its new size; index again if it fits.
    this.tableSizes = this.tableMode === TABLE_NEXT ? [0, next] : [next]
    this.encoderTable = next
    this.tableMode = this.request.tableBytes <= next ? TABLE_FIRST : TABLE_PLAIN
  }

  /** Open the slot's stream: its HEADERS (and CONTINUATION) frames, then its body as windows allow. */
  protected writeRequest(slot: number): void {
    const id = this.nextStreamId
    this.nextStreamId += 2
    if (this.nextStreamId > MAX_STREAM_ID) this.draining = true
    this.open1(slot, id, this.peerWindow)
    const body = this.bodyOf(slot)
    const end = body === null || body.length === 0 ? FLAG.END_STREAM : 0
    let block = this.blocks[slot]
    let idOffset = -1
    if (!block) {
      const b =
        this.tableMode === TABLE_FIRST
          ? this.request.first
          : this.tableMode === TABLE_NEXT
            ? this.request.next
            : this.request.plain
      if (this.tableMode === TABLE_FIRST) this.tableMode = TABLE_NEXT
      block = b.bytes
      idOffset = b.idOffset
    }
    let prefix = 0
    if (this.tableSizes.length > 0) {
      const update: number[] = []
      for (const size of this.tableSizes) encodeInteger(update, size, 5, 0x20)
      this.tableSizes = []
      block = Buffer.concat([Buffer.from(update), block])
      prefix = update.length
    }
    if (block.length <= this.peerMaxFrame) {
      const at = this.reserve(FRAME_HEADER + block.length)
      const out = this.outBuffer
      frameHeader(out, at, block.length, FRAME.HEADERS, FLAG.END_HEADERS | end, id)
      block.copy(out, at + FRAME_HEADER)
      if (idOffset >= 0) writeDigits(out, at + FRAME_HEADER + prefix + idOffset, this.seq[slot]!)
    } else this.writeLongBlock(id, block, idOffset >= 0 ? prefix + idOffset : -1, slot, end)
    if (!end) this.sendBody(slot)
  }

  /** A header block over the server's frame size: HEADERS then CONTINUATION frames. */
  private writeLongBlock(id: number, block: Buffer, idAt: number, slot: number, end: number): void {
    const copy = Buffer.from(block)
    if (idAt >= 0) writeDigits(copy, idAt, this.seq[slot]!)
    for (let off = 0; off < copy.length; off += this.peerMaxFrame) {
      const n = Math.min(this.peerMaxFrame, copy.length - off)
      const last = off + n === copy.length ? FLAG.END_HEADERS : 0
      const at = this.reserve(FRAME_HEADER + n)
      const type = off === 0 ? FRAME.HEADERS : FRAME.CONTINUATION
      frameHeader(this.outBuffer, at, n, type, (off === 0 ? end : 0) | last, id)
      copy.copy(this.outBuffer, at + FRAME_HEADER, off, off + n)
    }
  }
}

/** The correlation id's sequence number as SEQ_DIGITS decimal digits at `at`. */
function writeDigits(out: Buffer, at: number, seq: number): void {
  let n = seq
  for (let i = at + SEQ_DIGITS - 1; i >= at; i--) {
    out[i] = 48 + (n % 10)
    n = Math.floor(n / 10)
  }
}

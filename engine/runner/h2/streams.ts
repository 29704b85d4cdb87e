// The streams of one HTTP/2 load connection as slots of typed arrays (the requests in flight, as
// the HTTP/1.1 connection keeps them): which stream a slot is, what it received, its send window
// and how much of its request body is still to go. Request bodies leave as DATA frames as far as
// the connection's and the stream's windows allow, and go on when WINDOW_UPDATE or SETTINGS
// grow them (a server with a 1-byte window gets its body a byte at a time).
import { FLAG, FRAME, FRAME_HEADER, H2_ERROR, frame } from './frames.ts'
import { H2Session } from './session.ts'
import type { SocketOptions } from '../socket.ts'

export abstract class H2Streams extends H2Session {
  /** Slots: as many as the target's `streams`. */
  protected readonly capacity: number
  readonly seq: Float64Array
  readonly sentAt: Float64Array
  readonly intendedAt: Float64Array
  readonly phase: Uint8Array
  readonly step: Uint8Array
  /** The slot's stream id; 0 while its request waits for the connection to be ready. */
  protected readonly streamOf: Int32Array
  /** :status of the final response (0 until it came), bytes of the stream's frames. */
  protected readonly status: Uint16Array
  protected readonly wire: Float64Array
  /** Receive window used and not given back yet. */
  protected readonly unacked: Float64Array
  protected readonly sendWin: Float64Array
  /** Offset of the request body still to send, -1 when none is. */
  protected readonly bodyOff: Float64Array
  /** Server-Timing of the response, µs (-1: none). */
  protected readonly app: Float64Array
  protected readonly db: Float64Array
  protected readonly keepBody: Uint8Array
  /** A scenario's header block and body per slot (null: the target's prebuilt request). */
  protected readonly blocks: (Buffer | null)[]
  protected readonly bodies: (Buffer | null)[]
  private readonly kept: Buffer[][]
  private readonly keptLen: Float64Array
  private readonly busy: Uint8Array
  private readonly free: Int32Array
  private freeCount: number
  private readonly byStream = new Map<number, number>()
  private blocked: number[] = []
  private readonly body: Buffer | null
  inFlight = 0

  constructor(socket: SocketOptions, capacity: number, allHeaders: boolean, body: Buffer | null) {
    super(socket, allHeaders)
    this.capacity = capacity
    this.body = body
    this.seq = new Float64Array(capacity)
    this.sentAt = new Float64Array(capacity)
    this.intendedAt = new Float64Array(capacity)
    this.phase = new Uint8Array(capacity)
    this.step = new Uint8Array(capacity)
    this.streamOf = new Int32Array(capacity)
    this.status = new Uint16Array(capacity)
    this.wire = new Float64Array(capacity)
    this.unacked = new Float64Array(capacity)
    this.sendWin = new Float64Array(capacity)
    this.bodyOff = new Float64Array(capacity).fill(-1)
    this.app = new Float64Array(capacity)
    this.db = new Float64Array(capacity)
    this.keepBody = new Uint8Array(capacity)
    this.blocks = new Array<Buffer | null>(capacity).fill(null)
    this.bodies = new Array<Buffer | null>(capacity).fill(null)
    this.kept = Array.from({ length: capacity }, () => [])
    this.keptLen = new Float64Array(capacity)
    this.busy = new Uint8Array(capacity)
    this.free = new Int32Array(capacity)
    for (let i = 0; i < capacity; i++) this.free[i] = capacity - 1 - i
    this.freeCount = capacity
  }

  /** A free slot for a new request (the caller checked `inFlight < pipelining`). */
  protected take(): number {
    const slot = this.free[--this.freeCount]!
    this.busy[slot] = 1
    this.inFlight++
    this.streamOf[slot] = 0
    this.status[slot] = 0
    this.wire[slot] = 0
    this.unacked[slot] = 0
    this.app[slot] = -1
    this.db[slot] = -1
    this.bodyOff[slot] = -1
    return slot
  }

  /** The slot's stream opens as `id`, with the server's initial window. */
  protected open1(slot: number, id: number, window: number): void {
    this.streamOf[slot] = id
    this.byStream.set(id, slot)
    this.sendWin[slot] = window
  }

  protected release(slot: number): void {
    if (!this.busy[slot]) return
    this.busy[slot] = 0
    this.byStream.delete(this.streamOf[slot]!)
    this.bodyOff[slot] = -1
    this.blocks[slot] = null
    this.bodies[slot] = null
    if (this.kept[slot]!.length > 0) this.kept[slot] = []
    this.keptLen[slot] = 0
    this.free[this.freeCount++] = slot
    this.inFlight--
  }

  /** The slot's stream was not processed (above a GOAWAY's last id): it goes again on the next socket. */
  protected requeue(slot: number): void {
    this.byStream.delete(this.streamOf[slot]!)
    this.streamOf[slot] = 0
    this.bodyOff[slot] = -1
  }

  /** Requests in flight that were written on the current socket. */
  protected written(): number {
    let n = 0
    for (let slot = 0; slot < this.capacity; slot++) if (this.busy[slot] && this.streamOf[slot] !== 0) n++
    return n
  }

  protected slotOf(stream: number): number {
    return this.byStream.get(stream) ?? -1
  }

  /** `fn` for every slot in flight (it may release the slot). */
  protected forEachBusy(fn: (slot: number) => void): void {
    for (let slot = 0; slot < this.capacity; slot++) if (this.busy[slot]) fn(slot)
  }

  protected bodyOf(slot: number): Buffer | null {
    return this.blocks[slot] ? this.bodies[slot]! : this.body
  }

  /** A scenario step's body, kept for its captures up to `max` bytes. */
  protected keep(slot: number, buf: Buffer, start: number, end: number, max: number): void {
    const n = Math.min(end - start, max + 1 - this.keptLen[slot]!)
    if (n <= 0) return
    this.kept[slot]!.push(Buffer.from(buf.subarray(start, start + n)))
    this.keptLen[slot] = this.keptLen[slot]! + n
  }

  /** The kept body as text ('' past the capture limit, so a capture from it fails). */
  protected keptBody(slot: number): string {
    const parts = this.kept[slot]!
    const len = this.keptLen[slot]!
    if (len > 1024 * 1024) return ''
    return Buffer.concat(parts).toString('utf8')
  }

  /** Send what the windows allow of the slot's body; the rest waits for a window update. */
  protected sendBody(slot: number): void {
    const body = this.bodyOf(slot)!
    let off = this.bodyOff[slot]! < 0 ? 0 : this.bodyOff[slot]!
    const id = this.streamOf[slot]!
    while (off < body.length) {
      const n = Math.min(body.length - off, this.sendWindow, this.sendWin[slot]!, this.peerMaxFrame)
      if (n <= 0) {
        this.bodyOff[slot] = off
        if (!this.blocked.includes(slot)) this.blocked.push(slot)
        return
      }
      const last = off + n === body.length ? FLAG.END_STREAM : 0
      const at = this.reserve(FRAME_HEADER + n)
      const out = this.outBuffer
      out[at] = (n >>> 16) & 255
      out[at + 1] = (n >>> 8) & 255
      out[at + 2] = n & 255
      out[at + 3] = FRAME.DATA
      out[at + 4] = last
      out.writeUInt32BE(id, at + 5)
      body.copy(out, at + FRAME_HEADER, off, off + n)
      off += n
      this.sendWindow -= n
      this.sendWin[slot] = this.sendWin[slot]! - n
    }
    this.bodyOff[slot] = -1
  }

  /** Windows grew: the bodies that waited go on. */
  protected resumeBodies(): void {
    if (this.blocked.length === 0) return
    const waiting = this.blocked
    this.blocked = []
    for (const slot of waiting) if (this.busy[slot] && this.bodyOff[slot]! >= 0) this.sendBody(slot)
  }

  /** Say goodbye (GOAWAY, no error) and drop the socket; nothing in flight is waited for. */
  protected closeSocket(): void {
    if (this.socket && this.ready) {
      const payload = Buffer.alloc(8)
      payload.writeUInt32BE(0, 0)
      payload.writeUInt32BE(H2_ERROR.NO_ERROR, 4)
      this.put(frame(FRAME.GOAWAY, 0, 0, payload))
      this.flush()
    }
    this.blocked = []
    this.dropSocket()
  }
}

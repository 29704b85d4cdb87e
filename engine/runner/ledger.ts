// Load-thread side of the ledger: fills typed-array columns and ships full ones to the writer,
// with two side lists that are no request's column: connect times (one per connection opened)
// and, in rate mode, how late each request left after its intended time.
import type { Worker } from 'node:worker_threads'
import { BATCH_ROWS, newColumns, transferList, type Columns } from '../ledger/columns.ts'
import type { ToWriter } from './protocol.ts'

const TIMING_ROWS = 1024

export class Ledger {
  private cols: Columns = newColumns()
  private readonly pool: Columns[] = []
  private readonly writer: Worker
  private connects = new Float64Array(TIMING_ROWS)
  private connectCount = 0
  private lags = new Float64Array(TIMING_ROWS)
  private lagCount = 0
  segment = 0
  rows = 0

  constructor(writer: Worker) {
    this.writer = writer
  }

  push(
    seq: number,
    startUs: number,
    latencyUs: number,
    correctedUs: number,
    status: number,
    bytes: number,
    error: number,
    phase: number,
    appUs: number,
    dbUs: number,
    step: number,
  ): void {
    const c = this.cols
    const i = c.count++
    c.seq[i] = seq
    c.startUs[i] = startUs
    c.latencyUs[i] = latencyUs
    c.correctedUs[i] = correctedUs
    c.status[i] = status
    c.bytes[i] = bytes
    c.error[i] = error
    c.phase[i] = phase
    c.appUs[i] = appUs
    c.dbUs[i] = dbUs
    c.step[i] = step
    if (c.count === BATCH_ROWS) this.flush()
  }

  /** A connection opened: µs until it could send (TCP connect + TLS handshake). */
  connect(us: number): void {
    this.connects[this.connectCount++] = us
    if (this.connectCount === TIMING_ROWS) this.flushTimings()
  }

  /** Rate mode: a request left `us` after its intended time. */
  lag(us: number): void {
    this.lags[this.lagCount++] = us
    if (this.lagCount === TIMING_ROWS) this.flushTimings()
  }

  flush(): void {
    if (this.connectCount > 0 || this.lagCount > 0) this.flushTimings()
    const c = this.cols
    if (c.count === 0) return
    this.rows += c.count
    const msg: ToWriter = { type: 'batch', segment: this.segment, columns: c }
    this.writer.postMessage(msg, transferList(c))
    this.cols = this.pool.pop() ?? newColumns()
  }

  private flushTimings(): void {
    const connects = this.connects.slice(0, this.connectCount)
    const lags = this.lags.slice(0, this.lagCount)
    const msg: ToWriter = { type: 'timings', segment: this.segment, connects, lags }
    this.writer.postMessage(msg, [connects.buffer, lags.buffer])
    this.connectCount = 0
    this.lagCount = 0
  }

  /** The writer hands columns back once inserted: reuse them instead of allocating. */
  recycle(c: Columns): void {
    c.count = 0
    if (this.pool.length < 8) this.pool.push(c)
  }
}

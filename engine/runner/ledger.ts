// Load-thread side of the ledger: fills typed-array columns and ships full ones to the writer.
import type { Worker } from 'node:worker_threads'
import { BATCH_ROWS, newColumns, transferList, type Columns } from './columns.ts'
import type { ToWriter } from './protocol.ts'

export class Ledger {
  private cols: Columns = newColumns()
  private readonly pool: Columns[] = []
  private readonly writer: Worker
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

  flush(): void {
    const c = this.cols
    if (c.count === 0) return
    this.rows += c.count
    const msg: ToWriter = { type: 'batch', segment: this.segment, columns: c }
    this.writer.postMessage(msg, transferList(c))
    this.cols = this.pool.pop() ?? newColumns()
  }

  /** The writer hands columns back once inserted: reuse them instead of allocating. */
  recycle(c: Columns): void {
    c.count = 0
    if (this.pool.length < 8) this.pool.push(c)
  }
}

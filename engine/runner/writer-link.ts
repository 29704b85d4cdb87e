// The runner's end of the ledger writer (writer.ts, a worker thread): every answer the load thread
// waits for, with the writer's failure or exit as an answer too, and a time limit, so a writer
// that hangs (a disk that does not answer) ends the run instead of leaving it waiting.
import { Worker } from 'node:worker_threads'
import type { FromWriter, ToWriter } from './protocol.ts'

export interface WriterLinkOptions {
  dbPath: string
  timeoutMs: number
  /** Every message but 'error' (which fails the link), before any waiter for its type is answered. */
  onMessage(m: FromWriter): void
  /** Once, at the first failure: stop measuring what can no longer be stored. */
  onFailure(): void
}

export class WriterLink {
  readonly worker = new Worker(new URL('./writer.ts', import.meta.url))
  failure: Error | null = null
  private closing = false
  private readonly waiters = new Map<
    string,
    { resolve: (m: FromWriter) => void; reject: (e: Error) => void }
  >()

  private readonly o: WriterLinkOptions

  constructor(o: WriterLinkOptions) {
    this.o = o
    this.worker.on('message', (m: FromWriter) => {
      // What the writer could not store makes the ledger incomplete: the run ends on it.
      if (m.type === 'error')
        return this.fail(new Error(m.fatal ? m.error : `the ledger could not be written: ${m.error}`))
      o.onMessage(m)
      this.waiters.get(m.type)?.resolve(m)
    })
    this.worker.on('error', (err: Error) => this.fail(new Error(`the ledger writer failed: ${err.message}`)))
    this.worker.on('exit', (code) => {
      if (!this.closing) this.fail(new Error(`the ledger writer stopped (exit code ${code})`))
    })
  }

  post(m: ToWriter): void {
    this.worker.postMessage(m)
  }

  fail(err: Error): void {
    const first = this.failure === null
    this.failure ??= err
    for (const w of this.waiters.values()) w.reject(err)
    this.waiters.clear()
    if (first) this.o.onFailure()
  }

  /** The writer's next message of `type`; `what` names the wait in the timeout's message. */
  waitFor(type: FromWriter['type'], what: string): Promise<FromWriter> {
    if (this.failure) return Promise.reject(this.failure)
    return new Promise<FromWriter>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.fail(
          new Error(
            `the ledger writer did not answer within ${this.o.timeoutMs / 1000} s (${what}); is the disk holding ${this.o.dbPath} responding?`,
          ),
        )
      }, this.o.timeoutMs)
      this.waiters.set(type, {
        resolve: (m) => {
          clearTimeout(timer)
          this.waiters.delete(type)
          resolve(m)
        },
        reject: (e) => {
          clearTimeout(timer)
          reject(e)
        },
      })
    })
  }

  /** Post `m` and wait for the answer of `type` (a failure or timeout rejects). */
  ask(m: ToWriter, type: FromWriter['type'], what: string): Promise<FromWriter> {
    const answer = this.waitFor(type, what)
    this.post(m)
    return answer
  }

  /** The writer closes its connection whatever happened; a writer that does not answer is ended. */
  async close(): Promise<void> {
    if (!this.failure)
      await this.ask({ type: 'close' }, 'closed', 'closing the database').catch(() => undefined)
    this.closing = true
    await this.worker.terminate()
  }
}

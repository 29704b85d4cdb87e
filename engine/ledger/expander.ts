// Expanding finished runs' ledger blocks into `samples` rows in the background. A run is marked
// ended as soon as its window is over (a 5-minute run at 60 000 req/s has ~18 M requests, ~40 s
// of expansion); its blocks become rows afterwards, one block (~10 ms) per turn of the event
// loop, so the engine host stays responsive. Until then every reader reads blocks and rows
// alike (blocks.ts `runBlocks`, samples-read.ts), so nothing waits for it and nothing is missed.
// Expansion pauses while a run is going on this database: it would take CPU from the load
// generator. What is left when the host closes is expanded by the next one to open.
import { samplesWriter, type SamplesWriter } from './samples-writer.ts'
import { blockIds } from './blocks.ts'
import type { Db } from '../db/db.ts'

export interface ExpanderOptions {
  /** True while a run is measuring: expansion waits (polled every `pollMs`). */
  busy?: () => boolean
  /** A run whose blocks could not be expanded (a full disk): its blocks stay readable as they are. */
  onError?: (runId: number, err: Error) => void
  pollMs?: number
}

export class LedgerExpander {
  private readonly db: Db
  private readonly o: ExpanderOptions
  private readonly writer: SamplesWriter
  /** Runs whose expansion failed in this process: not retried until the next host. */
  private readonly failed = new Set<number>()
  private running: Promise<void> | null = null
  private closed = false
  private wake: (() => void) | null = null

  constructor(db: Db, o: ExpanderOptions = {}) {
    this.db = db
    this.o = o
    this.writer = samplesWriter(db)
  }

  /** Start (or continue) the background expansion of every ended run's blocks. */
  kick(): void {
    if (this.closed) return
    this.wake?.()
    this.running ??= this.loop().finally(() => {
      this.running = null
    })
  }

  /** Resolves when nothing is left to expand (or the expander closed). */
  async idle(): Promise<void> {
    while (this.running) await this.running
  }

  /**
   * Expands once `ended` settles, whatever the run's end (a failed run's blocks stay readable as
   * they are); resolves when nothing is left to expand, never rejects.
   */
  afterEnd(ended: Promise<unknown>): Promise<void> {
    return ended.then(
      () => {
        this.kick()
        return this.idle()
      },
      () => undefined,
    )
  }

  /** Stop after the block in hand; what is left stays in blocks, readable, for the next host. */
  async close(): Promise<void> {
    this.closed = true
    this.wake?.()
    await this.running
  }

  private nextRun(): number | null {
    const skip = [...this.failed]
    const row = this.db
      .prepare(
        `SELECT b.run_id FROM sample_blocks b JOIN runs r ON r.id = b.run_id
         WHERE r.status <> 'running' ${skip.length ? `AND b.run_id NOT IN (${skip.join(',')})` : ''}
         ORDER BY b.id LIMIT 1`,
      )
      .pluck()
      .get() as number | undefined
    return row ?? null
  }

  private async pause(ms: number): Promise<void> {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms)
      timer.unref()
      function done(): void {
        clearTimeout(timer)
        resolve()
      }
      this.wake = done
    })
    this.wake = null
  }

  private async loop(): Promise<void> {
    while (!this.closed) {
      if (this.o.busy?.()) {
        await this.pause(this.o.pollMs ?? 1000)
        continue
      }
      // Whoever owns the database may close it under a background expansion (a test, a CLI command
      // that exits): what is left stays in blocks, readable, for the next opener.
      if (!this.db.open) return
      const runId = this.nextRun()
      if (runId === null) return
      try {
        for (const id of blockIds(this.db, runId)) {
          if (this.closed || !this.db.open || this.o.busy?.()) break
          this.writer.writeBlock(id)
          // One block per turn: the host answers its clients in between.
          await new Promise((r) => setImmediate(r))
        }
      } catch (err) {
        this.failed.add(runId)
        this.o.onError?.(runId, err instanceof Error ? err : new Error(String(err)))
      }
    }
  }
}

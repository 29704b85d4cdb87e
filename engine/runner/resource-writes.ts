// The resource samples of a run on their way into resource_samples (the recorder's writes, apart
// from its monitors). Samples wait here while another connection holds the database's write lock
// (the rows thread starved on the generator's CPU, a user's own sqlite3): tried again with the
// next sample after a brief wait, so the host's event loop never stalls seconds on the lock, and
// written with the usual wait at the end of the run. A disk that fails drops them, once said; a
// row the database refuses for itself (it should not happen: ../monitor/bounds.ts checks each
// sample first) drops that row only, never the samples after it.
import { storageFailure } from '../store/disk.ts'
import { isBusy, withLockWait, type Db } from '../db/db.ts'
import { resourceWriter } from '../store/resource-samples.ts'
import type { ResourceSample } from '../monitor/index.ts'

/** Bounded: an hour of one sample a second for 16 instances. */
const MAX_UNWRITTEN = 57_600
/** Said once the wait is long: a lock held for a block's write is no news. */
const LONG_WAIT_MS = 5000

export class ResourceWrites {
  private readonly unwritten: { t: number; s: ResourceSample }[] = []
  private readonly write: (t: number, s: ResourceSample) => void
  private failed = false
  private waiting = false
  private refused = false
  private readonly db: Db
  private readonly runId: number
  private readonly onStored: (t: number, s: ResourceSample) => void
  private readonly onLog: ((level: 'warn', message: string) => void) | undefined

  constructor(
    db: Db,
    runId: number,
    onStored: (t: number, s: ResourceSample) => void,
    onLog?: (level: 'warn', message: string) => void,
  ) {
    this.db = db
    this.runId = runId
    this.onStored = onStored
    this.onLog = onLog
    this.write = resourceWriter(db, runId)
  }

  /** A sample at `t` (seconds on the run's timeline), written now or when the lock is free. */
  add(t: number, s: ResourceSample): void {
    if (this.failed) return
    if (this.unwritten.length >= MAX_UNWRITTEN) this.unwritten.shift()
    this.unwritten.push({ t, s })
    this.flush(false)
  }

  /** Everything still waiting, with the usual wait for the lock (the run's end). */
  flushAll(): void {
    this.flush(true)
  }

  private flush(wait: boolean): void {
    try {
      withLockWait(this.db, wait, () => {
        while (this.unwritten.length > 0) {
          const { t, s } = this.unwritten[0]!
          this.writeOne(t, s)
          this.unwritten.shift()
        }
      })
      this.waiting = false
    } catch (err) {
      if (isBusy(err) && !wait) return this.busy()
      // A full or failing disk: the run itself ends on it (its writer reports it); the samples
      // of the monitors are dropped, once said, and never take the host down.
      if (!this.failed)
        this.onLog?.(
          'warn',
          `resource samples of run ${this.runId} could not be stored: ${err instanceof Error ? err.message : String(err)}`,
        )
      this.failed = true
      this.unwritten.length = 0
    }
  }

  /** One row; a refusal of this row alone (not the disk's, not the lock's) drops only it. */
  private writeOne(t: number, s: ResourceSample): void {
    try {
      this.write(t, s)
    } catch (err) {
      if (isBusy(err) || storageFailure(err, '') !== null) throw err
      if (!this.refused)
        this.onLog?.(
          'warn',
          `a resource sample of run ${this.runId} (${s.source} ${s.target}) was refused by the database and left out: ${err instanceof Error ? err.message : String(err)}`,
        )
      this.refused = true
      return
    }
    this.onStored(t, s)
  }

  private busy(): void {
    const oldest = this.unwritten[0]?.s.t ?? Date.now()
    if (!this.waiting && Date.now() - oldest > LONG_WAIT_MS)
      this.onLog?.(
        'warn',
        `resource samples of run ${this.runId} wait for the database, which another connection is writing; they are kept and stored when it is free`,
      )
    if (Date.now() - oldest > LONG_WAIT_MS) this.waiting = true
  }
}

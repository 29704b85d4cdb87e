// A measuring run's ledger blocks become `samples` rows while it runs, on the generator's idle
// cycles (issue 19, item 1: the file is complete soon after the window ends). The runner stores
// its requests as blocks, cheap for the load generator; turning them into rows costs ~1.5 µs a
// request (ledger/block-rows.ts), 2-3 s after a 30 s run at 55,000 req/s. So, when the runner is pinned
// to a CPU (`--cpu`), a thread of the process that started it (run-rows-thread.ts) writes the
// stored blocks as rows pinned to the same CPU at the idle scheduling class: it runs only when
// the generator waits, and never on the target's cores. Measured (bench/ledger.ts): a thread free
// to run anywhere, even at nice 19, slowed a run at full speed by ~12 % from the target's core
// (nginx served fewer requests with the same CPU); pinned to the generator's CPU it did not. A
// run that is not pinned writes its rows after the window, as before (ledger/expander.ts); readers read
// blocks and rows alike meanwhile. Not started off Linux (no per-thread scheduling); nothing
// written while the disk is short of room (the run's own blocks come first); and it ends after a
// block that took over a second (no idle cycles: a block holds the write lock the runner's writer
// waits for, and a starved thread would hold it long).
import { Worker } from 'node:worker_threads'

export interface RunRowsData {
  dbPath: string
  runId: number
  /** The CPU the runner is pinned to: the thread runs there only. */
  cpu: number
  /** Below this many free bytes on the database's disk, no block is written as rows. */
  minFreeBytes: number
  /** Pause when nothing is to be written, ms. */
  idleMs: number
  /** A block that took longer than this (wall time) to write ends the thread: no idle CPU. */
  starvedMs: number
  /**
   * load.warmup: auto: a segment's blocks wait until its summary is written, since its warm-up's
   * requests are moved to the warm-up phase then (writer.ts, auto-warmup.ts).
   */
  waitForSummary: boolean
}

export type RunRowsReport =
  | { type: 'rows'; rows: number }
  /** A block is waiting and is not written: why (the disk short of room); sent once a spell. */
  | { type: 'held'; rows: number; why: string }
  /** why: null when stopped; else why it stopped or never started (the blocks stay for later). */
  | { type: 'ended'; rows: number; why: string | null }

export interface RunRows {
  /** Requests written as rows so far. */
  readonly rows: number
  /** Why blocks wait unwritten now (the disk short of room), or null. */
  readonly held: string | null
  /** Stop after the block in hand; resolves with the rows written and why it ended early, if it did. */
  stop(): Promise<{ rows: number; why: string | null }>
}

/** Off with CANNONADE_RUN_ROWS=0 (to measure what it costs, bench/ledger.ts). */
export function runRowsEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return process.platform === 'linux' && env.CANNONADE_RUN_ROWS !== '0'
}

export function startRunRows(
  dbPath: string,
  runId: number,
  cpu: number,
  o: { minFreeBytes?: number; idleMs?: number; starvedMs?: number; waitForSummary?: boolean } = {},
): RunRows {
  const data: RunRowsData = {
    dbPath,
    runId,
    cpu,
    minFreeBytes: o.minFreeBytes ?? 512 * 2 ** 20,
    idleMs: o.idleMs ?? 100,
    starvedMs: o.starvedMs ?? 1000,
    waitForSummary: o.waitForSummary ?? false,
  }
  const worker = new Worker(new URL('./run-rows-thread.ts', import.meta.url), { workerData: data })
  let rows = 0
  let why: string | null = null
  let held: string | null = null
  const ended = new Promise<void>((resolve) => {
    worker.on('message', (m: RunRowsReport) => {
      rows = m.rows
      held = m.type === 'held' ? m.why : null
      if (m.type !== 'ended') return
      why = m.why
      void worker.terminate()
    })
    worker.on('error', (err: Error) => (why = err.message))
    worker.on('exit', () => resolve())
  })
  return {
    get rows() {
      return rows
    },
    get held() {
      return held
    },
    async stop() {
      worker.postMessage('stop')
      await ended
      return { rows, why }
    },
  }
}

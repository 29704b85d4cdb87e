// The thread of run-rows.ts: it turns a measuring run's stored ledger blocks into `samples` rows
// at the lowest CPU priority (nice 19, this thread alone: Linux keeps a nice value per thread), so
// it takes only CPU that no one else wants. One block (at most 4,096 requests, ~6 ms of CPU) per
// transaction, oldest first; between blocks it reads its messages, so a `stop` waits for one block
// at most. A block it cannot write (the disk, a lock held too long) is left as it is, readable:
// the expansion after the run (expander.ts) writes it, or says why it cannot.
import { readlinkSync, statfsSync } from 'node:fs'
import { setPriority } from 'node:os'
import { dirname } from 'node:path'
import { parentPort, workerData } from 'node:worker_threads'
import { blockExpander } from './block-rows.ts'
import { openDb, type Db } from './db.ts'
import type { RunRowsData, RunRowsReport } from './run-rows.ts'

const port = parentPort
if (!port) throw new Error('run-rows-thread.ts runs as a worker thread')
const { dbPath, runId, minFreeBytes, idleMs, starvedMs } = workerData as RunRowsData

let stopping = false
let wake: (() => void) | null = null
port.on('message', (m: unknown) => {
  if (m !== 'stop') return
  stopping = true
  wake?.()
})
const report = (r: RunRowsReport) => port.postMessage(r)

/** This thread's own nice value to 19 (Linux: the thread id, from /proc/thread-self). */
function lowestPriority(): boolean {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop())
    if (!Number.isInteger(tid) || tid <= 0) return false
    setPriority(tid, 19)
    return true
  } catch {
    return false
  }
}

/** Free bytes where the database is: rows take more room than blocks, and the run's blocks come first. */
function freeBytes(): number {
  const s = statfsSync(dirname(dbPath))
  return s.bavail * s.bsize
}

/** A pause that a `stop` ends at once. */
const sleep = (ms: number) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms)
    function done(): void {
      clearTimeout(timer)
      wake = null
      resolve()
    }
    wake = done
  })

async function main(): Promise<void> {
  // Without the lowest priority the rows would take the load generator's CPU: not at all then.
  if (!lowestPriority()) return report({ type: 'ended', rows: 0, why: 'no thread priority here' })
  let rows = 0
  let db: Db | null = null
  try {
    db = openDb(dbPath, { skipMigrations: true })
    const expander = blockExpander(db)
    const next = db.prepare('SELECT id FROM sample_blocks WHERE run_id = ? ORDER BY id LIMIT 1').pluck()
    while (!stopping) {
      const id = next.get(runId) as number | undefined
      if (id === undefined || freeBytes() < minFreeBytes) {
        await sleep(idleMs)
        continue
      }
      const started = performance.now()
      rows += expander.expand(id)
      report({ type: 'rows', rows })
      // A block holds the database's write lock while it is written (the runner's writer waits up
      // to 5 s for it): a block that took this long had no idle CPU to use, so the rest waits for
      // the run's end instead.
      if (performance.now() - started > starvedMs) {
        report({
          type: 'ended',
          rows,
          why: `no idle CPU (a block took ${Math.round(performance.now() - started)} ms)`,
        })
        return
      }
      // Messages (a stop) are read between blocks.
      await new Promise((resolve) => setImmediate(resolve))
    }
    report({ type: 'ended', rows, why: null })
  } catch (err) {
    report({ type: 'ended', rows, why: err instanceof Error ? err.message : String(err) })
  } finally {
    db?.close()
  }
}

void main()

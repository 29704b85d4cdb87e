// The thread of run-rows.ts: it turns a measuring run's stored ledger blocks into `samples` rows
// on the generator's CPU (the one the runner is pinned to), at the idle scheduling class
// (SCHED_IDLE, else nice 19; Linux keeps both per thread), so it takes only the cycles the
// generator leaves idle and never the target's. One block (at most 4,096 requests, ~6 ms of CPU)
// per transaction, oldest first; between blocks it reads its messages, so a `stop` waits for one
// block at most. A block it cannot write (the disk, a lock held too long) is left as it is,
// readable: the expansion after the run (ledger/expander.ts) writes it, or says why it cannot.
import { spawnSync } from 'node:child_process'
import { readlinkSync, statfsSync } from 'node:fs'
import { setPriority } from 'node:os'
import { dirname } from 'node:path'
import { parentPort, workerData } from 'node:worker_threads'
import { samplesWriter } from '../ledger/samples-writer.ts'
import { firstBlockId } from '../ledger/blocks.ts'
import { openDb, type Db } from '../db/db.ts'
import type { RunRowsData, RunRowsReport } from './run-rows.ts'

const port = parentPort
if (!port) throw new Error('run-rows-thread.ts runs as a worker thread')
const { dbPath, runId, cpu, minFreeBytes, idleMs, starvedMs, waitForSummary } = workerData as RunRowsData

let stopping = false
let wake: (() => void) | null = null
port.on('message', (m: unknown) => {
  if (m !== 'stop') return
  stopping = true
  wake?.()
})
const report = (r: RunRowsReport) => port.postMessage(r)

/**
 * This thread alone onto `cpu`, at the idle scheduling class (`taskset`, `chrt -i` on its thread
 * id from /proc/thread-self; nice 19 where chrt is missing). Null when done, else why not.
 */
function onIdleCycles(): string | null {
  let tid: number
  try {
    tid = Number(readlinkSync('/proc/thread-self').split('/').pop())
  } catch {
    return 'no thread id here'
  }
  if (!Number.isInteger(tid) || tid <= 0) return 'no thread id here'
  const run = (cmd: string, args: string[]) =>
    spawnSync(cmd, args, { stdio: 'ignore', timeout: 5000 }).status === 0
  if (!run('taskset', ['-p', '-c', String(cpu), String(tid)])) return `cannot pin a thread to CPU ${cpu}`
  if (run('chrt', ['-i', '-p', '0', String(tid)])) return null
  try {
    setPriority(tid, 19)
    return null
  } catch {
    return 'no thread priority here'
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
  // Otherwise the rows would take the generator's or the target's CPU: not at all then.
  const refused = onIdleCycles()
  if (refused) return report({ type: 'ended', rows: 0, why: refused })
  let rows = 0
  let db: Db | null = null
  try {
    db = openDb(dbPath, { skipMigrations: true })
    const writer = samplesWriter(db)
    let held = false
    while (!stopping) {
      const id = firstBlockId(db, runId, { summarized: waitForSummary })
      const free = id === undefined ? 0 : freeBytes()
      if (id !== undefined && free < minFreeBytes && !held)
        report({
          type: 'held',
          rows,
          why: `${free} bytes free on the database's disk, under ${minFreeBytes}`,
        })
      held = id !== undefined && free < minFreeBytes
      if (id === undefined || held) {
        await sleep(idleMs)
        continue
      }
      const started = performance.now()
      rows += writer.writeBlock(id)
      report({ type: 'rows', rows })
      // A block holds the database's write lock while it is written (the runner's writer waits up
      // to a minute for it, writer.ts): a block that took this long had no idle CPU to use, so the
      // rest waits for the run's end instead.
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

// Runs whose process died: a CLI killed with kill -9, a crash of `cannonade serve` or of the app's
// engine. Their rows still say 'running' and their last requests may be in ledger blocks. Whatever
// opens the database next (the engine host, engine/host/index.ts) finds them by their recorded owner
// (owner.ts), rebuilds their summaries from what was stored and marks them aborted, saying what
// happened. Runs whose owner is alive are left alone, whichever process on this machine it is.
import type { ThresholdResult } from '../api/types.ts'
import type { Db } from '../db/db.ts'
import { runIsLive, type ProcessRef } from './owner.ts'
import type { RunRow } from './history-rows.ts'
import { finishRun, generatorHealth, sharedHealth, summarizeMissingSegments } from './runs.ts'
import { recordLedgerRows } from './retention.ts'
import { clearEndNote, readEndNote } from './disk.ts'

export interface RecoveredRun {
  runId: number
  error: string
}

export interface RecoverOptions {
  /** The thresholds of the recovered run, from its results (the caller evaluates them). */
  thresholds?: (runId: number) => ThresholdResult[]
}

/**
 * Mark the runs whose processes are gone as aborted. Returns the runs it recovered and the ids of
 * runs whose owner is gone but whose runner is still finishing (try those again shortly).
 */
export async function recoverOrphanedRuns(
  db: Db,
  self: ProcessRef,
  opts: RecoverOptions = {},
): Promise<{ recovered: RecoveredRun[]; finishing: number[] }> {
  const rows = db.prepare("SELECT * FROM runs WHERE status = 'running' ORDER BY id").all() as RunRow[]
  const note = readEndNote(db.name)
  const recovered: RecoveredRun[] = []
  const finishing: number[] = []
  for (const run of rows) {
    if (runIsLive(run)) {
      // The owner is gone but its runner is writing its last batch: it exits by itself.
      if (run.owner_pid !== null && run.owner_pid !== self.pid && isGoneOwner(run)) finishing.push(run.id)
      continue
    }
    // Claim it: two processes opening the database at once recover it once.
    const claimed = db
      .prepare(
        `UPDATE runs SET owner_pid = ?, owner_start = ? WHERE id = ? AND status = 'running'
         AND owner_pid IS ? AND owner_start IS ? AND worker_pid IS ?`,
      )
      .run(self.pid, self.start, run.id, run.owner_pid, run.owner_start, run.worker_pid).changes
    if (claimed !== 1) continue
    await summarizeMissingSegments(db, run.id)
    const rowsKept = recordLedgerRows(db, run.id)
    const who = run.owner_pid ?? run.worker_pid
    // Its process ended it for a failed disk, which could not take the end then (store/disk.ts).
    const failed = note?.runId === run.id ? note : null
    const error = failed
      ? `${failed.error}; the ${rowsKept.toLocaleString('en-US')} requests stored before were kept (the end written by process ${self.pid} once the disk had room)`
      : `the Cannonade process running it${who ? ` (pid ${who})` : ''} ended while the run was going (killed or crashed); ` +
        `the ${rowsKept.toLocaleString('en-US')} requests stored before were kept (found by process ${self.pid})`
    const cpu = db
      .prepare('SELECT generator_cpu FROM series WHERE run_id = ? AND generator_cpu IS NOT NULL ORDER BY t')
      .pluck()
      .all(run.id) as number[]
    finishRun(db, run.id, failed ? 'failed' : 'aborted', {
      endedAt: lastStoredSecond(db, run),
      error,
      generator: sharedHealth(generatorHealth(cpu), run.shared_with),
      thresholds: opts.thresholds?.(run.id) ?? [],
    })
    recovered.push({ runId: run.id, error })
    if (failed) clearEndNote(db.name)
  }
  return { recovered, finishing }
}

/**
 * When a run that was killed ended: the end of its last stored second (series `t` counts seconds
 * since its start), not the time it was found; its start when it stored none.
 */
function lastStoredSecond(db: Db, run: RunRow): string {
  const started = Date.parse(run.started_at)
  const lastT = db.prepare('SELECT max(t) FROM series WHERE run_id = ?').pluck().get(run.id) as number | null
  if (!Number.isFinite(started)) return new Date().toISOString()
  const ended = lastT === null ? started : started + (lastT + 1) * 1000
  return new Date(Math.min(ended, Date.now())).toISOString()
}

function isGoneOwner(run: RunRow): boolean {
  return !runIsLive({ ...run, worker_pid: null, worker_start: null })
}

// What the engine host does for runs that are no longer going: at open, it ends the runs whose
// process died (kill -9 of a CLI, a crash of serve or of the app's engine: store/recover.ts), and
// in the background it turns ended runs' ledger blocks into `samples` rows (ledger/expander.ts),
// never while a run is measuring here or in another process on this database: it would take the
// load generator's CPU. Runs of live processes are left alone.
import { ApiError } from '../api/errors.ts'
import { evaluateThresholds } from '../metrics/thresholds.ts'
import type { RunHandle } from '../runner/supervisor.ts'
import { storageProblem, type Db } from '../db/db.ts'
import { LedgerExpander } from '../ledger/expander.ts'
import type { ProcessRef } from '../store/owner.ts'
import type { HistoryStore } from '../store/history-store.ts'
import { recoverOrphanedRuns } from '../store/recover.ts'
import { liveRuns } from '../store/runs.ts'
import { pendingLedgers } from '../ledger/samples-read.ts'

export interface LedgerUpkeep {
  expander: LedgerExpander
  /** Requests of ended runs still in ledger blocks, per run, oldest run first. */
  pending(): PendingLedger[]
  /** Why they are not being written as rows now (a run measuring on this database…), or null. */
  held(): string | null
  /** Write them now; resolves once none is left that can be written (see `held`, `failed`). */
  complete(): Promise<void>
  /** Why the last run whose blocks could not be written failed (a full disk…), or null. */
  failed(): string | null
  close(): Promise<void>
}

export interface PendingLedger {
  runId: number
  rows: number
}

export interface UpkeepDeps {
  db: Db
  history: HistoryStore
  self: ProcessRef
  active: ReadonlyMap<number, RunHandle>
  log: (level: 'info' | 'warn' | 'error', message: string) => void
  /** A database opened read-only is only read: no recovery, no expansion (readers read blocks). */
  readOnly?: boolean
}

export async function startLedgerUpkeep(d: UpkeepDeps): Promise<LedgerUpkeep> {
  const { db, history, self, active, log } = d
  // A run whose owner is gone but whose runner is still writing its end is looked at again shortly.
  const timers = new Set<NodeJS.Timeout>()
  const recover = async (attempt: number): Promise<void> => {
    const { finishing } = await recoverOrphanedRuns(db, self, {
      thresholds: (runId) => {
        const run = history.getRun(runId)
        return evaluateThresholds(run.config.thresholds, run.results)
      },
    })
    if (finishing.length === 0 || attempt >= 20) return
    const timer = setTimeout(() => {
      timers.delete(timer)
      recover(attempt + 1).catch((err: unknown) =>
        log(
          'error',
          `could not end runs ${finishing.join(', ')}: ${err instanceof Error ? err.message : String(err)}`,
        ),
      )
    }, 1000)
    timer.unref()
    timers.add(timer)
  }
  try {
    if (!d.readOnly) await recover(0)
  } catch (err) {
    // A disk with no room: what only reads still works; the runs end when the disk has room.
    if (storageProblem(err) !== null)
      log(
        'warn',
        `the runs of a Cannonade process that died stay running until the database can be written (${err instanceof Error ? err.message : String(err)})`,
      )
    else
      throw new ApiError(
        'unavailable',
        `cannot end the runs of a Cannonade process that died: ${err instanceof Error ? err.message : String(err)}`,
      )
  }

  let busyUntil = 0
  let busyAnswer: string | null = null
  const held = (): string | null => {
    if (d.readOnly) return 'the database is read-only here'
    const going = active.size > 0 ? [...active.keys()] : null
    const now = Date.now()
    if (!going && now > busyUntil) {
      const live = liveRuns(db)
      busyAnswer = live.length > 0 ? describeLive(live.map((r) => r.id)) : null
      busyUntil = now + 1000
    }
    return going ? describeLive(going) : busyAnswer
  }
  const busy = () => held() !== null
  let failed: string | null = null
  const expander = new LedgerExpander(db, {
    busy,
    onError: (runId, err) => {
      failed = `run ${runId}: ${err.message}`
      log('warn', `run ${runId}: its samples stay in ledger blocks (still readable): ${err.message}`)
    },
  })
  if (!d.readOnly) expander.kick()
  return {
    expander,
    pending: () => pendingLedgers(db),
    held,
    failed: () => failed,
    complete: async () => {
      expander.kick()
      await expander.idle()
    },
    async close() {
      for (const timer of timers) clearTimeout(timer)
      // What is left to expand stays readable in blocks, for the next host to expand.
      await expander.close()
    },
  }
}

/** Why expansion waits while runs measure: it would take their load generator's CPU. */
function describeLive(runIds: number[]): string {
  return `run ${runIds.join(', ')} ${runIds.length === 1 ? 'is' : 'are'} measuring on this database (writing rows now would take the load generator's CPU)`
}

// Starting a run: one runner process, or — when the config has `agents` — load agents and their
// coordinator (distributed.ts). Both answer with the same RunHandle, so the host (engine/host/runs.ts)
// and a study's sweep (engine/study/run-study.ts) start every run here: in the lowest folder that knows
// both ways, which both import.
import { agentsDataDir } from './ledgers.ts'
import type { RunConfig } from '../config/schema.ts'
import { seedSchedule } from '../config/segments.ts'
import { startRun, type RunHandle, type RunHooks, type RunOptions } from '../runner/supervisor.ts'
import type { Db } from '../db/db.ts'
import { startDistributedRun } from './distributed.ts'
import { Stacks, stackStateDir } from '../stacks/stacks.ts'

export interface LaunchOptions extends RunOptions {
  /** The PostgreSQL store agents that are not local processes reach (CANNONADE_STORE_URL). */
  agentStoreUrl?: string
}

export function launchRun(
  db: Db,
  dbPath: string,
  config: RunConfig,
  hooks: RunHooks,
  opts: LaunchOptions = {},
): Promise<RunHandle> {
  // One seed for the whole run: every load agent must draw the same order of targets.
  config = seedSchedule(config)
  if (!config.agents) return startRun(db, dbPath, config, hooks, opts)
  return startDistributedRun(db, config, hooks, {
    ...opts,
    // Local agents keep their raw ledgers next to the database, one folder per run.
    agentDataDir: agentsDataDir(dbPath),
    // The targets' monitors run here, once: a `stack:` is one of this data folder's stacks.
    stacks: new Stacks({ stateDir: stackStateDir(dbPath) }),
    ...(opts.agentStoreUrl ? { storeUrl: opts.agentStoreUrl } : {}),
  })
}

// Run a config end to end (real runner process, real database in a temp folder) for tests.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseRunConfig } from '../config/load.ts'
import { startRun, type RunHandle, type RunHooks, type RunOptions } from '../runner/supervisor.ts'
import { openDb, type Db } from '../db/db.ts'
import type { ProgressEvent, RunEndedEvent, RunSummary } from '../api/types.ts'
import type { EngineHost } from '../host/index.ts'

export interface TestRun {
  summary: RunSummary
  db: Db
  dbPath: string
  t0Epoch: number
  progress: ProgressEvent[]
  handle: RunHandle
}

export function tempDbPath(): string {
  return join(mkdtempSync(join(tmpdir(), 'cannonade-test-')), 'test.db')
}

export async function runConfig(
  raw: unknown,
  during?: (handle: RunHandle, progress: ProgressEvent[]) => void,
  hooks: RunHooks = {},
  /** The database (and so the data folder, whose stacks `stack:` monitors find); a new one by default. */
  dbPath: string = tempDbPath(),
  opts: RunOptions = {},
): Promise<TestRun> {
  const config = parseRunConfig(raw)
  const db = openDb(dbPath)
  const progress: ProgressEvent[] = []
  let t0Epoch = 0
  const handle = await startRun(
    db,
    dbPath,
    config,
    {
      ...hooks,
      onStarted: (s) => {
        t0Epoch = s.t0Epoch
        hooks.onStarted?.(s)
      },
      onProgress: (e) => {
        progress.push(e)
        hooks.onProgress?.(e)
      },
    },
    opts,
  )
  during?.(handle, progress)
  const summary = await handle.done
  // Tests read `samples` rows: wait for the background expansion of the run's blocks.
  await handle.stored
  return { summary, db, dbPath, t0Epoch, progress, handle }
}

export function ledgerIds(db: Db, runId: number, prefix: string): string[] {
  const rows = db.prepare('SELECT seq FROM samples WHERE run_id = ?').pluck().all(runId) as number[]
  return rows.map((s) => `${prefix}-${String(s).padStart(10, '0')}`)
}

/** Start a run on an engine host and wait for its end: its id and how it ended. */
export async function runToEnd(
  host: EngineHost,
  config: Parameters<EngineHost['runs']['start']>[0],
): Promise<{ runId: number; ended: RunEndedEvent }> {
  const ended = new Promise<RunEndedEvent>((resolve) => {
    const off = host.runs.onEnded((e) => {
      off()
      resolve(e)
    })
  })
  const { runId } = await host.runs.start(config)
  return { runId, ended: await ended }
}

/** The shortest latency of an answered request of the run, µs, from its `samples` rows. */
export function minLatencyUs(run: TestRun): number {
  return run.db
    .prepare('SELECT min(latency_us) FROM samples WHERE run_id = ? AND status > 0')
    .pluck()
    .get(run.summary.runId) as number
}

// Helpers for tests of load agents (engine/agents/): agents run in the test's own process (so a
// test can give one a skewed clock), a launcher that hides exits (as a remote platform would, so
// only heartbeats tell the coordinator an agent is gone), and reading an agent's own ledger.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runAgent, type AgentResult } from '../agents/agent.ts'
import { readAgentEnv } from '../agents/env.ts'
import type { Launcher, LauncherEvent } from '../agents/launchers/launcher.ts'
import type { AgentStore } from '../agents/coordination/protocol.ts'
import { samplesWriter } from '../ledger/samples-writer.ts'
import { openDb, type Db } from '../db/db.ts'

export interface InProcessAgent {
  store: AgentStore
  /** The agent's clock (ms since the epoch); default the wall clock. */
  clock?: () => number
}

/** Agents as async functions of this process, each with its own store client and clock. */
export class InProcessLauncher implements Launcher {
  readonly kind = 'in-process'
  readonly store: 'embedded' | 'postgres'
  readonly results: Promise<AgentResult | Error>[] = []
  private readonly make: (index: number) => InProcessAgent
  private readonly indexes: number[] | null
  private readonly storeUrl: string
  private readonly dir = mkdtempSync(join(tmpdir(), 'cannonade-agents-'))
  private listeners: ((e: LauncherEvent) => void)[] = []

  /** `indexes`: start only these (a test of an agent that never comes). */
  constructor(o: {
    store: 'embedded' | 'postgres'
    storeUrl: string
    make: (index: number) => InProcessAgent
    indexes?: number[]
  }) {
    this.store = o.store
    this.make = o.make
    this.storeUrl = o.storeUrl
    this.indexes = o.indexes ?? null
  }

  follow(onEvent: (e: LauncherEvent) => void): void {
    this.listeners.push(onEvent)
  }

  async start(env: Readonly<Record<string, string>>, count: number): Promise<void> {
    for (let index = 0; index < count; index++) {
      if (this.indexes && !this.indexes.includes(index)) continue
      const { store, clock } = this.make(index)
      const agentEnv = readAgentEnv({
        ...env,
        CANNONADE_AGENT_INDEX: String(index),
        CANNONADE_STORE_URL: this.storeUrl,
        CANNONADE_AGENT_DATA: join(this.dir, `agent-${index}`),
      })
      const emit = (line: string) => this.listeners.forEach((l) => l({ type: 'log', index, line }))
      this.results.push(
        runAgent({ env: agentEnv, store, ...(clock ? { clock } : {}), log: emit }).catch((err: unknown) => {
          emit(String(err))
          return err instanceof Error ? err : new Error(String(err))
        }),
      )
    }
  }

  async stop(): Promise<void> {
    await Promise.all(this.results)
  }
}

/** A launcher whose agents' exits go unreported (a host that vanished): only heartbeats tell. */
export function withoutExits(launcher: Launcher): Launcher {
  return {
    kind: launcher.kind,
    store: launcher.store,
    start: (env, count) => launcher.start(env, count),
    follow: (onEvent) => launcher.follow((e) => (e.type === 'exit' ? undefined : onEvent(e))),
    stop: (opts) => launcher.stop(opts),
  }
}

/**
 * An agent's own ledger (its local SQLite file), opened with every request a row: an agent that
 * uploads its ledger leaves it in blocks (engine/agents/agent.ts).
 */
export function openAgentLedger(path: string): Db {
  const db = openDb(path)
  for (const runId of db.prepare('SELECT id FROM runs').pluck().all() as number[])
    samplesWriter(db).writeRun(runId)
  return db
}

/** An agent's own ledger: requests and correlation seqs of its run. */
export function agentLedger(path: string): { rows: number; seqs: number[]; histograms: string[] } {
  const db = openAgentLedger(path)
  try {
    const seqs = db.prepare('SELECT seq FROM samples ORDER BY seq').pluck().all() as number[]
    const histograms = db
      .prepare('SELECT histogram FROM run_targets ORDER BY target_index, round')
      .pluck()
      .all() as string[]
    return { rows: seqs.length, seqs, histograms }
  } finally {
    db.close()
  }
}

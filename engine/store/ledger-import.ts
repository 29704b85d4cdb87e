// `cannonade import ledger FILE --run ID`: the raw ledger a load agent kept (`--raw keep`, its own
// SQLite file, engine/agents/agent.ts) brought into the run it belongs to, as if it had uploaded
// it: its requests become blocks of that run (rows once expanded, like any run's), and the run's
// distribution block says the agent's ledger is in. All or nothing, and never twice; nothing of a
// file is stored before it passed ledger-check.ts (a ledger is input like any other).
import { ApiError } from '../api/errors.ts'
import { readRawBlocks, insertRawBlocks, type RawBlock } from './agents.ts'
import { openDb, StorageError, type Db } from '../db/db.ts'
import { agentOf, checkBlock, checkLedgerRows, checkLedgerTables, type LedgerShape } from './ledger-check.ts'
import { readConfig } from './history-rows.ts'
import { runDistribution } from './ledger-elsewhere.ts'
import { recordLedgerRows } from './retention.ts'

export interface LedgerImport {
  runId: number
  /** The agent whose ledger it was (its requests' seqs are index, index + N, …). */
  agent: number
  rows: number
}

/** The agent ledger's run of `prefix` (an agent's file holds one run: its share). */
function agentRun(ledger: Db, prefix: string, file: string, runId: number): number {
  const id = ledger.prepare('SELECT id FROM runs WHERE correlation_prefix = ?').pluck().get(prefix) as
    number | undefined
  if (id === undefined)
    throw new ApiError(
      'bad-input',
      `${file} holds no requests of run ${runId} (its correlation ids start with ${prefix}-): is it another run's agent ledger?`,
      'file',
    )
  return id
}

/** Open an agent's ledger for reading; what is wrong with the file is named. */
function openLedger(file: string): Db {
  try {
    return openDb(file, { readonly: true })
  } catch (err) {
    if (err instanceof StorageError) throw new ApiError('bad-input', err.message, 'file')
    throw err
  }
}

/** What the run allows of agent `agent`'s blocks: its targets, rounds and phases. */
function shapeOf(db: Db, runId: number, agents: number, agent: number): LedgerShape {
  const row = db.prepare('SELECT config FROM runs WHERE id = ?').get(runId) as { config: string }
  const { config, phases } = readConfig(row.config)
  const lastRound = db.prepare('SELECT max(round) FROM run_targets WHERE run_id = ?').pluck().get(runId) as
    number | null
  return { agents, agent, targets: config.targets.length, rounds: lastRound ?? 1, phases: phases.length }
}

/** The file's blocks of agent `agent`, each checked, into the run; the rows stored. */
function storeBlocks(
  db: Db,
  runId: number,
  blocks: Iterable<RawBlock>,
  shape: LedgerShape,
  file: string,
): number {
  // Sequence numbers met so far, in a table of this connection: a ledger may hold millions.
  db.exec('CREATE TEMP TABLE IF NOT EXISTS ledger_import_seqs (seq INTEGER PRIMARY KEY) WITHOUT ROWID')
  db.exec('DELETE FROM temp.ledger_import_seqs')
  const add = db.prepare('INSERT OR IGNORE INTO temp.ledger_import_seqs (seq) VALUES (?)')
  const seen = (seq: number) => add.run(seq).changes === 1
  let rows = 0
  try {
    for (const b of blocks) {
      rows += checkBlock(b, shape, file, seen)
      insertRawBlocks(db, runId, [b])
    }
  } finally {
    db.exec('DELETE FROM temp.ledger_import_seqs')
  }
  return rows
}

export function importAgentLedger(db: Db, runId: number, file: string): LedgerImport {
  const run = db.prepare('SELECT status, correlation_prefix FROM runs WHERE id = ?').get(runId) as
    { status: string; correlation_prefix: string } | undefined
  if (!run) throw new ApiError('not-found', `run ${runId} does not exist`)
  if (run.status === 'running') throw new ApiError('conflict', `run ${runId} is still running`)
  const d = runDistribution(db, runId)
  if (!d)
    throw new ApiError(
      'bad-input',
      `run ${runId} was not made by load agents: it has no agent ledgers`,
      'run',
    )
  const ledger = openLedger(file)
  try {
    checkLedgerTables(ledger, file)
    const source = agentRun(ledger, run.correlation_prefix, file, runId)
    checkLedgerRows(ledger, source, file)
    const blocks = readRawBlocks(ledger, source)
    const first = blocks.next()
    if (first.done) throw new ApiError('bad-input', `${file} holds no requests of run ${runId}`, 'file')
    const agent = agentOf(first.value, d.agents, file)
    const entry = d.perAgent.find((a) => a.index === agent)
    if (!entry)
      throw new ApiError('bad-input', `${file}: agent ${agent} is not one of run ${runId}'s`, 'file')
    if (entry.ledger.uploaded)
      throw new ApiError('conflict', `agent ${agent}'s requests are already in run ${runId}`, 'file')
    const shape = shapeOf(db, runId, d.agents, agent)
    let rows = 0
    db.transaction(() => {
      rows = storeBlocks(db, runId, chain(first.value, blocks), shape, file)
      if (entry.state === 'done' && entry.ledger.rows > 0 && rows !== entry.ledger.rows)
        throw new ApiError(
          'bad-input',
          `${file} holds ${rows.toLocaleString('en-US')} requests of agent ${agent}, which reported ${entry.ledger.rows.toLocaleString('en-US')} in its ledger: not that agent's whole ledger`,
          'file',
        )
      const perAgent = d.perAgent.map((a) =>
        a.index === agent ? { ...a, ledger: { ...a.ledger, rows, uploaded: true } } : a,
      )
      db.prepare('UPDATE runs SET distribution = ? WHERE id = ?').run(
        JSON.stringify({ ...d, perAgent }),
        runId,
      )
      recordLedgerRows(db, runId)
    }).immediate()
    return { runId, agent, rows }
  } finally {
    ledger.close()
  }
}

/** `first`, then the rest of `g`, one at a time (the file may hold millions of requests). */
function* chain(first: RawBlock, g: Generator<RawBlock>): Generator<RawBlock> {
  yield first
  for (let n = g.next(); !n.done; n = g.next()) yield n.value
}

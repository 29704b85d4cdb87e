// `cannonade import ledger FILE --run ID`: the raw ledger a load agent kept (`--raw keep`, its own
// SQLite file, engine/agents/agent.ts) brought into the run it belongs to, as if it had uploaded
// it: its requests become blocks of that run (rows once expanded, like any run's), and the run's
// distribution block says the agent's ledger is in. All or nothing, and never twice.
import { ApiError } from '../api/errors.ts'
import { readRawBlocks, insertRawBlocks } from './agents.ts'
import { decodeBlock } from './blocks.ts'
import { openDb, StorageError, type Db } from './db.ts'
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
    const source = agentRun(ledger, run.correlation_prefix, file, runId)
    const blocks = readRawBlocks(ledger, source)
    const first = blocks.next()
    if (first.done) throw new ApiError('bad-input', `${file} holds no requests of run ${runId}`, 'file')
    const agent = decodeBlock(first.value.data, 1).seq[0]! % d.agents
    const entry = d.perAgent.find((a) => a.index === agent)
    if (entry?.ledger.uploaded)
      throw new ApiError('conflict', `agent ${agent}'s requests are already in run ${runId}`, 'file')
    let rows = 0
    db.transaction(() => {
      rows = insertRawBlocks(db, runId, [first.value])
      for (const b of blocks) {
        // An agent's seqs are its index modulo the agent count: a block of another agent is refused.
        if (decodeBlock(b.data, 1).seq[0]! % d.agents !== agent)
          throw new ApiError('bad-input', `${file} mixes the requests of several agents`, 'file')
        rows += insertRawBlocks(db, runId, [b])
      }
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

// Where a run's raw requests are when this database does not hold them all: its load agents kept
// them (`--raw keep`: on the agents' machines, or gone with their containers), or they were pruned.
// The words are made here, once: `runs show`, the run's page and every export say the same.
import { ApiError } from '../api/errors.ts'
import type { Distribution, LedgerElsewhere, MissingSamples } from '../api/types.ts'
import type { Db } from './db.ts'
import { DistributionSchema, parseColumn } from './schemas.ts'

/** Launchers whose agents' files go with their containers or pods when the run ends. */
const GONE_WITH_AGENT = new Set(['docker', 'swarm', 'kubernetes'])

const count = (n: number) => n.toLocaleString('en-US')

/** The run's distribution block, or null for a run of one process. */
export function runDistribution(db: Db, runId: number): Distribution | null {
  const text = db.prepare('SELECT distribution FROM runs WHERE id = ?').pluck().get(runId) as
    string | null | undefined
  if (text === undefined) throw new ApiError('not-found', `run ${runId} does not exist`)
  return text === null ? null : parseColumn(`run ${runId}`, 'runs.distribution', text, DistributionSchema)
}

/** The requests of `runId` its agents kept, where, and what brings them in; null when none. */
export function keptElsewhere(runId: number, d: Distribution | null): LedgerElsewhere | null {
  const kept = (d?.perAgent ?? []).filter((a) => !a.ledger.uploaded && a.ledger.rows > 0)
  if (!d || kept.length === 0) return null
  const gone = GONE_WITH_AGENT.has(d.on)
  const agents = kept.map((a) => {
    const at = a.ledger.path.indexOf(':')
    return {
      index: a.index,
      host: at > 0 ? a.ledger.path.slice(0, at) : a.host,
      path: a.ledger.path.slice(at + 1),
      rows: a.ledger.rows,
      gone,
    }
  })
  const advice = gone
    ? `the agents kept them (--raw keep) in their ${d.on === 'kubernetes' ? 'pods' : 'containers'}, which are gone with them; run again with --raw upload (the default) to keep every request in the run`
    : `the agents kept them (--raw keep); bring each agent's ledger in with \`cannonade import ledger FILE --run ${runId}\` (FILE: each agent's ledger.db listed with it, copied to this machine when it is on another)`
  const where = agents.map(
    (a) =>
      `agent ${a.index} on ${a.host}: ${a.gone ? '(gone with the agent) ' : ''}${a.path} (${count(a.rows)} requests)`,
  )
  return { requests: kept.reduce((n, a) => n + a.ledger.rows, 0), agents, advice, where }
}

/**
 * Why an export cannot hold every request of the run (null when it can): the run's raw rows were
 * pruned, or its agents kept some. Names where they are and what brings them in.
 */
export function missingSamples(db: Db, runId: number): MissingSamples | null {
  const pruned = db.prepare('SELECT ledger_pruned_at FROM runs WHERE id = ?').pluck().get(runId) as
    string | null | undefined
  if (pruned)
    return {
      runId,
      pruned: true,
      message: `run ${runId}'s raw samples were pruned on ${pruned} (summaries, series and histograms kept)`,
    }
  const e = keptElsewhere(runId, runDistribution(db, runId))
  if (!e) return null
  return {
    runId,
    pruned: false,
    message: `${count(e.requests)} requests of run ${runId} are not in this database: ${e.advice}. ${e.where.join('; ')}`,
  }
}

/** The runs of `runIds` whose raw samples an export lacks (see missingSamples). */
export function missingOf(db: Db, runIds: readonly number[]): MissingSamples[] {
  return runIds.map((id) => missingSamples(db, id)).filter((m): m is MissingSamples => m !== null)
}

// Where a run's raw requests are when this database does not hold them all: its load agents kept
// them (`--raw keep`: on the agents' machines, or gone with their containers), or they were pruned.
// The words are made here, once: `runs show`, the run's page and every export say the same.
import { ApiError } from '../api/errors.ts'
import type { Distribution, LedgerElsewhere, MissingSamples } from '../api/types.ts'
import type { Db } from '../db/db.ts'
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

/**
 * The requests an agent holds that the run's database does not: its ledger's rows when it kept
 * them; when it was lost or failed before it uploaded (its ledger's count never reported), the
 * requests the run counted from its seconds, which its ledger holds.
 */
function heldBy(a: Distribution['perAgent'][number]): number {
  if (a.ledger.uploaded) return 0
  if (a.ledger.rows > 0) return a.ledger.rows
  return a.state === 'lost' || a.state === 'failed' ? a.requests : 0
}

/** The requests of `runId` its agents kept or could not upload, where, and what brings them in; null when none. */
export function keptElsewhere(runId: number, d: Distribution | null): LedgerElsewhere | null {
  const kept = (d?.perAgent ?? []).filter((a) => heldBy(a) > 0)
  if (!d || kept.length === 0) return null
  const gone = GONE_WITH_AGENT.has(d.on)
  const agents = kept.map((a) => {
    const at = a.ledger.path.indexOf(':')
    return {
      index: a.index,
      host: at > 0 ? a.ledger.path.slice(0, at) : a.host,
      path: a.ledger.path.slice(at + 1),
      rows: heldBy(a),
      gone,
      lost: a.state === 'lost' || a.state === 'failed',
    }
  })
  const lost = agents.filter((a) => a.lost).map((a) => `agent ${a.index}`)
  const why = lost.length
    ? `${lost.join(', ')} ${lost.length === 1 ? 'was' : 'were'} lost before ${lost.length === 1 ? 'its' : 'their'} raw ledger was uploaded${lost.length < agents.length ? '; the others kept theirs (--raw keep)' : ''}`
    : 'the agents kept them (--raw keep)'
  const place = d.on === 'kubernetes' ? 'pods' : 'containers'
  const advice = !gone
    ? `${why}; bring each agent's ledger in with \`cannonade import ledger FILE --run ${runId}\` (FILE: each agent's ledger.db listed with it, copied to this machine when it is on another)`
    : lost.length
      ? `${why}: it went with the agent's ${place.slice(0, -1)}; the run's figures count those requests, this database holds no row of them`
      : `the agents kept them (--raw keep) in their ${place}, which are gone with them; run again with --raw upload (the default) to keep every request in the run`
  const where = agents.map(
    (a) =>
      `agent ${a.index}${a.lost ? ' (lost)' : ''} on ${a.host}: ${a.gone ? '(gone with the agent) ' : ''}${a.path} (${count(a.rows)} requests)`,
  )
  return { requests: agents.reduce((n, a) => n + a.rows, 0), agents, advice, where }
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

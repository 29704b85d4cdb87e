// An agent's ledger file is input like any other (`cannonade import ledger`): before a request of
// it is stored, the file is checked to be what an agent writes, and every block against its run.
// Its `runs`, `samples` and `sample_blocks` are tables (a view, say with a recursive CTE, would be
// evaluated by the read: for ever); its rows hold numbers where numbers belong; each block's count
// matches its data (a count of 10,000,000 over 57 bytes once became "imported 10,000,000
// requests", then every export ran out of memory); its target and round are the run's; every
// sequence number is a whole number of this agent (seq mod agents = its index), and none repeats.
import { ApiError } from '../api/errors.ts'
import { ERROR_KINDS } from '../api/types-stats.ts'
import type { RawBlock } from './agents.ts'
import { BLOCK_MAX_ROWS, decodeBlock, ROW_BYTES } from '../ledger/blocks.ts'
import type { Db } from '../db/db.ts'
import { LEDGER } from '../ledger/derive.ts'

const bad = (file: string, message: string) => new ApiError('bad-input', `${file}: ${message}`, 'file')

/** The tables an agent's ledger is read from: tables, not views (nor missing). */
export function checkLedgerTables(ledger: Db, file: string): void {
  const kinds = new Map(
    (
      ledger
        .prepare("SELECT name, type FROM sqlite_master WHERE name IN ('runs', 'samples', 'sample_blocks')")
        .all() as { name: string; type: string }[]
    ).map((r) => [r.name, r.type]),
  )
  for (const name of ['runs', 'samples', 'sample_blocks']) {
    const type = kinds.get(name)
    if (type !== 'table')
      throw bad(
        file,
        `its ${name} is ${type ? `a ${type}, not a table` : 'missing'}: not a ledger a Cannonade agent wrote`,
      )
  }
}

/** Rows of the agent's run whose columns hold what an agent never writes (text, a fraction, NULL). */
export function checkLedgerRows(ledger: Db, runId: number, file: string): void {
  const whole = (c: string) => `typeof(${c}) <> 'integer'`
  const orNull = (c: string) => `(${c} IS NOT NULL AND typeof(${c}) <> 'integer')`
  const wrong = ledger
    .prepare(
      `SELECT rowid FROM samples WHERE run_id = ? AND (${LEDGER.record.map((c) => (c.nullable ? orNull : whole)(c.sql)).join(' OR ')}) LIMIT 1`,
    )
    .pluck()
    .get(runId) as number | undefined
  if (wrong !== undefined)
    throw bad(file, `its samples row ${wrong} holds a value that is no whole number where one belongs`)
}

/** What the run allows of an agent's block. */
export interface LedgerShape {
  agents: number
  agent: number
  targets: number
  rounds: number
  phases: number
}

/**
 * One block of the file checked against the run (see the header); `seen(seq)` is false for a
 * sequence number met before. Returns the block's rows.
 */
export function checkBlock(
  b: RawBlock,
  shape: LedgerShape,
  file: string,
  seen: (seq: number) => boolean,
): number {
  const where = checkCount(b, file)
  if (!Number.isInteger(b.targetIndex) || b.targetIndex < 0 || b.targetIndex >= shape.targets)
    throw bad(file, `${where}: the run has ${shape.targets} target${shape.targets === 1 ? '' : 's'}`)
  // Rounds count from 1 (engine/config/segments.ts).
  if (!Number.isInteger(b.round) || b.round < 1 || b.round > shape.rounds)
    throw bad(file, `${where}: the run has ${shape.rounds} round${shape.rounds === 1 ? '' : 's'}`)
  const c = decodeBlock(b.data, b.count)
  for (let i = 0; i < c.count; i++) {
    const seq = c.seq[i]!
    if (!Number.isSafeInteger(seq) || seq < 0)
      throw bad(file, `${where}: sequence number ${seq} is not a whole number from 0`)
    if (seq % shape.agents !== shape.agent)
      throw bad(
        file,
        `mixes the requests of several agents (sequence number ${seq} is agent ${seq % shape.agents}'s)`,
      )
    if (!seen(seq)) throw bad(file, `${where}: sequence number ${seq} is there twice`)
    checkValues(c, i, shape, where, file)
  }
  return b.count
}

const FINITE = LEDGER.layout.filter((l) => l.array === 'f64' && l.key !== 'seq').map((l) => l.key)

function checkValues(
  c: ReturnType<typeof decodeBlock>,
  i: number,
  shape: LedgerShape,
  where: string,
  file: string,
): void {
  // Every 8-byte column of the record but seq (checked below) is a time or a size.
  const finite = FINITE.map((key) => (c as unknown as Record<string, Float64Array>)[key]![i]!)
  if (!finite.every((v) => Number.isFinite(v) && Math.abs(v) < Number.MAX_SAFE_INTEGER))
    throw bad(file, `${where}: request ${c.seq[i]} holds a time or size that is no number`)
  if (c.error[i]! >= ERROR_KINDS.length)
    throw bad(file, `${where}: request ${c.seq[i]} has error kind ${c.error[i]}, which no agent writes`)
  if (c.phase[i]! >= shape.phases)
    throw bad(file, `${where}: request ${c.seq[i]} is of phase ${c.phase[i]}; the run has ${shape.phases}`)
}

/** A block's count against its data; the block's name for messages. */
function checkCount(b: RawBlock, file: string): string {
  const where = `a block of target ${b.targetIndex}, round ${b.round}`
  if (!Number.isInteger(b.count) || b.count < 1 || b.count > BLOCK_MAX_ROWS)
    throw bad(file, `${where} says it holds ${b.count} requests (a block holds 1 to ${BLOCK_MAX_ROWS})`)
  if (b.data.byteLength !== b.count * ROW_BYTES)
    throw bad(
      file,
      `${where} says it holds ${b.count.toLocaleString('en-US')} requests, but its data is ${b.data.byteLength.toLocaleString('en-US')} bytes (${ROW_BYTES} a request)`,
    )
  return where
}

/** The first agent of a file: its first block's first sequence number, checked to be one. */
export function agentOf(b: RawBlock, agents: number, file: string): number {
  checkCount(b, file)
  const seq = decodeBlock(b.data.subarray(0, ROW_BYTES), 1).seq[0]!
  if (!Number.isSafeInteger(seq) || seq < 0)
    throw bad(file, `its first sequence number (${seq}) is not a whole number from 0: not an agent's ledger`)
  return seq % agents
}

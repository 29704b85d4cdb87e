// Reading a run's requests whether they are `samples` rows or still in ledger blocks (a run that
// ended moments ago, expanded in the background by expander.ts, or one whose expansion failed on
// a full disk). Every function reads inside one read transaction: an expansion commits a block's
// rows and its deletion together, so a reader sees each request exactly once.
import { ERROR_KINDS } from '../api/types.ts'
import type { Db } from '../db/db.ts'
import { blockRows, blockSample, runBlocks, type BlockSample } from './blocks.ts'
import { LEDGER, type SampleDbRow } from './derive.ts'

const INFLIGHT = ERROR_KINDS.indexOf('inflight')

/** Requests stored for a run: rows plus those still in blocks. */
export function ledgerRowCount(db: Db, runId: number): number {
  return db.transaction(
    () =>
      (db.prepare('SELECT count(*) FROM samples WHERE run_id = ?').pluck().get(runId) as number) +
      blockRows(db, runId),
  )()
}

/** Requests of ended runs still in blocks (not yet `samples` rows), per run, oldest run first. */
export function pendingLedgers(db: Db): { runId: number; rows: number }[] {
  return db
    .prepare(
      `SELECT b.run_id AS runId, sum(b.count) AS rows FROM sample_blocks b JOIN runs r ON r.id = b.run_id
       WHERE r.status <> 'running' GROUP BY b.run_id ORDER BY b.run_id`,
    )
    .all() as { runId: number; rows: number }[]
}

/** Whether some of a run's requests are still in blocks. */
export function hasBlocks(db: Db, runId: number): boolean {
  return db.prepare('SELECT 1 FROM sample_blocks WHERE run_id = ? LIMIT 1').get(runId) !== undefined
}

/**
 * The values summaries are computed from: start, latency, corrected, status, bytes, error, app,
 * db, and the phase (a warm-up phase's requests stay out of the figures).
 */
export type SampleValues = [
  start: number,
  latency: number,
  corrected: number | null,
  status: number,
  bytes: number,
  error: number,
  app: number | null,
  db: number | null,
  phase: number,
]

/** Every request of one target and round, rows then blocks. Call inside a read transaction. */
export function* segmentValues(
  db: Db,
  runId: number,
  targetIndex: number,
  round: number,
): Generator<SampleValues> {
  yield* db
    .prepare(
      'SELECT start_us, latency_us, corrected_us, status, bytes, error, app_us, db_us, phase FROM samples WHERE run_id = ? AND target_index = ? AND round = ?',
    )
    .raw()
    .iterate(runId, targetIndex, round) as IterableIterator<SampleValues>
  for (const b of runBlocks(db, runId, { targetIndex, round })) {
    for (let i = 0; i < b.columns.count; i++) {
      const s = blockSample(b.columns, targetIndex, round, i)
      yield [s[4], s[5], s[6], s[7], s[8], s[9], s[10], s[11], s[3]]
    }
  }
}

export interface PendingQuery {
  seq?: number
  targetIndex?: number
  errorsOnly: boolean
  order: 'seq' | 'slowest'
  limit: number
  offset: number
}

/** Pages past this many rows wait until the run's samples are stored as rows. */
export const MAX_PENDING_WINDOW = 1_000_000

function toDbRow(s: BlockSample): SampleDbRow {
  return LEDGER.row(s)
}

/** Negative when a row with keys (latency a, seq a) comes before (latency b, seq b) in the order. */
type KeyOrder = (aLatency: number, aSeq: number, bLatency: number, bSeq: number) => number

function keyOrder(order: PendingQuery['order']): KeyOrder {
  return order === 'slowest' ? (al, as, bl, bs) => bl - al || as - bs : (_al, as, _bl, bs) => as - bs
}

/**
 * The k first rows in an order, from a stream: a binary heap whose root is the last of those kept,
 * so a row that comes after it is dropped before a row object is even built (most rows, as
 * blocks are nearly in seq order).
 */
class FirstK {
  private readonly heap: SampleDbRow[] = []
  private readonly k: number
  private readonly key: KeyOrder

  constructor(k: number, key: KeyOrder) {
    this.k = k
    this.key = key
  }

  private cmp(a: SampleDbRow, b: SampleDbRow): number {
    return this.key(a.latency_us, a.seq, b.latency_us, b.seq)
  }

  offer(latency: number, seq: number, make: () => SampleDbRow): void {
    const h = this.heap
    if (h.length < this.k) {
      h.push(make())
      this.up(h.length - 1)
    } else if (this.k > 0 && this.key(latency, seq, h[0]!.latency_us, h[0]!.seq) < 0) {
      h[0] = make()
      this.down(0)
    }
  }

  sorted(): SampleDbRow[] {
    return [...this.heap].sort((a, b) => this.cmp(a, b))
  }

  private up(i: number): void {
    const h = this.heap
    while (i > 0) {
      const p = (i - 1) >> 1
      if (this.cmp(h[i]!, h[p]!) <= 0) return
      ;[h[i], h[p]] = [h[p]!, h[i]!]
      i = p
    }
  }

  private down(i: number): void {
    const h = this.heap
    for (;;) {
      const l = 2 * i + 1
      const r = l + 1
      let m = i
      if (l < h.length && this.cmp(h[l]!, h[m]!) > 0) m = l
      if (r < h.length && this.cmp(h[r]!, h[m]!) > 0) m = r
      if (m === i) return
      ;[h[i], h[m]] = [h[m]!, h[i]!]
      i = m
    }
  }
}

/**
 * One page of the samples explorer for a run with requests still in blocks: the same filters and
 * order as the SQL over `samples` (history-store.ts), over rows and blocks together. Returns null when
 * the page is too deep to select in memory (the caller says to come back once stored).
 */
export function pendingSamplesPage(
  db: Db,
  runId: number,
  q: PendingQuery,
): { rows: SampleDbRow[]; total: number } | null {
  const k = q.offset + q.limit
  if (k > MAX_PENDING_WINDOW) return null
  return db.transaction(() => {
    const where = ['run_id = @runId']
    const params: Record<string, number> = { runId, k }
    if (q.seq !== undefined) {
      where.push('seq = @seq')
      params.seq = q.seq
    }
    if (q.targetIndex !== undefined) {
      where.push('target_index = @target')
      params.target = q.targetIndex
    }
    // Failed requests: in flight at the end is not a failure (engine/metrics/figures.ts).
    if (q.errorsOnly) where.push(`error NOT IN (0, ${INFLIGHT})`)
    const clause = where.join(' AND ')
    const order = q.order === 'slowest' ? 'latency_us DESC, seq' : 'seq'
    let total = db.prepare(`SELECT count(*) FROM samples WHERE ${clause}`).pluck().get(params) as number
    const first = new FirstK(k, keyOrder(q.order))
    for (const row of db
      .prepare(`SELECT * FROM samples WHERE ${clause} ORDER BY ${order} LIMIT @k`)
      .iterate(params) as IterableIterator<SampleDbRow>)
      first.offer(row.latency_us, row.seq, () => row)
    for (const b of runBlocks(db, runId)) {
      if (q.targetIndex !== undefined && b.targetIndex !== q.targetIndex) continue
      const c = b.columns
      for (let i = 0; i < c.count; i++) {
        if (q.seq !== undefined && c.seq[i] !== q.seq) continue
        if (q.errorsOnly && (c.error[i] === 0 || c.error[i] === INFLIGHT)) continue
        total++
        first.offer(Math.round(c.latencyUs[i]!), c.seq[i]!, () =>
          toDbRow(blockSample(c, b.targetIndex, b.round, i)),
        )
      }
    }
    return { rows: first.sorted().slice(q.offset), total }
  })()
}

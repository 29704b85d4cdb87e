// A run's warnings (run_warnings, migration 009): monitors that could not read their source. The
// recorder writes each as it comes, so the live view, `runs show` during the run and the run's
// detail afterwards all read the same rows.
import type { RunWarning } from '../api/types.ts'
import type { Db } from '../db/db.ts'

/** A warning as a monitor reports it; `record` adds the time and the run's timeline. */
export type NewWarning = Omit<RunWarning, 'at' | 't' | 'count'>

/** A run keeps at most this many distinct warnings (a message that changes every second stays bounded). */
export const MAX_WARNINGS = 100
/** The most characters of a warning's message (a server's error page quoted in full is cut there). */
export const MAX_WARNING_CHARS = 2000

const cut = (s: string, max: number) => (s.length > max ? `${s.slice(0, max - 1)}…` : s)

type WarningRow = {
  kind: RunWarning['kind']
  field: string
  target: string
  source: string
  message: string
  stopped: number
  first_ms: number
  t: number | null
  count: number
}

function fromRow(r: WarningRow): RunWarning {
  return {
    kind: r.kind,
    field: r.field,
    target: r.target,
    source: r.source,
    message: r.message,
    stopped: r.stopped === 1,
    at: new Date(r.first_ms).toISOString(),
    t: r.t,
    count: r.count,
  }
}

export interface WarningWriter {
  /** Stores a warning; returns it when it is new (to tell the live view), null for a repeat or past the bound. */
  record(w: NewWarning, nowMs?: number): RunWarning | null
  /** The run's t = 0 is known: warnings from before it get their place on the timeline. */
  setT0(t0Ms: number): void
}

export function warningWriter(db: Db, runId: number): WarningWriter {
  let t0: number | null = null
  const count = db.prepare('SELECT count(*) AS n FROM run_warnings WHERE run_id = ?')
  const repeat = db.prepare(
    'UPDATE run_warnings SET count = count + 1 WHERE run_id = ? AND field = ? AND message = ?',
  )
  const insert = db.prepare(
    `INSERT INTO run_warnings (run_id, kind, field, target, source, message, stopped, first_ms, t)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
  )
  const place = db.prepare(
    'UPDATE run_warnings SET t = (first_ms - ?) / 1000.0 WHERE run_id = ? AND t IS NULL',
  )
  return {
    record(given, nowMs = Date.now()) {
      const w = {
        ...given,
        field: cut(given.field, 200),
        target: cut(given.target, 200),
        message: cut(given.message, MAX_WARNING_CHARS),
      }
      if (repeat.run(runId, w.field, w.message).changes > 0) return null
      if ((count.get(runId) as { n: number }).n >= MAX_WARNINGS) return null
      const t = t0 === null ? null : (nowMs - t0) / 1000
      const row = insert.get(
        runId,
        w.kind,
        w.field,
        w.target,
        w.source,
        w.message,
        w.stopped ? 1 : 0,
        nowMs,
        t,
      ) as WarningRow
      return fromRow(row)
    },
    setT0(t0Ms) {
      t0 = t0Ms
      place.run(t0Ms, runId)
    },
  }
}

/** A run's warnings, in the order they first came. */
export function runWarnings(db: Db, runId: number): RunWarning[] {
  return (
    db
      .prepare('SELECT * FROM run_warnings WHERE run_id = ? ORDER BY first_ms, rowid')
      .all(runId) as WarningRow[]
  ).map(fromRow)
}

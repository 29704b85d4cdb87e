// The request record: one `samples` row as the database returns it.

/** A `samples` row as SQLite returns it (absent values are null). */
export interface SampleDbRow {
  seq: number
  target_index: number
  round: number
  phase: number
  start_us: number
  latency_us: number
  corrected_us: number | null
  status: number
  bytes: number
  error: number
  app_us: number | null
  db_us: number | null
}

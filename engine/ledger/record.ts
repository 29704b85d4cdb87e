// The request record, declared once: one entry per column of a request's row. From this list come
// the runner's typed arrays and the block layout (columns.ts, blocks.ts), the `samples` table's
// columns and inserts (block-rows.ts), the readers' column lists (samples-read.ts and the exports'
// engine/store/export-read.ts), the CSV header (engine/exports/csv.ts) and the PostgreSQL archive's
// columns (engine/exports/pg.ts). Adding a column: one entry here, its producer (the runner's
// connection filling it, engine/runner/ledger.ts), and a migration adding it to `samples`
// (engine/db/migrations/; ledger-schema.test.ts fails until it is there). record.test.ts adds
// one to a copy of this list and finds it in every output.

/** A typed-array kind: the element type of a column on the load thread and in a block. */
export type ArrayKind = 'f64' | 'u16' | 'u8'

export interface ColumnSpec {
  /** The short name readers index rows by (export-read.ts `S`). */
  readonly name: string
  /** The `samples` column (and the JSON export's and the archive's). */
  readonly sql: string
  /** Its SQLite type (STRICT tables). */
  readonly type: 'INTEGER' | 'REAL' | 'TEXT'
  /** NULL allowed in `samples`. */
  readonly nullable: boolean
  /**
   * Where the value lives before it is a row: a field of the runner's typed arrays and a block
   * (`array`: its kind; `slot`: its place in a block, kept by blocks already on disk), or, for
   * `segment`, a constant of the whole block (its target and round).
   */
  readonly block:
    | { readonly key: string; readonly array: ArrayKind; readonly slot: number }
    | { readonly segment: 'targetIndex' | 'round' }
  /** A whole number of µs in `samples`: the typed array's value rounded. */
  readonly rounded?: boolean
  /** How a block says "no value" (null in `samples`): negative for f64, this value for u8/u16. */
  readonly absent?: number
  /** The CSV header. */
  readonly csv: string
  /** The PostgreSQL archive's type. */
  readonly pg: string
}

const f64 = <K extends string>(key: K, slot: number) => ({ key, array: 'f64' as const, slot })

/** The request record, in the order rows are exported (JSON, CSV, PostgreSQL). */
export const RECORD = [
  {
    name: 'seq',
    type: 'INTEGER',
    sql: 'seq',
    nullable: false,
    block: f64('seq', 0),
    csv: 'seq',
    pg: 'bigint',
  },
  {
    name: 'target',
    type: 'INTEGER',
    sql: 'target_index',
    nullable: false,
    block: { segment: 'targetIndex' },
    csv: 'target',
    pg: 'int',
  },
  {
    name: 'round',
    type: 'INTEGER',
    sql: 'round',
    nullable: false,
    block: { segment: 'round' },
    csv: 'round',
    pg: 'int',
  },
  {
    name: 'phase',
    type: 'INTEGER',
    sql: 'phase',
    nullable: false,
    block: { key: 'phase', array: 'u8', slot: 9 },
    csv: 'phase',
    pg: 'int',
  },
  {
    name: 'start',
    type: 'INTEGER',
    sql: 'start_us',
    nullable: false,
    block: f64('startUs', 1),
    rounded: true,
    csv: 'start_us',
    pg: 'bigint',
  },
  {
    name: 'latency',
    type: 'INTEGER',
    sql: 'latency_us',
    nullable: false,
    block: f64('latencyUs', 2),
    rounded: true,
    csv: 'latency_us',
    pg: 'bigint',
  },
  {
    name: 'corrected',
    type: 'INTEGER',
    sql: 'corrected_us',
    nullable: true,
    block: f64('correctedUs', 3),
    rounded: true,
    absent: -1,
    csv: 'corrected_us',
    pg: 'bigint',
  },
  {
    name: 'status',
    type: 'INTEGER',
    sql: 'status',
    nullable: false,
    block: { key: 'status', array: 'u16', slot: 7 },
    csv: 'status',
    pg: 'int',
  },
  {
    name: 'bytes',
    type: 'INTEGER',
    sql: 'bytes',
    nullable: false,
    block: f64('bytes', 4),
    csv: 'bytes',
    pg: 'bigint',
  },
  {
    name: 'error',
    type: 'INTEGER',
    sql: 'error',
    nullable: false,
    block: { key: 'error', array: 'u8', slot: 8 },
    csv: 'error',
    pg: 'text',
  },
  {
    name: 'app',
    type: 'INTEGER',
    sql: 'app_us',
    nullable: true,
    block: f64('appUs', 5),
    rounded: true,
    absent: -1,
    csv: 'server_app_us',
    pg: 'bigint',
  },
  {
    name: 'db',
    type: 'INTEGER',
    sql: 'db_us',
    nullable: true,
    block: f64('dbUs', 6),
    rounded: true,
    absent: -1,
    csv: 'server_db_us',
    pg: 'bigint',
  },
  {
    name: 'step',
    type: 'INTEGER',
    sql: 'step',
    nullable: true,
    block: { key: 'step', array: 'u8', slot: 10 },
    absent: 255,
    csv: 'step',
    pg: 'int',
  },
] as const satisfies readonly ColumnSpec[]

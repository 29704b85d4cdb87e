// What the request record's declaration (record.ts) gives, derived for any list of columns: the
// typed arrays, the block layout and its codec, the `samples` DDL and column lists, a block's row
// as `samples` stores it and back, the CSV header and the PostgreSQL archive's columns. The
// product uses it once, on RECORD (LEDGER below); record.test.ts on a list with a column added.
import { RECORD, type ArrayKind, type ColumnSpec } from './record.ts'

type ArrayOf<K> = K extends 'f64' ? Float64Array : K extends 'u16' ? Uint16Array : Uint8Array
type Stored = Extract<ColumnSpec['block'], { key: string }>

/** A batch's typed arrays: one per stored column, and how many rows are filled. */
export type ColumnsOf<R extends readonly ColumnSpec[]> = { count: number } & {
  -readonly [C in R[number] as C['block'] extends { key: infer K extends string } ? K : never]: ArrayOf<
    C['block'] extends { array: infer A } ? A : never
  >
}

/** A `samples` row as SQLite returns it: absent values are null. */
export type RowOf<R extends readonly ColumnSpec[]> = {
  -readonly [C in R[number] as C['sql']]: C['nullable'] extends false ? number : number | null
}

/** A request as its `samples` row, values in the record's order. */
export type TupleOf<R extends readonly ColumnSpec[]> = {
  -readonly [I in keyof R]: R[I] extends { nullable: false } ? number : number | null
}

type AnyArray = Float64Array | Uint16Array | Uint8Array
type Loose = { count: number } & Record<string, AnyArray>

const BYTES: Record<ArrayKind, number> = { f64: 8, u16: 2, u8: 1 }
const MAKE: Record<ArrayKind, (b: ArrayBuffer, offset: number, n: number) => AnyArray> = {
  f64: (b, o, n) => new Float64Array(b, o, n),
  u16: (b, o, n) => new Uint16Array(b, o, n),
  u8: (b, o, n) => new Uint8Array(b, o, n),
}

export interface BlockColumn {
  key: string
  array: ArrayKind
  bytes: number
  /** "No value" in a block: negative (f64), or this value. */
  absent: number | undefined
}

/** A column's block value as its `samples` value: rounded µs, absent as null. */
function toRow(c: ColumnSpec): (v: number) => number | null {
  const absent = c.absent
  if (c.nullable && absent === -1)
    return c.rounded ? (v) => (v < 0 ? null : Math.round(v)) : (v) => (v < 0 ? null : v)
  if (c.nullable) return (v) => (v === absent ? null : v)
  return c.rounded ? Math.round : (v) => v
}

/** A block's codec for a layout: columns into one buffer and back. */
function codecOf<C extends { count: number }>(layout: readonly BlockColumn[], rowBytes: number) {
  return {
    /** The first `count` rows of each column, back to back in one buffer. */
    encode(c: C): Buffer {
      const n = c.count
      const parts = layout.map((l) => {
        const col = (c as unknown as Loose)[l.key]!
        return Buffer.from(col.buffer, col.byteOffset, n * l.bytes)
      })
      return Buffer.concat(parts, n * rowBytes)
    },
    /** A block's columns; a count its data does not hold is refused (it would size the buffer). */
    decode(data: Uint8Array, count: number): C {
      if (!Number.isInteger(count) || count < 0 || count * rowBytes > data.byteLength)
        throw new Error(
          `a ledger block says it holds ${count} requests, but its data is ${data.byteLength} bytes (${rowBytes} a request): it is damaged`,
        )
      // Copied into an aligned buffer: typed-array views need their offset to be a multiple of 8.
      const buf = new ArrayBuffer(count * rowBytes)
      new Uint8Array(buf).set(data.subarray(0, count * rowBytes))
      const c: Loose = { count } as Loose
      let off = 0
      for (const l of layout) {
        c[l.key] = MAKE[l.array](buf, off, count)
        off += l.bytes * count
      }
      return c as unknown as C
    },
    /** Every request of an encoded block given `value` in column `key` (rewritten in place). */
    fillColumn(data: Buffer, count: number, key: string, value: number): void {
      let off = 0
      for (const l of layout) {
        if (l.key === key) {
          if (l.bytes !== 1) throw new Error(`fillColumn: ${key} is not a byte column`)
          data.fill(value, off, off + count)
          return
        }
        off += l.bytes * count
      }
    },
  }
}

export function ledgerOf<const R extends readonly ColumnSpec[]>(record: R) {
  const stored = record.filter((c): c is ColumnSpec & { block: Stored } => 'key' in c.block)
  // 8-byte columns first (typed-array views need aligned offsets), then by slot: blocks on disk
  // keep their layout.
  const layout: BlockColumn[] = [...stored]
    .sort((a, b) => BYTES[b.block.array] - BYTES[a.block.array] || a.block.slot - b.block.slot)
    .map((c) => ({ key: c.block.key, array: c.block.array, bytes: BYTES[c.block.array], absent: c.absent }))
  const rowBytes = layout.reduce((s, c) => s + c.bytes, 0)
  const readers = record.map((c) => {
    const conv = toRow(c)
    const b = c.block
    if ('segment' in b)
      return (_c: Loose, target: number, round: number) => (b.segment === 'round' ? round : target)
    return (cols: Loose, _t: number, _r: number, i: number) => conv(cols[b.key]![i]!)
  })
  const sqlColumns = record.map((c) => c.sql)
  const index = Object.fromEntries(record.map((c, i) => [c.name, i])) as {
    readonly [C in R[number] as C['name']]: number
  }
  return {
    /** Each column's position in a row read by name (`sqlColumns`' order), by its short name. */
    index,
    record,
    layout,
    /** The columns a block stores, in the record's order, each with its value as `samples` holds it. */
    stored: stored.map((c) => ({
      key: c.block.key,
      sql: c.sql,
      nullable: c.nullable,
      absent: c.absent,
      toRow: toRow(c),
    })),
    /** Bytes a request takes in a block. */
    rowBytes,
    /** Empty columns for up to `rows` requests (absent u8/u16 values filled in). */
    newColumns(rows: number): ColumnsOf<R> {
      const c: Loose = { count: 0 } as Loose
      for (const l of layout) {
        const a = MAKE[l.array](new ArrayBuffer(rows * l.bytes), 0, rows)
        if (l.absent !== undefined && l.absent >= 0) a.fill(l.absent)
        c[l.key] = a
      }
      return c as unknown as ColumnsOf<R>
    },
    /** The buffers to transfer with a batch between threads. */
    transferList(c: ColumnsOf<R>): ArrayBuffer[] {
      return layout.map((l) => (c as unknown as Loose)[l.key]!.buffer as ArrayBuffer)
    },
    ...codecOf<ColumnsOf<R>>(layout, rowBytes),
    /** Row `i` of a block as its `samples` row stores it, in the record's order. */
    sample(c: ColumnsOf<R>, targetIndex: number, round: number, i: number): TupleOf<R> {
      return readers.map((read) => read(c as unknown as Loose, targetIndex, round, i)) as TupleOf<R>
    },
    /** A request's values as its `samples` row, by column name. */
    row(t: TupleOf<R>): RowOf<R> {
      const out: Record<string, number | null> = {}
      sqlColumns.forEach((name, k) => (out[name] = (t as readonly (number | null)[])[k]!))
      return out as RowOf<R>
    },
    /** A `samples` row into row `i` of a block (null as the column's absent value). */
    putRow(c: ColumnsOf<R>, i: number, row: RowOf<R>): void {
      const r = row as Record<string, number | null>
      for (const s of stored) (c as unknown as Loose)[s.block.key]![i] = r[s.sql] ?? s.absent ?? -1
    },
    /** The `samples` columns after run_id, in the record's order (the exports' order). */
    sqlColumns,
    /** The `samples` table as this record declares it (the migrations build it; a test compares). */
    ddl: `CREATE TABLE samples (\n  run_id INTEGER NOT NULL,\n${record
      .map((c) => `  ${c.sql} ${c.type}${c.nullable ? '' : ' NOT NULL'}`)
      .join(',\n')}\n) STRICT`,
    /** The statement a migration adds a column with (engine/db/migrations/), by its `sql` name. */
    addColumn(sql: string): string {
      const c = record.find((x) => x.sql === sql)
      if (!c) throw new Error(`no column ${sql} in the record`)
      return `ALTER TABLE samples ADD COLUMN ${c.sql} ${c.type}${c.nullable ? '' : ' NOT NULL DEFAULT 0'}`
    },
    /** The same in the PostgreSQL archive's migrations (engine/exports/pg-schema.ts). */
    addPgColumn(sql: string): string {
      const c = record.find((x) => x.sql === sql)
      if (!c) throw new Error(`no column ${sql} in the record`)
      return `ALTER TABLE cannonade.samples ADD COLUMN ${c.sql} ${c.pg}`
    },
    csvHeader: ['correlation_id', ...record.map((c) => c.csv)],
    /** The PostgreSQL archive's `samples` columns and types. */
    pgColumns: [['run_id', 'bigint'], ...record.map((c) => [c.sql, c.pg])] as [string, string][],
  }
}

/**
 * The columns the export lines (CSV, JSON, PostgreSQL COPY) write by name, in the record's order:
 * their hot loops format these in place; any column after them is written as stored.
 */
export const EXPORT_NAMED: readonly string[] = [
  'seq',
  'target',
  'round',
  'phase',
  'start',
  'latency',
  'corrected',
  'status',
  'bytes',
  'error',
  'app',
  'db',
  'step',
]

/**
 * The product record's columns a hot formatter (CSV, COPY, JSON lines) does not name: its
 * positions, to write as stored after those it names. A column added to record.ts appears in
 * every export this way, in the header's place too: so it goes after the named ones (refused here
 * otherwise, when the formatter's module loads).
 */
export function plainColumns(named: readonly string[] = EXPORT_NAMED, ledger: Ledger = LEDGER): number[] {
  const plain = ledger.record.flatMap((c, i) => (named.includes(c.name) ? [] : [i]))
  const first = plain[0] ?? ledger.record.length
  const late = ledger.record.slice(first).find((c) => named.includes(c.name))
  if (late)
    throw new Error(
      `record.ts: ${ledger.record[first]!.sql} comes before ${late.sql}, which the export lines write by name: add new columns at the end`,
    )
  return plain
}

/** What a record gives (ledgerOf). */
export type Ledger = ReturnType<typeof ledgerOf<readonly ColumnSpec[]>>

/** The product's record, derived once. */
export const LEDGER = ledgerOf(RECORD)

/** A batch of requests as typed arrays: the runner's columns and a decoded block. */
export type BlockColumns = ColumnsOf<typeof RECORD>

/** A `samples` row as SQLite returns it (absent values are null). */
export type SampleDbRow = RowOf<typeof RECORD>

/** A request as its `samples` row stores it, in the record's order (absent values are null). */
export type BlockSample = TupleOf<typeof RECORD>

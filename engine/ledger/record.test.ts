// The request record is declared once (record.ts): a column added to the declaration appears in
// every output derived from it (typed arrays, block layout, DDL, insert, readers, CSV header, the
// PostgreSQL archive's columns), and the product's outputs are the declaration's.
import { describe, expect, it } from 'vitest'
import Database from 'better-sqlite3'
import { openDb } from '../db/db.ts'
import { PG_MIGRATIONS } from '../exports/pg-schema.ts'
import { SAMPLE_CSV_HEADER } from '../exports/csv.ts'
import { SAMPLE_COLUMNS } from '../store/export-read.ts'
import { blockRowWriter } from './block-rows.ts'
import { LEDGER, ledgerOf, plainColumns } from './derive.ts'
import { RECORD, type ColumnSpec } from './record.ts'

/** The record with one column more: time to first byte, µs, absent when no byte came. */
const FIXTURE = [
  ...RECORD,
  {
    name: 'ttfb',
    type: 'INTEGER',
    sql: 'ttfb_us',
    nullable: true,
    block: { key: 'ttfbUs', array: 'f64', slot: 11 },
    rounded: true,
    absent: -1,
    csv: 'ttfb_us',
    pg: 'bigint',
  },
] as const satisfies readonly ColumnSpec[]

/** A batch of `n` requests of the fixture's record, each with a ttfb of i·10 + 0.4 µs (the last none). */
function batch(n: number, spread = 1) {
  const L = ledgerOf(FIXTURE)
  const c = L.newColumns(n)
  for (let i = 0; i < n; i++) {
    c.seq[i] = 100 + i * spread
    c.startUs[i] = 1000 + i
    c.latencyUs[i] = 500.6
    c.correctedUs[i] = -1
    c.bytes[i] = 12
    c.appUs[i] = -1
    c.dbUs[i] = -1
    c.status[i] = 200
    c.error[i] = 0
    c.phase[i] = 1
    c.ttfbUs[i] = i === n - 1 ? -1 : i * 10 + 0.4
  }
  c.count = n
  return { L, c }
}

describe('the request record, declared once', () => {
  it('a column added to the declaration is in the typed arrays and the block layout', () => {
    const { L, c } = batch(3)
    expect(c.ttfbUs).toBeInstanceOf(Float64Array)
    expect(L.transferList(c)).toContain(c.ttfbUs.buffer)
    expect(L.transferList(c)).toHaveLength(LEDGER.transferList(LEDGER.newColumns(1)).length + 1)
    // An 8-byte column: among the 8-byte ones (aligned), after those already on disk.
    expect(L.layout.map((l) => l.key)).toEqual([
      ...LEDGER.layout.filter((l) => l.bytes === 8).map((l) => l.key),
      'ttfbUs',
      ...LEDGER.layout.filter((l) => l.bytes < 8).map((l) => l.key),
    ])
    expect(L.rowBytes).toBe(LEDGER.rowBytes + 8)
    const back = L.decode(L.encode(c), c.count)
    expect([...back.ttfbUs]).toEqual([0.4, 10.4, -1])
    expect([...back.seq]).toEqual([100, 101, 102])
    expect(() => L.decode(L.encode(c), 4)).toThrow(/damaged/)
  })

  it('in the DDL, the insert and the readers: a block becomes rows that hold it', () => {
    expect(ledgerOf(FIXTURE).ddl).toContain('  ttfb_us INTEGER\n) STRICT')
    expect(ledgerOf(FIXTURE).addColumn('ttfb_us')).toBe('ALTER TABLE samples ADD COLUMN ttfb_us INTEGER')
    // Packed (seq close together) and value by value (seq spread past the packing).
    for (const spread of [1, 2 ** 22]) {
      const { L, c } = batch(5, spread)
      const db = new Database(':memory:')
      db.exec(L.ddl)
      blockRowWriter(db, L).insert(9, 2, 3, c)
      const rows = db.prepare('SELECT * FROM samples ORDER BY seq').all() as Record<string, unknown>[]
      expect(rows.map((r) => r.ttfb_us)).toEqual([0, 10, 20, 30, null])
      expect(rows[1]).toEqual({ run_id: 9, ...L.row(L.sample(c, 2, 3, 1)) })
      db.close()
    }
    const { L, c } = batch(2)
    const sample = L.sample(c, 2, 3, 0)
    expect(sample[L.index.ttfb]).toBe(0)
    expect(L.sample(c, 2, 3, 1)[L.index.ttfb]).toBeNull()
    expect(L.row(sample)).toMatchObject({ seq: 100, target_index: 2, round: 3, ttfb_us: 0 })
    const again = L.newColumns(1)
    L.putRow(again, 0, L.row(L.sample(c, 2, 3, 1)))
    expect(again.ttfbUs[0]).toBe(-1)
  })

  it('in the CSV header, the exports and the PostgreSQL archive', () => {
    const L = ledgerOf(FIXTURE)
    expect(L.csvHeader.at(-1)).toBe('ttfb_us')
    expect(L.pgColumns.at(-1)).toEqual(['ttfb_us', 'bigint'])
    expect(L.addPgColumn('ttfb_us')).toBe('ALTER TABLE cannonade.samples ADD COLUMN ttfb_us bigint')
    expect(L.sqlColumns.at(-1)).toBe('ttfb_us')
    // The CSV, COPY and JSON lines name the product's columns; a column they do not name is written as stored.
    const named = LEDGER.record.map((c) => c.name)
    expect(plainColumns(named, L)).toEqual([L.index.ttfb])
    expect(plainColumns(named)).toEqual([])
    // A column put among those the lines name would shift the header away from the lines.
    const [seq, ...rest] = FIXTURE
    expect(() => plainColumns(named, ledgerOf([seq, FIXTURE.at(-1)!, ...rest.slice(0, -1)]))).toThrow(
      /ttfb_us comes before target_index.*at the end/,
    )
  })

  it("the product's outputs are the declaration's", () => {
    expect(SAMPLE_CSV_HEADER).toEqual(LEDGER.csvHeader)
    expect(SAMPLE_COLUMNS).toEqual(LEDGER.sqlColumns)
    expect(LEDGER.rowBytes).toBe(61)
    expect(LEDGER.layout.map((l) => l.key)).toEqual([
      'seq',
      'startUs',
      'latencyUs',
      'correctedUs',
      'bytes',
      'appUs',
      'dbUs',
      'status',
      'error',
      'phase',
      'step',
    ])
  })

  it('the migrations build the `samples` table the declaration describes', () => {
    const db = openDb(':memory:')
    const table = db.prepare('PRAGMA table_info(samples)').all() as {
      name: string
      type: string
      notnull: number
    }[]
    const declared = new Database(':memory:')
    declared.exec(LEDGER.ddl)
    const want = declared.prepare('PRAGMA table_info(samples)').all() as typeof table
    const shape = (t: typeof table) => t.map((c) => `${c.name} ${c.type}${c.notnull ? ' NOT NULL' : ''}`)
    // A column declared and not yet migrated: the statement its migration needs.
    const missing = LEDGER.sqlColumns
      .filter((c) => !table.some((t) => t.name === c))
      .map((c) => LEDGER.addColumn(c))
    expect(missing).toEqual([])
    expect(shape(table)).toEqual(shape(want))
    db.close()
    declared.close()
  })

  it("the PostgreSQL archive's migrations give `samples` every declared column", () => {
    const sql = PG_MIGRATIONS.map((m) => m.sql).join('\n')
    const created = /CREATE TABLE cannonade\.samples \(([^;]*)\);/.exec(sql)![1]!
    const columns = [
      ...created.split(',').map((l) => l.trim().split(/\s+/).slice(0, 2)),
      ...[...sql.matchAll(/ALTER TABLE cannonade\.samples ADD COLUMN (\w+) (\w+)/g)].map((m) => [m[1], m[2]]),
    ]
    const missing = LEDGER.pgColumns
      .filter(([name, type]) => !columns.some(([n, t]) => n === name && t === type))
      .map(([name]) => (name === 'run_id' ? name : LEDGER.addPgColumn(name)))
    expect(missing).toEqual([])
  })
})

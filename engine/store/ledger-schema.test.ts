// The schema is an interface (issue 19, item 2): README.md's "Query the ledger yourself" names the
// tables and columns a user reads and the schema version; every column it names exists in a
// database this Cannonade creates, and the version it states is the newest migration's, so a
// migration cannot change these columns without the section (and this test) saying so.
import { describe, expect, it } from 'vitest'
import { ledgerDoc } from '../testing/readme.ts'
import { openDb } from '../db/db.ts'

describe('README "Query the ledger yourself" against the schema', () => {
  const doc = ledgerDoc()
  const db = openDb(':memory:')

  it('states the schema version a new database is at', () => {
    const newest = db.prepare('SELECT max(version) FROM schema_migrations').pluck().get() as number
    expect(doc.version).toBe(newest)
  })

  it('names the tables a user reads, and every column it names exists', () => {
    expect(Object.keys(doc.columns).sort()).toEqual(
      ['resource_samples', 'run_targets', 'runs', 'samples', 'series'].sort(),
    )
    for (const [table, names] of Object.entries(doc.columns)) {
      const real = (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name)
      expect(names.length, table).toBeGreaterThan(3)
      expect(
        names.filter((n) => !real.includes(n)),
        `${table}: columns the README names that the table lacks`,
      ).toEqual([])
    }
  })

  it('its example queries are valid SQL on this schema', () => {
    expect(Object.keys(doc.queries).sort()).toEqual(['per-second-p99', 'slowest', 'status-and-error'])
    for (const sql of Object.values(doc.queries)) expect(db.prepare(sql).all({ run: 1 })).toEqual([])
  })
})

import { describe, expect, it } from 'vitest'
import { newColumns } from './columns.ts'
import { samplesWriter } from './samples-writer.ts'
import { decodeBlock, encodeBlock, ROW_BYTES } from './blocks.ts'
import { openDb } from '../db/db.ts'
import { LEDGER, type BlockColumns } from './derive.ts'

/** The batch's typed arrays (its other fields are counts). */
type ArrayKey = {
  [K in keyof BlockColumns]: BlockColumns[K] extends ArrayLike<number> ? K : never
}[keyof BlockColumns]

function filled(n: number) {
  const c = newColumns(n + 10)
  for (let i = 0; i < n; i++) {
    c.seq[i] = 1_000_000 + i
    c.startUs[i] = i * 12.5
    c.latencyUs[i] = i % 3 === 0 ? -1 : 100 + i
    c.correctedUs[i] = i % 2 ? -1 : 200 + i
    c.bytes[i] = 150
    c.appUs[i] = i % 5 ? -1 : 1500
    c.dbUs[i] = -1
    c.status[i] = i % 3 === 0 ? 0 : 200
    c.error[i] = i % 3 === 0 ? 1 : 0
    c.phase[i] = i % 2
    c.step[i] = i % 4 === 0 ? 255 : 2
  }
  c.count = n
  return c
}

describe('sample blocks', () => {
  it('round-trip the columns of a batch exactly', () => {
    const c = filled(300)
    const data = encodeBlock(c)
    expect(data.length).toBe(300 * ROW_BYTES)
    const d = decodeBlock(data, 300)
    // Every column of the block layout the declaration gives (record.test.ts names them).
    for (const k of LEDGER.layout.map((l) => l.key as ArrayKey)) {
      expect(Array.from(d[k])).toEqual(Array.from(c[k].subarray(0, 300)))
    }
  })

  it('expand into samples rows, nulls where a value is absent, and leave no block behind', () => {
    const db = openDb(':memory:')
    db.prepare(
      "INSERT INTO runs (id, name, status, config, correlation_prefix, started_at) VALUES (1, 'r', 'running', '{}', 'p', 'now')",
    ).run()
    const insert = db.prepare(
      'INSERT INTO sample_blocks (run_id, target_index, round, count, data) VALUES (1, ?, ?, ?, ?)',
    )
    insert.run(0, 1, 300, encodeBlock(filled(300)))
    insert.run(1, 2, 5, encodeBlock(filled(5)))
    expect(samplesWriter(db).writeRun(1)).toBe(305)
    expect(db.prepare('SELECT count(*) FROM sample_blocks').pluck().get()).toBe(0)
    expect(
      db
        .prepare('SELECT count(*) FROM samples WHERE run_id = 1 AND target_index = 0 AND round = 1')
        .pluck()
        .get(),
    ).toBe(300)
    const r = db.prepare('SELECT * FROM samples WHERE seq = 1000000 AND target_index = 0').get() as Record<
      string,
      unknown
    >
    expect(r).toMatchObject({
      latency_us: -1,
      corrected_us: 0 + 200,
      app_us: 1500,
      db_us: null,
      status: 0,
      error: 1,
      phase: 0,
      step: null,
    })
    const r2 = db.prepare('SELECT * FROM samples WHERE seq = 1000001 AND target_index = 0').get() as Record<
      string,
      unknown
    >
    expect(r2).toMatchObject({ latency_us: 101, corrected_us: null, app_us: null, step: 2, phase: 1 })
  })
})

// block-rows.ts packs a row's values into three numbers that SQLite unpacks: every row it writes
// must equal blockSample's (the definition a reader of blocks uses), whatever the block holds:
// values at the edges of the packing, beyond them (the value-by-value path), the optional
// columns present or not, and a block longer than a statement (its last chunk padded).
import { describe, expect, it } from 'vitest'
import { seededRandom } from '../metrics/random.ts'
import { newColumns } from './columns.ts'
import { samplesWriter } from './samples-writer.ts'
import { blockSample, encodeBlock, type BlockColumns } from './blocks.ts'
import { openDb, type Db } from '../db/db.ts'

const COLUMNS =
  'seq, target_index, round, phase, start_us, latency_us, corrected_us, status, bytes, error, app_us, db_us, step'

function block(n: number, fill: (c: BlockColumns, i: number) => void): BlockColumns {
  const c = newColumns(n)
  for (let i = 0; i < n; i++) {
    c.seq[i] = 5_000_000 + i * 3
    c.startUs[i] = 1_000_000 + i * 17.4
    c.latencyUs[i] = 250.6 + (i % 900)
    c.correctedUs[i] = -1
    c.bytes[i] = 1234
    c.appUs[i] = -1
    c.dbUs[i] = -1
    c.status[i] = 200
    c.error[i] = 0
    c.phase[i] = i % 3
    c.step[i] = 255
    fill(c, i)
  }
  c.count = n
  return c
}

function freshDb(): Db {
  const db = openDb(':memory:')
  db.prepare(
    "INSERT INTO runs (id, name, status, config, correlation_prefix, started_at) VALUES (7, 'r', 'done', '{}', 'p', 'now')",
  ).run()
  return db
}

/** Expand `c` as target 2, round 3 of run 7 and compare every row with blockSample's. */
function expandsExactly(c: BlockColumns): void {
  const db = freshDb()
  db.prepare(
    'INSERT INTO sample_blocks (run_id, target_index, round, count, data) VALUES (7, 2, 3, ?, ?)',
  ).run(c.count, encodeBlock(c))
  expect(samplesWriter(db).writeRun(7)).toBe(c.count)
  const rows = db.prepare(`SELECT ${COLUMNS} FROM samples WHERE run_id = 7 ORDER BY rowid`).raw().all()
  expect(rows).toHaveLength(c.count)
  const expected = Array.from({ length: c.count }, (_, i) => blockSample(c, 2, 3, i))
  expect(rows).toEqual(expected)
  expect(db.prepare('SELECT count(*) FROM sample_blocks').pluck().get()).toBe(0)
  db.close()
}

describe('block rows (packed)', () => {
  it('a typical closed-loop block longer than one statement: every row as blockSample says', () => {
    expandsExactly(block(2500, () => {}))
  })

  it('optional columns, each on its own or together, with zeros kept apart from absent', () => {
    const rnd = seededRandom(19)
    for (const which of [['corrected'], ['app'], ['db'], ['corrected', 'app', 'db']]) {
      expandsExactly(
        block(1100, (c, i) => {
          if (which.includes('corrected')) c.correctedUs[i] = i % 4 === 0 ? -1 : i % 7 === 0 ? 0 : rnd() * 9e6
          if (which.includes('app')) c.appUs[i] = i % 3 === 0 ? -1 : i % 5 === 0 ? 0 : rnd() * 5e4
          if (which.includes('db')) c.dbUs[i] = i % 2 === 0 ? -1 : rnd() * 2e4
        }),
      )
    }
  })

  it('values at the edges of the packing: no response, every status and error, scenario steps, big bodies', () => {
    expandsExactly(
      block(1500, (c, i) => {
        c.latencyUs[i] = i % 11 === 0 ? -1 : i % 13 === 0 ? 2 ** 38 - 2 : c.latencyUs[i]!
        c.status[i] = i % 11 === 0 ? 0 : 100 + (i % 924)
        c.error[i] = i % 32
        c.phase[i] = 255 - (i % 2)
        c.step[i] = i % 5 === 0 ? 255 : i % 255
        c.bytes[i] = i % 17 === 0 ? 2 ** 37 - 1 : i
        c.startUs[i] = -500 + i * 2_000_000 // spans ~50 minutes, negative first (an agent's clock)
        c.seq[i] = i % 2 ? 2 ** 21 - 1 + 10 : 10 // the widest seq spread that packs
      }),
    )
  })

  it('blocks beyond the packing are written value by value, the same rows', () => {
    const beyond: ((c: BlockColumns, i: number) => void)[] = [
      (c, i) => (c.seq[i] = i === 9 ? 2 ** 40 : i),
      (c, i) => (c.startUs[i] = i === 9 ? 2 ** 33 : i),
      (c, i) => (c.latencyUs[i] = i === 9 ? 2 ** 38 : 10),
      (c, i) => (c.status[i] = i === 9 ? 1024 : 200),
      (c, i) => (c.error[i] = i === 9 ? 32 : 0),
      (c, i) => (c.bytes[i] = i === 9 ? 2 ** 37 : 10),
    ]
    for (const fill of beyond) expandsExactly(block(40, fill))
  })

  it('a one-row block and several blocks of one run, in order', () => {
    expandsExactly(block(1, () => {}))
    const db = freshDb()
    const insert = db.prepare(
      'INSERT INTO sample_blocks (run_id, target_index, round, count, data) VALUES (7, ?, 1, ?, ?)',
    )
    const blocks = [block(1024, () => {}), block(3, (c, i) => (c.seq[i] = 9e6 + i)), block(1025, () => {})]
    blocks.forEach((c, t) => insert.run(t, c.count, encodeBlock(c)))
    expect(samplesWriter(db).writeRun(7)).toBe(2052)
    const rows = db.prepare(`SELECT ${COLUMNS} FROM samples ORDER BY rowid`).raw().all()
    expect(rows).toEqual(
      blocks.flatMap((c, t) => Array.from({ length: c.count }, (_, i) => blockSample(c, t, 1, i))),
    )
    db.close()
  })
})

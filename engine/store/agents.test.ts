// The local database's side of runs made by load agents: migration 010 rebuilds `runs` for the new
// `partial` status without losing a row or a child row, and keeps foreign keys enforced; an
// agent's raw ledger reads back as blocks that become the same samples in the merged run.
import { copyFileSync, mkdtempSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { insertRawBlocks, readRawBlocks } from './agents.ts'
import { samplesWriter } from '../ledger/samples-writer.ts'
import { migrate, openDb } from '../db/db.ts'

const MIGRATIONS = join(dirname(fileURLToPath(import.meta.url)), '..', 'db', 'migrations')

describe('migration 010 (runs of load agents)', () => {
  it('keeps every run and its children, allows partial, and still enforces foreign keys', () => {
    // A database as the version before 010 left it.
    const before = mkdtempSync(join(tmpdir(), 'cannonade-mig-'))
    for (const f of readdirSync(MIGRATIONS).filter((f) => f < '010'))
      copyFileSync(join(MIGRATIONS, f), join(before, f))
    const file = join(before, 'old.db')
    const raw = new Database(file)
    raw.pragma('foreign_keys = ON')
    migrate(raw, null, before)
    raw.exec(`
      INSERT INTO studies (id, name, kind, path, "values", created_at) VALUES (7, 's', 'sweep', 'load.connections', '[1]', 'x');
      INSERT INTO runs (id, name, status, config, correlation_prefix, started_at, tags, study_id, sweep_value, ledger_rows)
        VALUES (1, 'one', 'done', '{}', 'abcd', '2026-01-01', '["a"]', 7, 4, 10), (2, 'two', 'aborted', '{}', 'ef01', '2026-01-02', '[]', NULL, NULL, NULL);
      INSERT INTO run_targets (run_id, target_index, round, target, url) VALUES (1, 0, 1, 't', 'http://x'), (2, 0, 1, 't', 'http://x');
      INSERT INTO series (run_id, target_index, round, t, phase, connections, requests, errors, errors_json, status_json, bytes, mean, p50, p90, p95, p99, p999, max)
        VALUES (1, 0, 1, 0, 0, 1, 5, 0, '{}', '{}', 0, 1, 1, 1, 1, 1, 1, 1);
    `)
    expect(() => raw.prepare("UPDATE runs SET status = 'partial' WHERE id = 2").run()).toThrow(
      /CHECK constraint/,
    )
    raw.close()

    const db = openDb(file) // applies 010, after a backup
    const runs = db
      .prepare(
        'SELECT id, name, status, tags, study_id, sweep_value, ledger_rows, distribution FROM runs ORDER BY id',
      )
      .all()
    expect(runs).toEqual([
      {
        id: 1,
        name: 'one',
        status: 'done',
        tags: '["a"]',
        study_id: 7,
        sweep_value: 4,
        ledger_rows: 10,
        distribution: null,
      },
      {
        id: 2,
        name: 'two',
        status: 'aborted',
        tags: '[]',
        study_id: null,
        sweep_value: null,
        ledger_rows: null,
        distribution: null,
      },
    ])
    expect(db.prepare('SELECT count(*) FROM run_targets').pluck().get()).toBe(2)
    expect(db.prepare('SELECT agents FROM series').pluck().get()).toBeNull()
    db.prepare("UPDATE runs SET status = 'partial', distribution = '{}' WHERE id = 2").run()
    expect(() => db.prepare("UPDATE runs SET status = 'lost' WHERE id = 2").run()).toThrow(/CHECK constraint/)
    // Foreign keys are back on: children still follow their run, and a dangling one is refused.
    db.prepare('DELETE FROM runs WHERE id = 1').run()
    expect(db.prepare('SELECT count(*) FROM run_targets').pluck().get()).toBe(1)
    expect(() =>
      db
        .prepare(
          "INSERT INTO run_targets (run_id, target_index, round, target, url) VALUES (99, 0, 1, 't', 'u')",
        )
        .run(),
    ).toThrow(/FOREIGN KEY/)
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1)
    const indexes = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'runs'")
      .pluck()
      .all()
    expect(indexes).toEqual(expect.arrayContaining(['runs_started', 'runs_origin', 'runs_study']))
    db.close()
  })
})

describe('raw blocks', () => {
  it('read an agent ledger back as blocks that become the same samples elsewhere', () => {
    const agent = openDb(':memory:')
    const insert = agent.prepare(
      `INSERT INTO samples (run_id, seq, target_index, round, phase, start_us, latency_us, corrected_us, status, bytes, error, app_us, db_us, step)
       VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    const rows: (number | null)[][] = []
    agent.transaction(() => {
      for (let i = 0; i < 10_000; i++) {
        const target = i < 6000 ? 0 : 1
        const row = [
          i * 3 + 1,
          target,
          1 + (i % 2),
          i % 3,
          i * 100,
          i % 7 === 0 ? -1 : 500 + i,
          i % 5 === 0 ? null : 900,
          i % 7 === 0 ? 0 : 200,
          64,
          i % 7 === 0 ? 1 : 0,
          i % 4 ? null : 42,
          null,
          i % 11 ? null : 2,
        ]
        insert.run(...row)
        rows.push(row)
      }
    })()
    // Another run's rows in the same ledger are not part of it.
    agent
      .prepare(
        'INSERT INTO samples (run_id, seq, target_index, round, phase, start_us, latency_us, status, bytes, error) VALUES (2, 1, 0, 1, 0, 0, 0, 0, 0, 0)',
      )
      .run()
    const blocks = [...readRawBlocks(agent, 1, 4096)]
    expect(blocks.every((b) => b.count <= 4096)).toBe(true)
    expect(blocks.reduce((n, b) => n + b.count, 0)).toBe(10_000)
    const merged = openDb(':memory:')
    merged
      .prepare(
        "INSERT INTO runs (id, name, status, config, correlation_prefix, started_at) VALUES (5, 'm', 'running', '{}', 'p', 'x')",
      )
      .run()
    expect(insertRawBlocks(merged, 5, blocks)).toBe(10_000)
    expect(samplesWriter(merged).writeRun(5)).toBe(10_000)
    const back = merged
      .prepare(
        'SELECT seq, target_index, round, phase, start_us, latency_us, corrected_us, status, bytes, error, app_us, db_us, step FROM samples WHERE run_id = 5 ORDER BY seq',
      )
      .raw()
      .all()
    expect(back).toEqual(rows)
  })
})

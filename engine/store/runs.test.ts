import { describe, expect, it } from 'vitest'
import { parseRunConfig } from '../config/load.ts'
import { pairInput } from '../testing/config.ts'
import { createRun, generatorHealth } from './runs.ts'
import { openDb } from '../db/db.ts'
import { readEnvironment } from './environment.ts'
import { thisProcess } from './owner.ts'

describe('generator saturation', () => {
  it('flags a run whose generator was above 90 % CPU in more than 10 % of its seconds', () => {
    const busy = generatorHealth([50, 95, 97, 60, 40, 30, 30, 30, 30, 30])
    expect(busy).toMatchObject({ saturated: true, saturatedSeconds: 2, seconds: 10, peakCpu: 97 })
    expect(busy.message).toMatch(/measure the generator, not the target/)
    const fine = generatorHealth([95, 50, 50, 50, 50, 50, 50, 50, 50, 50])
    expect(fine).toMatchObject({ saturated: false, saturatedSeconds: 1, message: null })
    expect(fine.waitedSeconds).toBeUndefined()
  })

  it('flags a generator that read 10–30 % CPU while it waited for a CPU other processes held', () => {
    // The Tomcat case (docs/http-conformance.md): the load thread ran 15 % and waited 80 % of each
    // second; by its CPU alone it looked idle.
    const cpu = [15, 12, 20, 14, 30, 25, 10, 12, 40, 35]
    const wait = [80, 84, 75, 82, 65, 70, 86, 83, 20, 10]
    expect(generatorHealth(cpu)).toMatchObject({ saturated: false, saturatedSeconds: 0, message: null })
    const starved = generatorHealth(cpu, wait)
    expect(starved).toMatchObject({ saturated: true, saturatedSeconds: 8, waitedSeconds: 8, peakCpu: 40 })
    expect(starved.message).toBe(
      'The load generator was busy or waiting for a CPU in 8 of 10 seconds (waiting, its CPU taken by other processes, in 8): these numbers measure the generator, not the target. Stop what else runs on this machine, or run the generator on one of its own.',
    )
    // A busy second is counted as busy, not as waited.
    expect(generatorHealth([95, 95, 50], [4, 5, 45])).toMatchObject({ saturatedSeconds: 3, waitedSeconds: 1 })
  })
})

describe('database', () => {
  it('is WAL with STRICT tables and recorded migrations', () => {
    const db = openDb(':memory:')
    const tables = db
      .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
      .all() as { name: string; sql: string }[]
    for (const name of ['runs', 'run_targets', 'series', 'samples', 'resource_samples', 'environment']) {
      const t = tables.find((x) => x.name === name)
      expect(t, name).toBeDefined()
      expect(t!.sql).toMatch(/STRICT\s*$/)
    }
    const applied = db.prepare('SELECT name, hash FROM schema_migrations ORDER BY version').all() as {
      name: string
      hash: string
    }[]
    expect(applied[0]!.name).toBe('001_initial.sql')
    expect(applied[0]!.hash).toMatch(/^[0-9a-f]{64}$/)
    expect(() =>
      db
        .prepare(
          "INSERT INTO samples (run_id, seq, target_index, round, phase, start_us, latency_us, status, bytes, error) VALUES (1, 'x', 0, 1, 0, 0, 0, 0, 0, 0)",
        )
        .run(),
    ).toThrow(/cannot store TEXT/)
  })
})

describe('createRun', () => {
  it('writes the run, a run_targets row per segment in run order, and the environment it is handed', () => {
    const db = openDb(':memory:')
    const config = parseRunConfig(pairInput('interleaved', { schedule: 'interleaved', rounds: 2 }))
    // The caller gathered this (docker included) before: the store only writes it.
    const environment = {
      host: 'h',
      cpu: 'c',
      cores: 3,
      os: 'o',
      node: 'n',
      app: 'v',
      details: { targets: [{ name: 'a', image: 'img@sha256:1' }], generatorCpu: 0 },
    }
    const { runId, prefix } = createRun(db, config, ['main'], environment, { owner: thisProcess() })
    expect(prefix).toMatch(/^[0-9a-f]{8}$/)
    const targets = db
      .prepare('SELECT target_index, round, target, url FROM run_targets WHERE run_id = ? ORDER BY rowid')
      .all(runId)
    expect(targets).toEqual([
      { target_index: 0, round: 1, target: 'a', url: 'http://127.0.0.1:1/a' },
      { target_index: 1, round: 1, target: 'b', url: 'http://127.0.0.1:2/b' },
      { target_index: 0, round: 2, target: 'a', url: 'http://127.0.0.1:1/a' },
      { target_index: 1, round: 2, target: 'b', url: 'http://127.0.0.1:2/b' },
    ])
    expect(readEnvironment(db, runId)).toEqual(environment)
    db.close()
  })
})

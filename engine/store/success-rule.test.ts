// What counts as a success (issue 28, Must 2): 200–399 by default, `expect: { status }` on a target
// or a step, and stored runs keep the rule they ran with: migration 019 writes 2xx into the configs
// of runs stored before it and renames their `non2xx` counts to `status`, which every reader reads.
import { copyFileSync, mkdtempSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { RunConfigV1Schema } from '../config/schema.ts'
import { successRule, successTable, successText, statusRange } from '../config/status-rule.ts'
import { migrate, openDb } from '../db/db.ts'
import { HistoryStore } from './history-store.ts'
import { readConfig } from './history-rows.ts'

const MIGRATIONS = join(dirname(fileURLToPath(import.meta.url)), '..', 'db', 'migrations')

const config = (targets: object[]) => ({
  version: 1,
  name: 'n',
  targets,
  load: { connections: 1, duration: 1 },
})

describe('success statuses', () => {
  it('are 200–399 unless a target or step says; codes, ranges and classes', () => {
    const c = RunConfigV1Schema.parse(
      config([
        { name: 'a', url: 'http://127.0.0.1:1/' },
        { name: 'b', url: 'http://127.0.0.1:1/', expect: { status: [200, '300-303', '5xx'] } },
        {
          name: 'c',
          url: 'http://127.0.0.1:1/',
          expect: { status: ['2xx'] },
          steps: [
            { name: 'x', path: '/x' },
            { name: 'y', path: '/y', expect: { status: [404] } },
            { name: 'z', path: '/z', expectStatus: 201 },
          ],
        },
      ]),
    )
    const [a, b, cc] = c.targets
    expect(successText(successRule(a!))).toBe('200–399')
    expect(successText(successRule(b!))).toBe('200, 300–303, 500–599')
    const [x, y, z] = cc!.steps!
    expect(successText(successRule(cc!, x))).toBe('200–299')
    expect(successText(successRule(cc!, y))).toBe('404')
    expect(successText(successRule(cc!, z))).toBe('201')
    const table = successTable(successRule(a!))
    expect([199, 200, 304, 399, 400].map((s) => table[s])).toEqual([0, 1, 1, 1, 0])
  })

  it('refuses what is not a status, naming the field', () => {
    for (const [status, words] of [
      [[99], 'not a status code'],
      [['600-700'], 'goes past'],
      [['399-200'], 'ends before it starts'],
      [['ok'], 'a range'],
      [[], 'at least one'],
    ] as const) {
      const r = RunConfigV1Schema.safeParse(
        config([{ name: 'a', url: 'http://127.0.0.1:1/', expect: { status } }]),
      )
      expect(r.success).toBe(false)
      expect(r.error!.issues[0]!.path.join('.')).toMatch(/^targets\.0\.expect\.status/)
      expect(r.error!.issues[0]!.message).toContain(words)
    }
    expect(statusRange('2XX')).toEqual([200, 299])
    const both = RunConfigV1Schema.safeParse(
      config([
        {
          name: 'a',
          url: 'http://127.0.0.1:1/',
          steps: [{ name: 's', path: '/', expect: { status: [200] }, expectStatus: 200 }],
        },
      ]),
    )
    expect(both.success).toBe(false)
    expect(both.error!.issues[0]!.path.join('.')).toBe('targets.0.steps.0.expectStatus')
  })
})

describe('migration 019: stored runs keep the rule they ran with', () => {
  it('writes 2xx into old configs, keeps a rule a target had, and renames non2xx counts', () => {
    const before = mkdtempSync(join(tmpdir(), 'cannonade-mig-'))
    for (const f of readdirSync(MIGRATIONS).filter((f) => f < '019'))
      copyFileSync(join(MIGRATIONS, f), join(before, f))
    const file = join(before, 'old.db')
    const raw = new Database(file)
    migrate(raw, null, before)
    const old = config([
      { name: 'a', url: 'http://127.0.0.1:1/' },
      { name: 'b', url: 'http://127.0.0.1:1/', expect: { status: [418] } },
    ])
    const block = {
      requests: 10,
      ok: 7,
      errors: { non2xx: 3 },
      statusClasses: { '2xx': 7, '3xx': 3 },
      bytes: 0,
      throughput: 10,
      seconds: 1,
      latency: { count: 10, min: 1, mean: 1, stddev: 0, p50: 1, p90: 1, p95: 1, p99: 1, p999: 1, max: 1 },
    }
    raw
      .prepare(
        `INSERT INTO runs (id, name, status, config, correlation_prefix, started_at) VALUES (1, 'old', 'done', ?, 'abcd', '2026-01-01T00:00:00Z')`,
      )
      .run(JSON.stringify(old))
    raw
      .prepare(
        `INSERT INTO run_targets (run_id, target_index, round, target, url, summary) VALUES (1, 0, 1, 'a', 'http://127.0.0.1:1/', ?)`,
      )
      .run(JSON.stringify({ ...block, target: 'a', round: 1, phases: [{ ...block, phase: 'main' }] }))
    raw.exec(`INSERT INTO series (run_id, target_index, round, t, phase, connections, requests, errors, errors_json, status_json, bytes, mean, p50, p90, p95, p99, p999, max)
      VALUES (1, 0, 1, 0, 0, 1, 10, 3, '{"non2xx":3}', '{}', 0, 1, 1, 1, 1, 1, 1, 1)`)
    raw.close()

    const db = openDb(file)
    const stored = readConfig(db.prepare('SELECT config FROM runs WHERE id = 1').pluck().get() as string)
    expect(stored.config.targets.map((t) => t.expect)).toEqual([{ status: ['2xx'] }, { status: [418] }])
    expect(successText(successRule(stored.config.targets[0]!))).toBe('200–299')
    const run = new HistoryStore(db).getRun(1)
    expect(run.results[0]!.errors).toEqual({ status: 3 })
    expect(run.results[0]!.phases[0]!.errors).toEqual({ status: 3 })
    const text = db.prepare('SELECT errors_json FROM series WHERE run_id = 1').pluck().get()
    expect(text).toBe('{"status":3}')
    db.close()
  })
})

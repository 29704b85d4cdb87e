// The schema is an interface (issue 19, item 2): README.md's example queries, read from the README
// (engine/testing/readme.ts), run against a real run's file with plain SQLite and agree with the
// run's summary and with what the target logged: every slow request's id is one the target
// received, its latency at least the time the target held it; the requests per error kind are the
// summary's; the per-second p99 is the nearest rank of that second's responses.
import Database from 'better-sqlite3'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ledgerDoc } from '../testing/readme.ts'
import { spawnCli } from '../testing/process.ts'
import { startTarget, type CountingTarget } from '../testing/target.ts'

interface TargetJson {
  target: string
  sent: number
  answered: number
  inflight: number
  errors: Record<string, number>
  unexpected?: Record<string, number>
  ok: number
  latency: { max: number }
}

let target: CountingTarget
let runId = 0
let targets: TargetJson[] = []
let db: Database.Database
const { queries } = ledgerDoc()

beforeAll(async () => {
  // Every 5th request is a 503: statuses and error kinds to count; 3 ms answers leave some in flight.
  target = await startTarget({ delayMs: 3, failEvery: { every: 5, status: 503 } })
  const dir = mkdtempSync(join(tmpdir(), 'cannonade-ledger-queries-'))
  const config = join(dir, 'run.yaml')
  writeFileSync(
    config,
    `version: 1\nname: queries\ntargets:\n  - name: a\n    url: ${target.url}/a\n  - name: b\n    url: ${target.url}/b\n` +
      `load:\n  connections: 4\n  duration: 2\ncooldownSeconds: 0\n`,
  )
  const dbPath = join(dir, 'c.db')
  const out = join(dir, 's.json')
  const r = await spawnCli(['run', config, '--db', dbPath, '--json', out]).result
  expect(r.code, r.stderr).toBe(0)
  const summary = JSON.parse(readFileSync(out, 'utf8')) as { runId: number; targets: TargetJson[] }
  runId = summary.runId
  targets = summary.targets
  db = new Database(dbPath, { readonly: true })
}, 60_000)
afterAll(async () => {
  db?.close()
  await target.close()
})

const run = <T>(name: string) => {
  const rows = db.prepare(queries[name]!).all({ run: runId }) as T[]
  console.log(`${name}:\n${rows.map((r) => JSON.stringify(r)).join('\n')}`)
  return rows
}
const byTarget = (name: string) => targets.find((t) => t.target === name)!

describe("README's example queries on a real run", () => {
  it("requests per status and error kind are the summary's, and sum to what was sent", () => {
    const rows = run<{ target: string; status: number; error: string; requests: number }>('status-and-error')
    for (const t of ['a', 'b']) {
      const mine = rows.filter((r) => r.target === t)
      const s = byTarget(t)
      const kind = (k: string) => mine.filter((r) => r.error === k).reduce((n, r) => n + r.requests, 0)
      expect(mine.reduce((n, r) => n + r.requests, 0)).toBe(s.sent)
      expect(kind('inflight')).toBe(s.inflight)
      expect(kind('status')).toBe(s.errors.status)
      expect(kind('status')).toBeGreaterThan(0)
      // Known truth: the target answered 503 and 200 only; the summary's ok are the 200s, its
      // unexpected statuses the 503s, counted by code.
      expect(mine.filter((r) => r.status === 200).reduce((n, r) => n + r.requests, 0)).toBe(s.ok)
      expect(mine.filter((r) => r.status === 503).reduce((n, r) => n + r.requests, 0)).toBe(s.errors.status)
      expect(s.unexpected).toEqual({ 503: s.errors.status })
      for (const k of Object.keys(s.errors)) expect(kind(k), k).toBe(s.errors[k])
    }
  })

  it("the 10 slowest: ids the target received, the slowest being the summary's max", () => {
    const rows = run<{ correlation_id: string; target: string; latency_ms: number }>('slowest')
    expect(rows).toHaveLength(10)
    expect(rows.map((r) => r.latency_ms)).toEqual([...rows.map((r) => r.latency_ms)].sort((x, y) => y - x))
    const held = new Map(target.served.map((s) => [s.id, s.us]))
    for (const r of rows) {
      // Known truth: the target logged the id, and held the request no longer than it took.
      expect(held.has(r.correlation_id), r.correlation_id).toBe(true)
      expect(Math.round(r.latency_ms * 1000)).toBeGreaterThanOrEqual(held.get(r.correlation_id)!)
    }
    const max = Math.max(...targets.map((t) => t.latency.max))
    // The summary's max is its histogram's (3 significant digits).
    expect(Math.abs(rows[0]!.latency_ms * 1000 - max) / max).toBeLessThan(0.001)
  })

  it("per-second p99: each second's nearest rank, over every response of the target", () => {
    const rows = run<{ target: string; second: number; responses: number; p99_ms: number }>('per-second-p99')
    const samples = db
      .prepare('SELECT target_index, start_us, latency_us FROM samples WHERE run_id = ? AND latency_us >= 0')
      .all(runId) as { target_index: number; start_us: number; latency_us: number }[]
    for (const [index, t] of ['a', 'b'].entries()) {
      const mine = rows.filter((r) => r.target === t)
      expect(mine.length).toBeGreaterThanOrEqual(2)
      expect(mine.reduce((n, r) => n + r.responses, 0)).toBe(byTarget(t).answered)
      for (const r of mine) {
        const second = samples
          .filter((s) => s.target_index === index && Math.floor(s.start_us / 1e6) === r.second)
          .map((s) => s.latency_us)
          .sort((x, y) => x - y)
        expect(r.responses).toBe(second.length)
        // The query divides by 1000.0 as JavaScript does (4001 / 1000 is the same double in both):
        // compare ms to ms, since 4.001 * 1000 is 4001.0000000000005.
        expect(r.p99_ms).toBe(second[Math.ceil(0.99 * second.length) - 1]! / 1000)
      }
    }
  })
})

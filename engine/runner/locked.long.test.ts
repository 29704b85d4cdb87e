// Another connection may hold the database's write lock while a run writes its ledger: the app's
// background expander, the rows thread on the generator's idle cycles (run-rows.ts: starved, it
// holds the lock while a block is written), a user's own sqlite3 in a transaction. The runner's
// writer waits for it as long as a minute, not SQLite's usual 5 s: a batch it gave up on would be
// requests lost from the ledger and from every figure. A run during which the test holds the lock
// for 6 s, in its window or across its end, keeps every request the target received, in its
// figures and its ledger, and ends `done`; its resource samples (the generator's, and a monitor's in
// the parent) are all stored, each at its own second, though the lock held them back.
import { afterEach, expect, it } from 'vitest'
import { figuresOf } from '../metrics/figures.ts'
import { openDb } from '../db/db.ts'
import { storedLedger } from '../testing/blocks.ts'
import { runConfig, tempDbPath } from '../testing/run-config.ts'
import { startTarget, type CountingTarget } from '../testing/target.ts'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

let target: CountingTarget | null = null
afterEach(async () => {
  await target?.close()
  target = null
})

it.each([
  ['in the middle of its window', 1000],
  ['across the end of its window', 5000],
])(
  'a run keeps every request while another connection holds the write lock for 6 s %s',
  async (_when, fromMs) => {
    target = await startTarget({ delayMs: 2 })
    const dbPath = tempDbPath()
    let held: Promise<number> = Promise.resolve(0)
    const run = await runConfig(
      {
        version: 1,
        name: 'locked',
        targets: [{ name: 't', url: target.url, monitor: { kind: 'process', pid: process.pid } }],
        load: { connections: 2, duration: 7 },
        cooldownSeconds: 0,
      },
      () => {
        held = (async () => {
          await sleep(fromMs)
          const other = openDb(dbPath, { skipMigrations: true })
          other.prepare('BEGIN IMMEDIATE').run()
          const from = performance.now()
          await sleep(6000)
          other.prepare('COMMIT').run()
          other.close()
          return performance.now() - from
        })()
      },
      {},
      dbPath,
    )
    // The lock was held, for longer than SQLite's usual wait.
    expect(await held).toBeGreaterThan(5900)
    const { summary } = run
    expect(summary.status, String(summary.error)).toBe('done')
    expect(summary.error).toBeNull()
    const f = figuresOf(summary.results[0]!)
    // The target's own count is the truth: every request it received is in the figures and the ledger.
    expect(f.sent).toBe(target.requests)
    expect(storedLedger(dbPath, summary.runId).requests).toBe(f.sent)
    const seconds = openDb(dbPath, { readonly: true })
      .prepare(
        "SELECT DISTINCT CAST(t AS INTEGER) FROM resource_samples WHERE run_id = ? AND source = 'generator' ORDER BY 1",
      )
      .pluck()
      .all(summary.runId)
    // The generator's own sample of every second, those held back by the lock included, each at
    // its own second (not when the lock let it through).
    expect(seconds).toEqual(Array.from({ length: 7 }, (_, i) => i + 1))
    const monitored = openDb(dbPath, { readonly: true })
      .prepare(
        "SELECT DISTINCT CAST(t AS INTEGER) FROM resource_samples WHERE run_id = ? AND source = 'process' AND t >= 0 ORDER BY 1",
      )
      .pluck()
      .all(summary.runId) as number[]
    // The target's monitor (this process) is not silenced by the lock: samples taken while it was
    // held waited and were stored, and it goes on after it (before, the first sample refused for the
    // lock dropped every later one). Which seconds it sampled depends on the host's event loop,
    // which the run's own writes in this process hold while they wait for the lock.
    expect(monitored.length, JSON.stringify(monitored)).toBeGreaterThan(0)
    expect(Math.max(...monitored)).toBeGreaterThanOrEqual(6)
    console.log(
      `locked for 6 s from ${fromMs} ms of a 7 s run: ${f.sent} requests, all in the figures and the ledger`,
    )
  },
)

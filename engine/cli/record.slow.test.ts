// The file is the record (issue 19, item 1): when `cannonade run` returns, whatever ended the run
// (its window, a failed threshold, a Ctrl-C, its runner killed), `samples` holds one row per
// request of the run, in-flight ones included, and no ledger block is left. Checked with plain
// SQL, as a user's own query would, against the run's own figures and against what the target
// received (every correlation id it saw is a row). While a run pinned to a CPU goes on, its stored
// requests already become rows, written by a thread of the command on that CPU's idle cycles
// (runner/run-rows.ts).
import Database from 'better-sqlite3'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ERROR_KINDS } from '../api/types.ts'
import { idleThreads, peek, spawnCli, waitUntil } from '../testing/process.ts'
import { startTarget, type CountingTarget } from '../testing/target.ts'

let target: CountingTarget
let dir: string
beforeAll(async () => {
  // Slow answers keep requests in flight when a window closes: they must be rows too.
  target = await startTarget({ delayMs: 20 })
  dir = mkdtempSync(join(tmpdir(), 'cannonade-record-'))
})
afterAll(() => target.close())

function config(name: string, duration: number, thresholds = ''): string {
  const file = join(dir, `${name}.yaml`)
  writeFileSync(
    file,
    `version: 1\nname: ${name}\ntargets:\n  - name: a\n    url: ${target.url}/a\n  - name: b\n    url: ${target.url}/b\n` +
      `load:\n  connections: 8\n  duration: ${duration}\ncooldownSeconds: 0\n${thresholds}`,
  )
  return file
}

interface Summary {
  runId: number
  status: string
  correlationPrefix: string
  targets: { sent: number; requests: number; inflight: number }[]
}

/** What the file holds, read with plain SQL as a user would. */
function record(dbPath: string, runId: number) {
  const db = new Database(dbPath, { readonly: true })
  try {
    const one = (sql: string) => db.prepare(sql).pluck().get(runId) as number
    return {
      rows: one('SELECT count(*) FROM samples WHERE run_id = ?'),
      distinct: one('SELECT count(DISTINCT seq) FROM samples WHERE run_id = ?'),
      inflight: one(
        `SELECT count(*) FROM samples WHERE run_id = ? AND error = ${ERROR_KINDS.indexOf('inflight')}`,
      ),
      blocks: one('SELECT count(*) FROM sample_blocks WHERE run_id = ?'),
      prefix: db.prepare('SELECT correlation_prefix FROM runs WHERE id = ?').pluck().get(runId) as string,
      seqs: new Set(db.prepare('SELECT seq FROM samples WHERE run_id = ?').pluck().all(runId) as number[]),
    }
  } finally {
    db.close()
  }
}

/** Every id the target received in this run is a row of it. */
function everyIdIsARow(r: ReturnType<typeof record>, ids: string[]): void {
  const mine = ids.filter((id) => id.startsWith(`${r.prefix}-`))
  expect(mine.length).toBeGreaterThan(0)
  const missing = mine.filter((id) => !r.seqs.has(Number(id.slice(r.prefix.length + 1))))
  expect(missing).toEqual([])
}

async function runToEnd(
  name: string,
  args: string[],
  act?: (dbPath: string, cli: ReturnType<typeof spawnCli>) => Promise<void>,
) {
  const dbPath = join(dir, `${name}.db`)
  const out = join(dir, `${name}.json`)
  const before = target.ids.length
  const cli = spawnCli([...args, '--db', dbPath, '--json', out])
  await act?.(dbPath, cli)
  const result = await cli.result
  const summary = JSON.parse(readFileSync(out, 'utf8')) as Summary
  return { result, summary, dbPath, ids: target.ids.slice(before) }
}

describe('cannonade run returns with every request a samples row', () => {
  it('at the end of its window: rows = requests + in flight, one per id the target saw', async () => {
    const { result, summary, dbPath, ids } = await runToEnd('done', ['run', config('done', 2)])
    expect(result.code, result.stderr).toBe(0)
    expect(summary.status).toBe('done')
    const r = record(dbPath, summary.runId)
    const sent = summary.targets.reduce((n, t) => n + t.sent, 0)
    expect(r).toMatchObject({ rows: sent, distinct: sent, blocks: 0 })
    expect(r.inflight).toBe(summary.targets.reduce((n, t) => n + t.inflight, 0))
    everyIdIsARow(r, ids)
  }, 60_000)

  it("while a pinned run goes on, its stored requests become rows on the generator's idle cycles", async () => {
    let seen: { rows: number; threads: { cpus: string }[] } | null = null
    const { result, summary, dbPath, ids } = await runToEnd(
      'during',
      ['run', config('during', 4), '--cpu', '0'],
      async (db, cli) => {
        // Rows of the run while it is still measuring, and the thread that writes them.
        seen = await waitUntil(
          () => {
            const rows =
              peek<{ n: number }>(
                db,
                "SELECT count(*) AS n FROM samples s JOIN runs r ON r.id = s.run_id WHERE r.status = 'running'",
              )?.n ?? 0
            return rows > 0 && { rows, threads: idleThreads(cli.child.pid!) }
          },
          30_000,
          'samples rows of the running run',
        )
      },
    )
    expect(result.code, result.stderr).toBe(0)
    expect(seen!.rows).toBeGreaterThan(0)
    // One thread of the command, at the idle class, on the runner's CPU only.
    expect(seen!.threads.map((t) => t.cpus)).toEqual(['0'])
    const r = record(dbPath, summary.runId)
    const sent = summary.targets.reduce((n, t) => n + t.sent, 0)
    expect(r).toMatchObject({ rows: sent, distinct: sent, blocks: 0 })
    everyIdIsARow(r, ids)
  }, 60_000)

  it('with a failed threshold (exit 1)', async () => {
    const { result, summary, dbPath, ids } = await runToEnd('threshold', [
      'run',
      config('threshold', 2, 'thresholds:\n  - metric: p50\n    max: 1\n'),
    ])
    expect(result.code).toBe(1)
    expect(result.stderr + result.stdout).toMatch(/FAIL|failed/i)
    const r = record(dbPath, summary.runId)
    expect(r).toMatchObject({ rows: summary.targets.reduce((n, t) => n + t.sent, 0), blocks: 0 })
    everyIdIsARow(r, ids)
  }, 60_000)

  it('stopped by Ctrl-C mid-window (aborted, exit 1)', async () => {
    const { result, summary, dbPath, ids } = await runToEnd(
      'stopped',
      ['run', config('stopped', 30)],
      async (db, cli) => {
        await waitUntil(
          () => (peek<{ n: number }>(db, 'SELECT count(*) AS n FROM series')?.n ?? 0) >= 1,
          30_000,
          'a second of load',
        )
        cli.child.kill('SIGINT')
      },
    )
    expect(result.code).toBe(1)
    expect(summary.status).toBe('aborted')
    const r = record(dbPath, summary.runId)
    expect(r).toMatchObject({ rows: summary.targets.reduce((n, t) => n + t.sent, 0), blocks: 0 })
    expect(r.rows).toBeGreaterThan(0)
    everyIdIsARow(r, ids)
  }, 90_000)

  it('its runner killed mid-window (aborted, exit 1): every request it had stored is a row', async () => {
    const { result, summary, dbPath, ids } = await runToEnd(
      'killed',
      ['run', config('killed', 30)],
      async (db) => {
        await waitUntil(
          () => (peek<{ n: number }>(db, 'SELECT count(*) AS n FROM sample_blocks')?.n ?? 0) >= 2,
          30_000,
          'stored blocks',
        )
        const { pid } = await waitUntil(
          () =>
            peek<{ pid: number | null }>(
              db,
              'SELECT worker_pid AS pid FROM runs WHERE worker_pid IS NOT NULL',
            ),
          10_000,
          'the runner pid',
        )
        process.kill(pid!, 'SIGKILL')
      },
    )
    expect(result.code).toBe(1)
    expect(summary.status).toBe('aborted')
    const r = record(dbPath, summary.runId)
    // A killed runner loses the batch in flight: the run's figures are rebuilt from what was stored,
    // and every stored request is a row.
    expect(r).toMatchObject({
      rows: summary.targets.reduce((n, t) => n + t.sent, 0),
      distinct: r.rows,
      blocks: 0,
    })
    expect(r.rows).toBeGreaterThan(0)
    expect(r.rows).toBeLessThanOrEqual(ids.filter((id) => id.startsWith(`${r.prefix}-`)).length)
    expect(result.stderr).not.toMatch(/not yet samples rows/)
  }, 90_000)
})

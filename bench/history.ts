// History benchmark (stored runs: load, compare, export), runnable with `node bench/history.ts`:
// - a stored run with 1 000 000 samples: summary (getRun) + series load, target < 300 ms;
// - comparing 4 such runs (bootstrap CIs and Mann-Whitney for every metric), target < 500 ms;
// - export of a run to a local PostgreSQL (a throwaway cluster, default durability settings),
//   target ≥ 100 000 samples/s.
// Also shown, without a target: samples by correlation id and slowest-first paging.
// Environment: BENCH_SAMPLES (1000000 per run), BENCH_STRICT=1 exits 1 when a target is missed.
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { compareRuns } from '../engine/metrics/compare.ts'
import { exportPg } from '../engine/exports/pg.ts'
import { pgUnavailableReason, startPg } from '../engine/testing/pg.ts'
import { openDb } from '../engine/db/db.ts'
import { insertFixtureRun, type FixtureRun } from '../engine/testing/fixtures.ts'
import { HistoryStore } from '../engine/store/history-store.ts'

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 1_000_000)
const TARGETS = 2
const ROUNDS = 5
const dir = mkdtempSync(join(tmpdir(), 'cannonade-bench-history-'))
const dbPath = join(dir, 'history.db')

interface Figure {
  name: string
  value: number
  unit: string
  target: string
  ok: boolean | null
}
const figures: Figure[] = []

function time<T>(fn: () => T): { ms: number; value: T } {
  const t = performance.now()
  const value = fn()
  return { ms: performance.now() - t, value }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)] ?? 0
}

function log(line: string): void {
  process.stdout.write(`${line}\n`)
}

function seedRuns(): FixtureRun[] {
  const db = openDb(dbPath)
  try {
    const runs: FixtureRun[] = []
    for (let i = 0; i < 4; i++) {
      const t = time(() =>
        insertFixtureRun(db, {
          name: `bench run ${i + 1}`,
          seed: 100 + i,
          rounds: ROUNDS,
          samplesPerRound: Math.round(SAMPLES / TARGETS / ROUNDS),
          startedAt: new Date(Date.UTC(2025, 0, 1 + i)).toISOString(),
          targets: [
            { name: 'java-jetty', throughput: 20_000 },
            { name: 'node-http', throughput: 24_000 + i * 1000, latencyUs: 1800 },
          ],
        }),
      )
      log(
        `seeded run ${t.value.runId}: ${t.value.samples.toLocaleString('en-US')} samples in ${(t.ms / 1000).toFixed(1)} s`,
      )
      runs.push(t.value)
    }
    return runs
  } finally {
    db.close()
  }
}

function measureHistory(runs: FixtureRun[]): void {
  const first = runs[0]
  if (!first) return
  // A fresh connection each time, as the app does after a start; the OS page cache stays warm.
  const loads: number[] = []
  for (let i = 0; i < 5; i++) {
    const db = openDb(dbPath)
    const store = new HistoryStore(db)
    const t = time(() => {
      const run = store.getRun(first.runId)
      const series = store.series(first.runId, { maxPoints: 1000 })
      return run.results.length + series.length
    })
    loads.push(t.ms)
    db.close()
  }
  const load = median(loads)
  figures.push({
    name: 'getRun + series (1M-sample run)',
    value: load,
    unit: 'ms',
    target: '< 300 ms',
    ok: load < 300,
  })

  const db = openDb(dbPath)
  const store = new HistoryStore(db)
  const compares: number[] = []
  for (let i = 0; i < 5; i++)
    compares.push(time(() => compareRuns(store.compareRounds(runs.map((r) => r.runId)))).ms)
  const cmp = median(compares)
  figures.push({
    name: `compare 4 runs (${4 * TARGETS} entries, ${ROUNDS} rounds each)`,
    value: cmp,
    unit: 'ms',
    target: '< 500 ms',
    ok: cmp < 500,
  })

  const byId = median(
    [0, 1, 2].map(
      () => time(() => store.samples(first.runId, { correlationId: `${first.prefix}-0000123456` })).ms,
    ),
  )
  figures.push({ name: 'sample by correlation id', value: byId, unit: 'ms', target: '-', ok: null })
  const slowest = median(
    [0, 1, 2].map(() => time(() => store.samples(first.runId, { order: 'slowest', limit: 100 })).ms),
  )
  figures.push({
    name: 'slowest 100 samples (with total)',
    value: slowest,
    unit: 'ms',
    target: '-',
    ok: null,
  })
  const list = median([0, 1, 2].map(() => time(() => store.listRuns({ search: 'node' })).ms))
  figures.push({ name: 'list runs with search', value: list, unit: 'ms', target: '-', ok: null })
  db.close()
}

async function measureExport(runs: FixtureRun[]): Promise<void> {
  const reason = pgUnavailableReason()
  if (reason) {
    if (process.env.CANNONADE_REQUIRE_DOCKER === '1')
      throw new Error(`PostgreSQL export benchmark required but: ${reason}`)
    log(`skipping the PostgreSQL export: ${reason}`)
    return
  }
  const first = runs[0]
  if (!first) return
  const cluster = await startPg({ durable: true })
  const db = openDb(dbPath)
  try {
    for (const label of ['first export', 'export again (replaces)']) {
      const t = performance.now()
      const res = await exportPg(db, [first.runId], cluster.url)
      const seconds = (performance.now() - t) / 1000
      const rate = first.samples / seconds
      log(`PG ${label}: ${res.rows.toLocaleString('en-US')} rows in ${seconds.toFixed(2)} s`)
      figures.push({
        name: `PG ${label}`,
        value: rate,
        unit: 'samples/s',
        target: '≥ 100 000/s',
        ok: rate >= 100_000,
      })
    }
  } finally {
    db.close()
    await cluster.stop()
  }
}

try {
  log(`history benchmark: 4 runs × ${SAMPLES.toLocaleString('en-US')} samples in ${dbPath}`)
  const runs = seedRuns()
  log(`database size ${(statSync(dbPath).size / 1e6).toFixed(0)} MB`)
  measureHistory(runs)
  await measureExport(runs)
  log('')
  const width = Math.max(...figures.map((f) => f.name.length))
  for (const f of figures) {
    const value = f.unit === 'ms' ? f.value.toFixed(1) : Math.round(f.value).toLocaleString('en-US')
    const verdict = f.ok === null ? '' : f.ok ? 'ok' : 'MISSED'
    log(
      `${f.name.padEnd(width)}  ${value.padStart(10)} ${f.unit.padEnd(9)}  target ${f.target.padEnd(12)} ${verdict}`,
    )
  }
  log(JSON.stringify({ bench: 'history', samples: SAMPLES, figures }))
  if (process.env.BENCH_STRICT === '1' && figures.some((f) => f.ok === false)) process.exitCode = 1
} finally {
  rmSync(dir, { recursive: true, force: true })
}

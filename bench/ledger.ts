// The file is the record (issue 19, item 1), measured: `cannonade run` at full speed against nginx
// (nginx on CPU 1, the command and its runner on CPU 0), and the time from the result the command
// prints at its window's end to its exit, when `samples` holds one row per request. Reported per
// million requests (target ≤ 1 s per million), with the rows checked against the run's requests;
// then what the product's write path costs per row against SQLite's own floor for inserting such
// rows, which no write path can beat, in three table layouts (the schema's, without its index, and
// one B-tree keyed by (run_id, seq)): how much a schema change could take off.
// Runnable alone (`node bench/ledger.ts`) or from `npm run bench` (bench/run.ts).
// Each round runs the command twice, alternated: as it is (rows written during the run, on idle
// cycles: engine/runner/run-rows.ts) and with CANNONADE_RUN_ROWS=0 (rows only after the window), so the
// time saved and what it costs the load are measured side by side.
// Then once more at a fixed rate, about half of full speed (a generator with idle cycles).
// Environment: BENCH_LEDGER_SECONDS (30), BENCH_CONNECTIONS (50), BENCH_LEDGER_ROUNDS (3),
// BENCH_LEDGER_RATE (25,000).
import Database from 'better-sqlite3'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { blockRowWriter } from '../engine/ledger/block-rows.ts'
import { newBlockColumns } from '../engine/ledger/blocks.ts'
import { openDb, type Db } from '../engine/db/db.ts'
import { spawnCli } from '../engine/testing/process.ts'
import { startNginx } from './nginx.ts'

const SECONDS = Number(process.env.BENCH_LEDGER_SECONDS ?? 30)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50)
const ROUNDS = Number(process.env.BENCH_LEDGER_ROUNDS ?? 3)
const RATE = Number(process.env.BENCH_LEDGER_RATE ?? 25_000)
const dir = mkdtempSync(join(tmpdir(), 'cannonade-bench-ledger-'))
const fmt = (n: number) => Math.round(n).toLocaleString('en-US')

interface Summary {
  runId: number
  targets: { sent: number }[]
}

type Mode = 'during' | 'after'
const MODES: Record<Mode, string> = {
  during: 'rows written during the run (default)',
  after: 'rows written after it (CANNONADE_RUN_ROWS=0)',
}

/** One `cannonade run`: its rate and the time from its printed result to its exit, file complete. */
async function oneRun(config: string, mode: Mode, i: number): Promise<{ rate: number; perMillion: number }> {
  const dbPath = join(dir, `ledger-${mode}-${i}.db`)
  const out = join(dir, `summary-${mode}-${i}.json`)
  const started = performance.now()
  const cli = spawnCli(
    ['run', config, '--db', dbPath, '--json', out, '--cpu', '0'],
    mode === 'after' ? { CANNONADE_RUN_ROWS: '0' } : {},
  )
  // The result is the command's first output on stdout (no progress line off a terminal).
  let printed = 0
  cli.child.stdout?.once('data', () => (printed = performance.now()))
  const result = await cli.result
  const exited = performance.now()
  if (result.code !== 0) throw new Error(`cannonade run exited ${result.code}: ${result.stderr}`)
  const summary = JSON.parse(readFileSync(out, 'utf8')) as Summary
  const requests = summary.targets.reduce((n, t) => n + t.sent, 0)
  const db = new Database(dbPath, { readonly: true })
  const rows = db
    .prepare('SELECT count(*) FROM samples WHERE run_id = ?')
    .pluck()
    .get(summary.runId) as number
  const blocks = db.prepare('SELECT count(*) FROM sample_blocks').pluck().get() as number
  db.close()
  if (rows !== requests || blocks !== 0)
    throw new Error(`the file is not complete: ${rows} rows, ${blocks} blocks left, ${requests} requests`)
  const toFile = (exited - printed) / 1000
  const perMillion = (toFile * 1e6) / requests
  // Of that, writing the rows (the command says how long it took); the rest is closing and exiting.
  const writing = /as samples rows in ([\d.]+) s/.exec(result.stderr)?.[1]
  console.log(
    `  ${MODES[mode]}: end of window → complete file ${toFile.toFixed(2)} s for ${fmt(requests)} requests at ${fmt(requests / SECONDS)} req/s ` +
      `(${perMillion.toFixed(2)} s per million; writing rows after the window ${writing ?? '0'} s of it) · ` +
      `command ${((exited - started) / 1000).toFixed(1)} s in all · load average ${loadavg()[0]!.toFixed(1)}`,
  )
  return { rate: requests / SECONDS, perMillion }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!

/** Both ways, alternated, for one load: its medians printed, "full speed" or a fixed rate. */
async function scenario(load: string, what: string, rounds: number): Promise<void> {
  const config = join(dir, `ledger-${what.replace(/\W+/g, '-')}.yaml`)
  writeFileSync(
    config,
    `version: 1\nname: ledger bench\ntargets:\n  - name: nginx\n    url: ${nginx.url}\n` +
      `load:\n  connections: ${CONNECTIONS}\n  duration: ${SECONDS}\n${load}cooldownSeconds: 0\n`,
  )
  console.log(
    `the file is the record: cannonade run ${SECONDS} s ${what} against nginx (CPU 1), runner on CPU 0, ${CONNECTIONS} connections, ${rounds} round${rounds > 1 ? 's' : ''} alternated`,
  )
  const seen: Record<Mode, { rate: number; perMillion: number }[]> = { during: [], after: [] }
  for (let i = 0; i < rounds; i++)
    for (const mode of (i % 2 ? ['after', 'during'] : ['during', 'after']) as Mode[])
      seen[mode].push(await oneRun(config, mode, i))
  const m = (mode: Mode, k: 'rate' | 'perMillion') => median(seen[mode].map((r) => r[k]))
  console.log(
    `end of window → complete file (${what}): ${m('during', 'perMillion').toFixed(2)} s per million requests (median; target ≤ 1) · ` +
      `${m('after', 'perMillion').toFixed(2)} with the rows written only after the window · ` +
      `throughput ${fmt(m('during', 'rate'))} vs ${fmt(m('after', 'rate'))} req/s, ratio ${(m('during', 'rate') / m('after', 'rate')).toFixed(3)} (the rows must not slow the load: ≥ 0.97)`,
  )
}

const nginx = await startNginx(dir, 1)
try {
  await scenario('', 'at full speed', ROUNDS)
  // A generator with idle cycles (the usual case: the server is the bottleneck), at about half
  // of what this machine's full speed was.
  await scenario(`  rate: ${RATE}\n  maxConnections: 200\n`, `at ${fmt(RATE)} req/s`, 1)
} finally {
  nginx.stop()
}

/** The table layouts measured: the product's, without its index, one B-tree keyed by (run_id, seq). */
type Layout = 'schema' | 'no index' | 'one B-tree'
const SAMPLES_ONE_BTREE = `CREATE TABLE samples (run_id INTEGER NOT NULL, seq INTEGER NOT NULL,
  target_index INTEGER NOT NULL, round INTEGER NOT NULL, phase INTEGER NOT NULL, start_us INTEGER NOT NULL,
  latency_us INTEGER NOT NULL, corrected_us INTEGER, status INTEGER NOT NULL, bytes INTEGER NOT NULL,
  error INTEGER NOT NULL, app_us INTEGER, db_us INTEGER, step INTEGER, PRIMARY KEY (run_id, seq)) STRICT, WITHOUT ROWID`

/** A fresh database with the product's schema, its `samples` table laid out as `layout`. */
let made = 0
function layoutDb(name: string, layout: Layout): Db {
  const d = openDb(join(dir, `${name}-${layout.replace(/\W+/g, '-')}-${made++}.db`))
  if (layout === 'no index') d.exec('DROP INDEX samples_run_seq')
  if (layout === 'one B-tree') d.exec(`DROP TABLE samples; ${SAMPLES_ONE_BTREE}`)
  return d
}

/** CPU µs per row of a million rows, for `write` run in one transaction per block of 4,096. */
function perRow(d: Db, write: (block: number) => void): number {
  const n = 1_000_000
  const tx = d.transaction(write)
  const cpu = process.cpuUsage()
  for (let b = 0; b * 4096 < n; b++) tx.immediate(b)
  const used = process.cpuUsage(cpu)
  d.close()
  return (used.user + used.system) / (Math.ceil(n / 4096) * 4096)
}

/**
 * SQLite's own floor for the same rows: rows made inside SQLite (no value bound from JavaScript).
 * No way of handing the rows over can be faster than this.
 */
function sqliteFloor(layout: Layout): number {
  const d = layoutDb('floor', layout)
  const insert = d.prepare(
    `WITH RECURSIVE g(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM g WHERE i < 4095)
     INSERT INTO samples (run_id, target_index, round, seq, start_us, latency_us, corrected_us,
       status, bytes, error, app_us, db_us, phase, step)
     SELECT 1, 0, 1, ? + i, (? + i) * 20, 500 + (i % 1000), NULL, 200, 150, 0, NULL, NULL, 0, NULL FROM g`,
  )
  return perRow(d, (b) => insert.run(b * 4096, b * 4096))
}

/** The product's path (ledger/block-rows.ts): a ledger block's columns bound and inserted. */
function writePath(layout: Layout): number {
  const d = layoutDb('path', layout)
  const rows = blockRowWriter(d)
  const c = newBlockColumns(4096)
  return perRow(d, (b) => {
    for (let i = 0; i < 4096; i++) {
      const seq = b * 4096 + i
      c.seq[i] = seq
      c.startUs[i] = seq * 20 + (seq % 7)
      c.latencyUs[i] = 300 + ((seq * 7919) % 1000)
      c.status[i] = 200
      c.bytes[i] = 150
      c.correctedUs[i] = c.appUs[i] = c.dbUs[i] = -1
    }
    c.count = 4096
    rows.insert(1, 0, 1, c)
  })
}

const LAYOUTS: Layout[] = ['schema', 'no index', 'one B-tree']
// Alternated, twice: the machine is shared.
const cost: Record<string, number[]> = {}
for (let i = 0; i < 2; i++)
  for (const layout of LAYOUTS) {
    ;(cost[`floor ${layout}`] ??= []).push(sqliteFloor(layout))
    ;(cost[`path ${layout}`] ??= []).push(writePath(layout))
  }
const range = (k: string) => {
  const xs = cost[k]!
  return `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}`
}
console.log(
  `CPU per row, a million rows, one transaction per block of 4,096 (µs; 1 s per million needs ≤ 1): ` +
    LAYOUTS.map((l) => `${l}: write path ${range(`path ${l}`)}, SQLite's floor ${range(`floor ${l}`)}`).join(
      ' · ',
    ),
)

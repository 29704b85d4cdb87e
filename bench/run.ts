// `npm run bench`: Cannonade's engine against raw autocannon, measured in one run on one machine.
// - throughput: nginx (`return 200`) pinned to CPU 1; the autocannon CLI and Cannonade (full
//   per-request ledger on) each pinned to CPU 0, same connections and duration, alternated 3 times;
//   medians and the ratio (target ≥ 0.90).
// - ledger write capacity: the writer thread's own path (SQLite insert + histograms) on synthetic
//   rows (target ≥ 200 000 rows/s).
// - memory: the runner process' peak RSS in a short and a long run (target: within 20 MB).
// - end of window → done: how long a run takes to read `done` after its window closed, in the
//   same short and long runs (target < 5 s at any length; its ledger blocks become rows after).
// Figures on a shared machine move by ±30 % between runs: read the ratios, not the absolutes.
// Then bench/client.ts (wrk, the autocannon CLI and Cannonade side by side: CPU per request, conformance
// against servers that close connections, the runner's profile), bench/h2.ts (HTTP/2 beside h2load, TLS HTTP/1.1
// beside wrk), bench/ledger.ts (end of window → a complete `samples` table, per million requests),
// bench/agents.ts (load agents: N against one, merge cost) and bench/history.ts (stored-run load,
// compare and PostgreSQL export figures).
// Environment: BENCH_SECONDS (10), BENCH_CONNECTIONS (50), BENCH_SHORT (30), BENCH_LONG (300),
// BENCH_SKIP_MEMORY=1, BENCH_SKIP_CLIENT=1, BENCH_SKIP_H2=1, BENCH_SKIP_LEDGER=1, BENCH_SKIP_AGENTS=1, BENCH_SKIP_HISTORY=1, BENCH_AGENTS (2).
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import { parseRunConfig } from '../engine/config/load.ts'
import { gatherEnvironment } from '../engine/runner/environment.ts'
import { startRun } from '../engine/runner/supervisor.ts'
import { openDb } from '../engine/db/db.ts'
import { ledgerInfo } from '../engine/store/retention.ts'
import { createRun } from '../engine/store/runs.ts'
import { thisProcess } from '../engine/store/owner.ts'
import { samplesWriter } from '../engine/ledger/samples-writer.ts'
import { newColumns, transferList } from '../engine/ledger/columns.ts'
import type { FromWriter, ToWriter } from '../engine/runner/protocol.ts'
import { startNginx } from './nginx.ts'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50)
const SHORT = Number(process.env.BENCH_SHORT ?? 30)
const LONG = Number(process.env.BENCH_LONG ?? 300)
const ROOT = fileURLToPath(new URL('..', import.meta.url))
const dir = mkdtempSync(join(tmpdir(), 'cannonade-bench-'))

function autocannonCli(url: string): Promise<number> {
  const bin = join(ROOT, 'node_modules', 'autocannon', 'autocannon.js')
  return new Promise((resolve, reject) => {
    execFile(
      'taskset',
      ['-c', '0', process.execPath, bin, '-c', String(CONNECTIONS), '-d', String(SECONDS), '-j', url],
      { maxBuffer: 64 << 20, timeout: (SECONDS + 30) * 1000 },
      (err, stdout) => {
        if (err) return reject(new Error(`autocannon failed: ${err.message}`))
        const r = JSON.parse(stdout) as { requests: { total: number }; duration: number }
        resolve(r.requests.total / r.duration)
      },
    )
  })
}

interface CannonadeResult {
  rps: number
  peakRssMb: number
  rows: number
  /** Seconds from the end of the run's window until it read `done`. */
  toDone: number
  /** Seconds from `done` until its ledger blocks were all rows (in the background). */
  toStored: number
}

async function cannonade(url: string, seconds: number): Promise<CannonadeResult> {
  const dbPath = join(dir, `run-${Date.now()}.db`)
  const db = openDb(dbPath)
  const config = parseRunConfig({
    version: 1,
    name: 'bench',
    targets: [{ name: 'nginx', url }],
    load: { connections: CONNECTIONS, duration: seconds },
    cooldownSeconds: 0,
  })
  let t0Epoch = 0
  const handle = await startRun(db, dbPath, config, { onStarted: (s) => (t0Epoch = s.t0Epoch) }, { cpu: 0 })
  let peak = 0
  const sampler = setInterval(() => {
    try {
      const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${handle.pid}/status`, 'utf8'))
      if (m) peak = Math.max(peak, Number(m[1]) / 1024)
    } catch {
      /* the process ended */
    }
  }, 500)
  const summary = await handle.done
  const doneAt = Date.now()
  clearInterval(sampler)
  await handle.stored
  const storedAt = Date.now()
  const r = summary.results[0]!
  const { rows } = ledgerInfo(db, summary.runId)
  db.close()
  return {
    rps: r.latency.count / r.seconds,
    peakRssMb: peak,
    rows,
    toDone: (doneAt - (t0Epoch + seconds * 1000)) / 1000,
    toStored: (storedAt - doneAt) / 1000,
  }
}

async function ledgerWriteRate(): Promise<{ during: number; expand: number }> {
  const dbPath = join(dir, 'ledger.db')
  const db = openDb(dbPath)
  const config = parseRunConfig({
    version: 1,
    name: 'ledger',
    targets: [{ name: 't', url: 'http://127.0.0.1:1/' }],
    load: { connections: 1, duration: 1 },
  })
  const { runId } = createRun(db, config, ['main'], await gatherEnvironment(config), {
    owner: thisProcess(),
  })
  db.close()
  const writer = new Worker(new URL('../engine/runner/writer.ts', import.meta.url))
  const next = (type: string) =>
    new Promise<FromWriter>((res) => writer.on('message', (m: FromWriter) => m.type === type && res(m)))
  const post = (m: ToWriter, t: ArrayBuffer[] = []) => writer.postMessage(m, t)
  const ready = next('ready')
  post({ type: 'open', dbPath, runId, phases: ['main'], warmup: [false] })
  await ready
  post({ type: 'segment-start', segment: { index: 0, targetIndex: 0, target: 't', round: 1 }, stepNames: [] })
  const batches = 250
  const started = performance.now()
  let seq = 0
  for (let b = 0; b < batches; b++) {
    const c = newColumns()
    for (let i = 0; i < c.seq.length; i++) {
      c.seq[i] = seq++
      c.startUs[i] = seq * 20
      c.latencyUs[i] = 500 + (seq % 1000)
      c.correctedUs[i] = -1
      c.status[i] = 200
      c.bytes[i] = 150
      c.appUs[i] = -1
      c.dbUs[i] = -1
    }
    c.count = c.seq.length
    post({ type: 'batch', segment: 0, columns: c }, transferList(c))
  }
  const closed = next('closed')
  post({ type: 'close' })
  const { rows } = (await closed) as Extract<FromWriter, { type: 'closed' }>
  const during = rows / ((performance.now() - started) / 1000)
  await writer.terminate()
  // After the window: blocks become `samples` rows (between segments, not while measuring).
  const db2 = openDb(dbPath)
  const t = performance.now()
  const expanded = samplesWriter(db2).writeRun(runId)
  const expand = expanded / ((performance.now() - t) / 1000)
  db2.close()
  return { during, expand }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const fmt = (n: number) => Math.round(n).toLocaleString('en-US')

const nginx = await startNginx(dir, 1)
try {
  console.log(
    `target: nginx on CPU 1 · generators on CPU 0 · ${CONNECTIONS} connections · ${SECONDS} s each, alternated 3×`,
  )
  const ac: number[] = []
  const cn: CannonadeResult[] = []
  for (let i = 0; i < 3; i++) {
    ac.push(await autocannonCli(nginx.url))
    cn.push(await cannonade(nginx.url, SECONDS))
    console.log(
      `  round ${i + 1}: autocannon CLI ${fmt(ac.at(-1)!)} req/s · Cannonade ${fmt(cn.at(-1)!.rps)} req/s (${fmt(cn.at(-1)!.rows)} ledger rows)`,
    )
  }
  const a = median(ac)
  const c = median(cn.map((x) => x.rps))
  console.log(
    `throughput: autocannon CLI ${fmt(a)} req/s · Cannonade with full ledger ${fmt(c)} req/s · ratio ${(c / a).toFixed(3)} (target ≥ 0.90)`,
  )
  const w = await ledgerWriteRate()
  console.log(
    `ledger write capacity: ${fmt(w.during)} rows/s during a run (blocks, target ≥ 200 000) · ${fmt(w.expand)} rows/s expanding into samples after it`,
  )
  if (process.env.BENCH_SKIP_MEMORY !== '1') {
    const s = await cannonade(nginx.url, SHORT)
    const l = await cannonade(nginx.url, LONG)
    console.log(
      `memory: runner peak RSS ${s.peakRssMb.toFixed(1)} MB over ${SHORT} s (${fmt(s.rows)} rows) · ${l.peakRssMb.toFixed(1)} MB over ${LONG} s (${fmt(l.rows)} rows) · difference ${(l.peakRssMb - s.peakRssMb).toFixed(1)} MB (target within ±20 MB)`,
    )
    // Issue 12 item 9: the run is `done` at the end of its window; its blocks become rows afterwards.
    for (const [secs, x] of [
      [SHORT, s],
      [LONG, l],
    ] as const)
      console.log(
        `end of window → done: ${x.toDone.toFixed(2)} s after a ${secs} s run of ${fmt(x.rows)} requests (target < 5 s) · its blocks became rows ${x.toStored.toFixed(1)} s later, in the background`,
      )
  }
} finally {
  nginx.stop()
}

// The load client side by side with wrk and the autocannon CLI (bench/client.ts, issue 18 item 5).
if (process.env.BENCH_SKIP_CLIENT !== '1') {
  console.log('')
  const { spawnSync } = await import('node:child_process')
  spawnSync(process.execPath, [fileURLToPath(new URL('./client.ts', import.meta.url))], { stdio: 'inherit' })
}

// The file is the record (bench/ledger.ts): `cannonade run`'s window end to a complete samples table.
// HTTP/2 beside h2load and TLS HTTP/1.1 beside wrk (bench/h2.ts, issue 31 item 6).
if (process.env.BENCH_SKIP_H2 !== '1') {
  const { spawnSync } = await import('node:child_process')
  spawnSync(process.execPath, [fileURLToPath(new URL('./h2.ts', import.meta.url))], { stdio: 'inherit' })
}

if (process.env.BENCH_SKIP_LEDGER !== '1') {
  const { spawnSync } = await import('node:child_process')
  spawnSync(process.execPath, [fileURLToPath(new URL('./ledger.ts', import.meta.url))], { stdio: 'inherit' })
}

// Load agents (bench/agents.ts): N agents against one, and what merging costs.
if (process.env.BENCH_SKIP_AGENTS !== '1') {
  const { spawnSync } = await import('node:child_process')
  spawnSync(process.execPath, [fileURLToPath(new URL('./agents.ts', import.meta.url))], { stdio: 'inherit' })
}

// The history figures (bench/history.ts): load, compare and PostgreSQL export of 1 000 000-sample runs.
if (process.env.BENCH_SKIP_HISTORY !== '1') {
  console.log('\nhistory:')
  const { spawnSync } = await import('node:child_process')
  spawnSync(process.execPath, [fileURLToPath(new URL('./history.ts', import.meta.url))], { stdio: 'inherit' })
}

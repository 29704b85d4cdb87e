// A real Prometheus for tests (Debian's `prometheus` package): started on a loopback port with a
// config this helper writes (a scrape every second), scraping what the test names: Debian's
// `prometheus-node-exporter` started here too, a target stack's /metrics, or an exporter in the
// test's own process whose values the test sets. `range` reads Prometheus' HTTP API directly (not
// through the product's client), so a test can hold the monitor's timeline against it.
// Without the binaries the tests skip with the reason printed; with CANNONADE_REQUIRE_DOCKER=1
// (CI, whose .ci/run installs both packages) they fail instead.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { childEnv } from '../env.ts'
import { freePort } from '../stacks/postgres.ts'
import type { Db } from '../db/db.ts'

const PROMETHEUS = 'prometheus'
const NODE_EXPORTER = 'prometheus-node-exporter'

function onPath(bin: string): boolean {
  return spawnSync(bin, ['--version'], { stdio: 'ignore', timeout: 10_000 }).status === 0
}

/** Why Prometheus tests cannot run here (null when they can). */
export function prometheusUnavailable(): string | null {
  const missing = [PROMETHEUS, NODE_EXPORTER].filter((b) => !onPath(b))
  return missing.length
    ? `${missing.join(' and ')} not found (Debian: apt-get install prometheus prometheus-node-exporter)`
    : null
}

/** Skip (with the reason printed) unless Prometheus is here or required; `reason` fails beforeAll when required. */
export function prometheusGate(what: string): { skip: boolean; reason: string | null } {
  const reason = prometheusUnavailable()
  const required = process.env.CANNONADE_REQUIRE_DOCKER === '1'
  if (reason && !required) console.warn(`skipping ${what}: ${reason}`)
  return { skip: reason !== null && !required, reason }
}

async function until(what: string, ms: number, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + ms
  for (;;) {
    if (await check().catch(() => false)) return
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 5000)
    child.once('exit', () => {
      clearTimeout(kill)
      resolve()
    })
    child.kill('SIGTERM')
  })
}

function spawnLogged(
  bin: string,
  args: string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): { child: ChildProcess; log: () => string } {
  const child = spawn(bin, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] })
  let log = ''
  const keep = (d: Buffer) => (log = (log + d.toString()).slice(-4000))
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)
  return { child, log: () => log }
}

export interface Exporter {
  /** host:port, for a scrape config. */
  address: string
  scrapes: number
  stop(): Promise<void>
}

/** Debian's node_exporter on a loopback port: the CPU and memory collectors only. */
export async function startNodeExporter(): Promise<Exporter> {
  const port = await freePort()
  const address = `127.0.0.1:${port}`
  const { child, log } = spawnLogged(NODE_EXPORTER, [
    `--web.listen-address=${address}`,
    '--collector.disable-defaults',
    '--collector.cpu',
    '--collector.meminfo',
  ])
  await until(`node_exporter at ${address} (${log()})`, 20_000, async () => {
    const res = await fetch(`http://${address}/metrics`)
    return res.ok
  })
  return { address, scrapes: 0, stop: () => stopChild(child) }
}

/** An exporter in this process: each scrape serves what `render` returns now (text format 0.0.4). */
export async function startExporter(render: () => string): Promise<Exporter> {
  const exporter: Exporter = { address: '', scrapes: 0, stop: async () => {} }
  const server = createServer((req, res) => {
    exporter.scrapes++
    res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' })
    res.end(render())
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  exporter.address = `127.0.0.1:${(server.address() as AddressInfo).port}`
  exporter.stop = () => {
    server.closeAllConnections()
    return new Promise<void>((r) => server.close(() => r()))
  }
  return exporter
}

const NODE_APP = fileURLToPath(new URL('../../targets/_node/', import.meta.url))

/**
 * The node-http target stack as a local process with no database: its /metrics and its CPU-bound
 * /compute need none (the pool connects on a first query only).
 */
export async function startNodeHttp(): Promise<Exporter & { port: number; pid: number }> {
  const port = await freePort()
  const { child, log } = spawnLogged(process.execPath, ['server.ts'], {
    cwd: NODE_APP,
    env: {
      ...childEnv(),
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: 'postgres://none@127.0.0.1:1/none',
    },
  })
  const address = `127.0.0.1:${port}`
  try {
    await until(
      `node-http at ${address} (${log()})`,
      30_000,
      async () => (await fetch(`http://${address}/metrics`)).ok,
    )
  } catch (error) {
    await stopChild(child)
    throw error
  }
  return { address, port, pid: child.pid!, scrapes: 0, stop: () => stopChild(child) }
}

/** A JVM as client_java (`client`) or Micrometer (`micrometer`) exposes it; the figures the test sets. */
export const JVM = { heap: 123_456_789, threads: 42, cpuCores: 0.25, gcShare: 0.02, rss: 200 * 2 ** 20 }
/**
 * Its exposition now. The counters grow at the set pace and carry the time they were read at (the
 * format's optional timestamp), so a rate over them is that pace whenever the scrape happened to
 * run on a busy machine.
 */
export function jvmText(style: 'client' | 'micrometer', since: number): string {
  const now = Date.now()
  const s = (now - since) / 1000
  const common = [
    `process_cpu_seconds_total ${JVM.cpuCores * s} ${now}`,
    `process_resident_memory_bytes ${JVM.rss}`,
  ]
  const own =
    style === 'client'
      ? [
          `# TYPE jvm_memory_used_bytes gauge`,
          `jvm_memory_used_bytes{area="heap"} ${JVM.heap}`,
          `jvm_memory_used_bytes{area="nonheap"} 5000000`,
          `# TYPE jvm_threads_current gauge`,
          `jvm_threads_current ${JVM.threads}`,
          `# TYPE jvm_gc_collection_seconds summary`,
          `jvm_gc_collection_seconds_sum{gc="G1 Young Generation"} ${JVM.gcShare * s} ${now}`,
          `jvm_gc_collection_seconds_count{gc="G1 Young Generation"} ${Math.floor(s)}`,
        ]
      : [
          // Micrometer: heap per pool (summed by the preset), live threads, GC pauses as a timer.
          `# TYPE jvm_memory_used_bytes gauge`,
          `jvm_memory_used_bytes{area="heap",id="G1 Eden Space"} ${JVM.heap - 23_456_789}`,
          `jvm_memory_used_bytes{area="heap",id="G1 Old Gen"} 23456789`,
          `# TYPE jvm_threads_live_threads gauge`,
          `jvm_threads_live_threads ${JVM.threads}`,
          `# TYPE jvm_gc_pause_seconds summary`,
          `jvm_gc_pause_seconds_sum{action="end of minor GC",cause="G1 Evacuation Pause"} ${JVM.gcShare * s} ${now}`,
          `jvm_gc_pause_seconds_count{action="end of minor GC",cause="G1 Evacuation Pause"} ${Math.floor(s)}`,
        ]
  return (
    [
      '# TYPE process_cpu_seconds_total counter',
      '# TYPE process_resident_memory_bytes gauge',
      ...common,
      ...own,
    ].join('\n') + '\n'
  )
}

export interface ScrapeTarget {
  job: string
  /** host:port */
  address: string
  /** Default /metrics. */
  path?: string
}

export interface LocalPrometheus {
  url: string
  /** Prometheus' own answer to a range query: series by their labels, points [epoch s, value]. */
  range(
    query: string,
    start: number,
    end: number,
    step: number,
  ): Promise<{ labels: Record<string, string>; points: [number, number][] }[]>
  /** Waits until every target has been scraped `n` more times (Prometheus' own count). */
  scraped(n: number): Promise<void>
  stop(): Promise<void>
}

/** Prometheus on a loopback port scraping `targets` every second, with a throwaway data folder. */
export async function startPrometheus(targets: ScrapeTarget[]): Promise<LocalPrometheus> {
  const dir = mkdtempSync(join(tmpdir(), 'cannonade-prometheus-'))
  const jobs = targets.map(
    (t) => `  - job_name: ${JSON.stringify(t.job)}
    metrics_path: ${JSON.stringify(t.path ?? '/metrics')}
    static_configs:
      - targets: [${JSON.stringify(t.address)}]`,
  )
  writeFileSync(
    join(dir, 'prometheus.yml'),
    `global:\n  scrape_interval: 1s\n  scrape_timeout: 900ms\nscrape_configs:\n${jobs.join('\n')}\n`,
  )
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const { child, log } = spawnLogged(PROMETHEUS, [
    `--config.file=${join(dir, 'prometheus.yml')}`,
    `--storage.tsdb.path=${join(dir, 'data')}`,
    `--web.listen-address=127.0.0.1:${port}`,
    '--log.level=warn',
  ])
  const stop = async () => {
    await stopChild(child)
    rmSync(dir, { recursive: true, force: true })
  }
  const api = async (path: string, params: Record<string, string> = {}) => {
    const res = await fetch(`${url}${path}?${new URLSearchParams(params).toString()}`)
    const json = (await res.json()) as { status: string; data: unknown; error?: string }
    if (json.status !== 'success') throw new Error(`${path}: ${json.error ?? res.status}`)
    return json.data
  }
  type Target = { health: string; lastScrape: string }
  const scrapeTimes = async () =>
    ((await api('/api/v1/targets')) as { activeTargets: Target[] }).activeTargets.map((t) => ({
      up: t.health === 'up',
      at: Date.parse(t.lastScrape),
    }))
  try {
    await until(
      `Prometheus at ${url} to be ready (${log()})`,
      60_000,
      async () => (await fetch(`${url}/-/ready`)).ok,
    )
    await until(
      `Prometheus to scrape ${targets.map((t) => t.address).join(', ')} (${log()})`,
      30_000,
      async () => {
        const all = await scrapeTimes()
        return all.length === targets.length && all.every((t) => t.up)
      },
    )
  } catch (error) {
    await stop()
    throw error
  }
  return {
    url,
    async range(query, start, end, step) {
      const data = (await api('/api/v1/query_range', {
        query,
        start: String(start),
        end: String(end),
        step: String(step),
      })) as { result: { metric: Record<string, string>; values: [number, string][] }[] }
      return data.result.map((r) => ({ labels: r.metric, points: r.values.map(([t, v]) => [t, Number(v)]) }))
    },
    async scraped(n) {
      const from = await scrapeTimes()
      let seen = 0
      let last = from.map((t) => t.at)
      await until(`${n} more scrapes`, 30_000 + n * 2000, async () => {
        const now = (await scrapeTimes()).map((t) => t.at)
        if (now.every((t, i) => t > (last[i] ?? 0))) {
          seen++
          last = now
        }
        return seen >= n
      })
    },
    stop,
  }
}

/** A target's rows of resource_samples, as the evidence runs read them. */
export interface ResourceRow {
  t: number
  source: string
  instance: string
  cpu_percent: number | null
  memory_bytes: number | null
  metric: string | null
  value: number | null
}

/** A run's resource rows for one target, in time order. */
export function resourceRowsOf(db: Db, runId: number, target: string): ResourceRow[] {
  return db
    .prepare(
      'SELECT t, source, instance, cpu_percent, memory_bytes, metric, value FROM resource_samples WHERE run_id = ? AND target = ? ORDER BY t',
    )
    .all(runId, target) as ResourceRow[]
}

/**
 * The prometheus monitors of a run that holds Prometheus against another CPU source: the nodejs
 * preset (what the charts show), and the process' CPU counter with the time of the scrape that
 * read it (named series), so the CPU seconds between two scrapes are exact.
 */
export function cpuEvidenceMonitors(
  url: string,
  job: string,
  windowSeconds: number,
): Record<string, unknown>[] {
  const selector = `process_cpu_seconds_total{job="${job}"}`
  return [
    { kind: 'prometheus', url, preset: 'nodejs', labels: { job }, rateWindow: `${windowSeconds}s` },
    { kind: 'prometheus', url, query: selector, name: 'cpu_seconds_total' },
    { kind: 'prometheus', url, query: `timestamp(${selector})`, name: 'scraped_at_seconds' },
  ]
}

export interface CpuComparison {
  /** The stretch of the run compared: between two scrapes, run seconds. */
  from: number
  to: number
  /** CPU seconds in it by the other source and by Prometheus' counter. */
  other: number
  prometheus: number
  /** Per-second means from `window` + 1 s on: the other source's and the nodejs preset's CPU %. */
  otherMean: number
  presetMean: number
  text: string
}

/**
 * CPU seconds over one stretch of a loaded run (from the first scrape after 1 s to the last before
 * the end), by Prometheus (the counter at those two scrapes) and by `source` (each sample's CPU
 * over its own interval, the share of it inside the stretch).
 */
export function compareCpuSeconds(
  rows: readonly ResourceRow[],
  o: { source: string; t0Epoch: number; seconds: number; window: number },
): CpuComparison {
  const named = (metric: string) =>
    rows.filter((r) => r.metric === metric && r.t > 1 && r.t <= o.seconds - 0.5)
  const counter = named('cpu_seconds_total')
  const scraped = named('scraped_at_seconds')
  const runTime = (r: ResourceRow) => scraped.find((x) => x.t === r.t)!.value! - o.t0Epoch / 1000
  const [first, last] = [counter[0]!, counter.at(-1)!]
  const [from, to] = [runTime(first), runTime(last)]
  const prometheus = last.value! - first.value!
  const other = rows.filter((r) => r.source === o.source && r.metric === null)
  let seconds = 0
  other.forEach((r, i) => {
    const since = i === 0 ? -Infinity : other[i - 1]!.t
    seconds += ((r.cpu_percent ?? 0) / 100) * Math.max(0, Math.min(r.t, to) - Math.max(since, from))
  })
  const loaded = (r: ResourceRow) => r.t >= o.window + 1 && r.t <= o.seconds - 0.5 && r.cpu_percent !== null
  const mean = (xs: ResourceRow[]) => {
    const inside = xs.filter(loaded)
    return inside.reduce((acc, r) => acc + r.cpu_percent!, 0) / inside.length
  }
  const otherMean = mean(other)
  const presetMean = mean(rows.filter((r) => r.source === 'prometheus' && r.metric === null))
  const pct = (x: number) => `${((x / (to - from)) * 100).toFixed(1)} % of a core`
  const text =
    `run seconds ${from.toFixed(2)}–${to.toFixed(2)}: ${o.source} monitor ${seconds.toFixed(3)} CPU s (${pct(seconds)}), ` +
    `Prometheus ${prometheus.toFixed(3)} CPU s (${pct(prometheus)}), difference ${(((prometheus - seconds) / seconds) * 100).toFixed(1)} %; ` +
    `per-second means from ${o.window + 1} s: ${o.source} ${otherMean.toFixed(1)} %, nodejs preset ${presetMean.toFixed(1)} %`
  return { from, to, other: seconds, prometheus, otherMean, presetMean, text }
}

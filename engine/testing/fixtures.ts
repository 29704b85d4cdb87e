// Synthetic runs for tests and benchmarks: inserts a realistic run straight into the history
// tables (as the runner would), with samples, per-second series, exact per-(target, round)
// summaries, HDR histograms, resources, environment and threshold results that all agree with
// each other. Deterministic: the same options give the same rows.
import * as hdr from 'hdr-histogram-js'
import { compilePlan } from '../config/compile.ts'
import { parseRunConfig } from '../config/load.ts'
import type { Threshold } from '../config/schema.ts'
import type { RunStatus, StatsBlock, ThresholdResult } from '../api/types.ts'
import type { Db } from '../db/db.ts'
import { Block, gauss, KIND, prng } from './fixture-stats.ts'

export { latencyStats } from './fixture-stats.ts'

export interface FixtureTarget {
  name: string
  url?: string
  /** Median latency in µs (default 2 000). */
  latencyUs?: number
  /** Requests per second (default 5 000). */
  throughput?: number
  /** Fraction of requests that fail (default 0.002). */
  errorRate?: number
  /** Processes its monitor sees ("pid 4242", "pid 4243", …; default 1), each sampled once a second. */
  instances?: number
}

export interface FixtureOptions {
  name?: string
  status?: RunStatus
  targets?: FixtureTarget[]
  rounds?: number
  /** Samples per target and round (default 1 000). */
  samplesPerRound?: number
  /** Relative standard deviation of throughput and latency between rounds (default 0.03). */
  roundNoise?: number
  seed?: number
  tags?: string[]
  note?: string
  startedAt?: string
  prefix?: string
  thresholds?: Threshold[]
  /** The order its config states (default sequential, as runs stored before randomized existed). */
  schedule?: 'sequential' | 'interleaved' | 'randomized'
}

export interface FixtureRun {
  runId: number
  prefix: string
  samples: number
}

const THRESHOLD_VALUE: Record<Threshold['metric'], (s: StatsBlock) => number> = {
  mean: (s) => s.latency.mean,
  p50: (s) => s.latency.p50,
  p90: (s) => s.latency.p90,
  p95: (s) => s.latency.p95,
  p99: (s) => s.latency.p99,
  'p99.9': (s) => s.latency.p999,
  max: (s) => s.latency.max,
  throughput: (s) => s.throughput,
  errorRate: (s) => (s.requests === 0 ? 0 : (s.requests - s.ok) / s.requests),
}

export function insertFixtureRun(db: Db, opts: FixtureOptions = {}): FixtureRun {
  const rand = prng(opts.seed ?? 1)
  const targets = opts.targets ?? [
    { name: 'java-jetty' },
    { name: 'node-http', latencyUs: 2400, throughput: 4200 },
  ]
  const rounds = opts.rounds ?? 1
  const perRound = opts.samplesPerRound ?? 1000
  const noise = opts.roundNoise ?? 0.03
  const prefix =
    opts.prefix ??
    Math.floor(rand() * 2 ** 32)
      .toString(16)
      .padStart(8, '0')
  const started = opts.startedAt ?? '2025-01-01T12:00:00.000Z'
  const seconds = Math.max(1, Math.ceil(perRound / Math.min(...targets.map((t) => t.throughput ?? 5000))))
  const config = parseRunConfig({
    version: 1,
    name: opts.name ?? 'fixture run',
    targets: targets.map((t, i) => ({ name: t.name, url: t.url ?? `http://127.0.0.1:${8081 + i}/ads` })),
    load: { connections: 16, duration: seconds },
    rounds,
    schedule: opts.schedule ?? 'sequential',
    cooldownSeconds: 1,
    thresholds: opts.thresholds ?? [],
    tags: opts.tags ?? [],
  })
  const results: ThresholdResult[] = []
  let seq = 0
  const run = db.transaction((): number => {
    const runId = Number(
      db
        .prepare(
          `INSERT INTO runs (name, status, config, correlation_prefix, started_at, ended_at, tags, note, generator)
           VALUES (?, ?, ?, ?, ?, NULL, ?, ?, ?)`,
        )
        .run(
          config.name,
          opts.status ?? 'done',
          JSON.stringify({ ...config, phases: compilePlan(config.load).phases }),
          prefix,
          started,
          JSON.stringify(config.tags),
          opts.note ?? '',
          JSON.stringify({ saturatedSeconds: 0, seconds: 0, saturated: false, peakCpu: 0.5, message: null }),
        ).lastInsertRowid,
    )
    const insTarget = db.prepare(
      'INSERT INTO run_targets (run_id, target_index, round, target, url, summary, histogram) VALUES (?, ?, ?, ?, ?, ?, ?)',
    )
    const insSeries = db.prepare(
      `INSERT INTO series (run_id, target_index, round, t, phase, connections, requests, errors, errors_json, status_json,
         bytes, mean, p50, p90, p95, p99, p999, max, generator_cpu) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
    )
    const insSample = db.prepare(
      `INSERT INTO samples (run_id, seq, target_index, round, phase, start_us, latency_us, corrected_us, status, bytes,
         error, app_us, db_us) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)`,
    )
    const insResource = db.prepare(
      `INSERT INTO resource_samples (run_id, t, target, source, instance, cpu_percent, memory_bytes, memory_limit,
         cpu_limit, state) VALUES (?,?,?,?,?,?,?,?,?,?)`,
    )
    let offsetUs = 0
    // Thresholds are judged per target over all its rounds, as the runner does (metrics/thresholds.ts).
    const perTarget = targets.map(() => new Block())
    const throughputs = targets.map((): number[] => [])
    for (let round = 1; round <= rounds; round++) {
      for (const [index, target] of targets.entries()) {
        const thr = (target.throughput ?? 5000) * Math.max(0.2, 1 + noise * gauss(rand))
        const median = (target.latencyUs ?? 2000) * Math.max(0.2, 1 + noise * gauss(rand))
        const errorRate = target.errorRate ?? 0.002
        const whole = new Block()
        const histogram = hdr.build({
          bitBucketSize: 32,
          numberOfSignificantValueDigits: 3,
          useWebAssembly: false,
        })
        let second = new Block()
        let secondT = Math.floor(offsetUs / 1e6)
        const flush = (): void => {
          const s = second.stats(1)
          const status = JSON.stringify(
            Object.fromEntries(Object.entries(s.statusClasses).filter(([, n]) => n > 0)),
          )
          insSeries.run(
            runId,
            index,
            round,
            secondT,
            0,
            16,
            s.requests,
            s.requests - s.ok,
            JSON.stringify(s.errors),
            status,
            s.bytes,
            s.latency.mean,
            s.latency.p50,
            s.latency.p90,
            s.latency.p95,
            s.latency.p99,
            s.latency.p999,
            s.latency.max,
            0.4 + rand() * 0.2,
          )
          second = new Block()
        }
        for (let i = 0; i < perRound; i++) {
          const start = Math.round(offsetUs + (i * 1e6) / thr)
          if (Math.floor(start / 1e6) !== secondT) {
            flush()
            secondT = Math.floor(start / 1e6)
          }
          const tail = rand() < 0.01 ? 4 : 1
          let latency = Math.max(1, Math.round(median * tail * Math.exp(0.35 * gauss(rand))))
          let status = 200
          let error = KIND.none
          let bytes = 512
          if (rand() < errorRate) {
            const r = rand()
            if (r < 0.5) [error, status, bytes] = [KIND.status, 500, 64]
            else [error, status, bytes, latency] = [r < 0.8 ? KIND.timeout : KIND.reset, 0, 0, -1]
          }
          const app = latency >= 0 ? Math.round(latency * 0.6) : null
          insSample.run(
            runId,
            seq++,
            index,
            round,
            0,
            start,
            latency,
            null,
            status,
            bytes,
            error,
            app,
            app === null ? null : Math.round(latency * 0.3),
          )
          second.add(latency, status, bytes, error)
          whole.add(latency, status, bytes, error)
          perTarget[index]?.add(latency, status, bytes, error)
          if (latency >= 0) histogram.recordValue(latency)
        }
        flush()
        const segmentSeconds = perRound / thr
        const stats = whole.stats(segmentSeconds)
        const summary = { ...stats, phases: [{ ...stats, phase: 'main' }] }
        insTarget.run(
          runId,
          index,
          round,
          target.name,
          config.targets[index]?.url ?? '',
          JSON.stringify(summary),
          hdr.encodeIntoCompressedBase64(histogram),
        )
        histogram.destroy()
        for (let t = 0; t < Math.ceil(segmentSeconds); t++) {
          for (let i = 0; i < (target.instances ?? 1); i++)
            insResource.run(
              runId,
              // Read at the end of the second it covers (engine/metrics/resource-summary.ts sampleSecond).
              offsetUs / 1e6 + t + 1,
              target.name,
              'process',
              `pid ${4242 + i}`,
              60 + rand() * 30,
              Math.round(200e6 + rand() * 20e6),
              null,
              null,
              'running',
            )
        }
        throughputs[index]?.push(stats.throughput)
        offsetUs += Math.ceil(segmentSeconds + config.cooldownSeconds) * 1e6
      }
    }
    for (const [index, target] of targets.entries()) {
      const all = perTarget[index]?.stats(1)
      const thr = throughputs[index] ?? []
      if (!all) continue
      all.throughput = thr.reduce((a, b) => a + b, 0) / Math.max(1, thr.length)
      for (const th of config.thresholds.filter((x) => x.target === '*' || x.target === target.name)) {
        const actual = THRESHOLD_VALUE[th.metric](all)
        const passed =
          (th.max === undefined || actual <= th.max) && (th.min === undefined || actual >= th.min)
        results.push({ metric: th.metric, target: target.name, max: th.max, min: th.min, actual, passed })
      }
    }
    const ended = new Date(Date.parse(started) + offsetUs / 1000).toISOString()
    db.prepare('UPDATE runs SET ended_at = ?, thresholds = ? WHERE id = ?').run(
      opts.status === 'running' ? null : ended,
      JSON.stringify(results),
      runId,
    )
    db.prepare(
      'INSERT INTO environment (run_id, host, cpu, cores, os, node, app, details) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    ).run(runId, 'fixture-host', 'Fixture CPU @ 2.0GHz', 2, 'linux 6.1', process.version, '0.1.0', '{}')
    return runId
  })()
  return { runId: run, prefix, samples: seq }
}

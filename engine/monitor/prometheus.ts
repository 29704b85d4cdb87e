import { errorReporter, startLoop, type Loop } from './loop.ts'
import { PrometheusApi, type RangeSeries } from './prometheus-api.ts'
import { instanceOf, presetPlan, type Column, type PromPlan, type PromSeries } from './prometheus-presets.ts'
import type { PrometheusMonitorSpec } from '../config/schema-monitor.ts'
import { MonitorError, toMonitorError } from './types.ts'
import type { ErrorHandler, Monitor, ResourceSample, SampleHandler } from './types.ts'

/**
 * How long after a moment its points are read. Prometheus appends a scrape's samples when the
 * scrape completes, stamped with its start: a point read at once could still change when a scrape
 * that began before it lands. A local exporter answers in milliseconds; one second covers it.
 */
export const SETTLE_MS = 1000
/** Prometheus refuses a range query of more than 11 000 points: a monitor that fell behind skips the gap. */
const MAX_POINTS = 10_000
const FINAL_TIMEOUT_MS = 5000

type Row = Partial<Record<Column, number | null>> & { metrics: Map<string, number | null> }
type Fetched = { at: Map<number, Map<string, Row>>; empty: PromSeries[] }

/**
 * Series of a Prometheus server on the run's timeline: range queries (query_range) at the
 * monitor's interval as step, on a grid of whole steps, each point read once it has settled
 * (SETTLE_MS) and stamped with its own time, so what the run keeps is what Prometheus answers for
 * those moments. A preset's CPU and memory fill the sample's columns (charts, studies and exports
 * use them as any source's); its other series and a query's are named series (`metric`, `value`).
 */
export class PrometheusMonitor implements Monitor {
  readonly #spec: PrometheusMonitorSpec
  readonly #target: string
  readonly #stepMs: number
  readonly #secrets: Readonly<Record<string, string>>
  readonly #secretsDir: string | undefined
  readonly #plan: PromPlan
  #api: PrometheusApi | undefined
  #loop: Loop | undefined
  /** The last grid point read (epoch ms). */
  #last: number | null = null
  #onSample: SampleHandler = () => {}

  constructor(
    spec: PrometheusMonitorSpec,
    target: string,
    intervalMs = 1000,
    secrets: Readonly<Record<string, string>> = {},
    /** Where a tokenFile may be (the user's secrets folder, ../config/files.ts). */
    secretsDir?: string,
  ) {
    this.#spec = spec
    this.#secretsDir = secretsDir
    this.#target = target
    // Prometheus' resolution is the millisecond.
    this.#stepMs = Math.max(1, Math.round(intervalMs))
    this.#secrets = secrets
    this.#plan = presetPlan(spec)
  }

  #what(api: PrometheusApi): string {
    const asked =
      this.#spec.preset !== undefined ? `preset ${this.#spec.preset}` : `query ${this.#spec.query}`
    return `prometheus monitor (${api.where}, ${asked})`
  }

  /** The last whole step that has settled at `nowMs`. */
  #settled(nowMs: number): number {
    return Math.floor((nowMs - SETTLE_MS) / this.#stepMs) * this.#stepMs
  }

  async start(onSample: SampleHandler, onError: ErrorHandler): Promise<void> {
    if (this.#loop) throw new MonitorError('config', 'prometheus monitor already started')
    const api = new PrometheusApi(this.#spec, this.#secrets, this.#secretsDir)
    this.#api = api
    this.#onSample = onSample
    const end = this.#settled(Date.now())
    const first = await this.#fetch(api, end, end)
    if (first.at.size === 0)
      throw new MonitorError(
        'not-found',
        `${this.#what(api)}: no series${this.#requireWords()}: check the ${this.#spec.preset !== undefined ? 'preset fits the exporter and the labels' : 'query and the labels'} (Prometheus has nothing for them now)`,
      )
    this.#emit(first)
    this.#last = end
    // Limits may rightly be absent (none set); a missing CPU, memory or named series is worth saying.
    const missing = first.empty.filter(
      (s) => typeof s.into === 'object' || s.into === 'cpuPercent' || s.into === 'memoryBytes',
    )
    if (missing.length)
      onError(
        new MonitorError(
          'not-found',
          `${this.#what(api)}: nothing for ${missing.map((s) => (typeof s.into === 'object' ? s.into.metric : s.into)).join(', ')} (${missing.map((s) => s.query).join('; ')})`,
        ),
      )
    const errors = errorReporter(onError)
    this.#loop = startLoop(
      this.#stepMs,
      async () => {
        await this.#tick(api)
        errors.ok()
      },
      (error) => errors.report(toMonitorError(error, 'unreachable', this.#what(api))),
    )
  }

  #requireWords(): string {
    const labels = Object.entries(this.#spec.labels ?? {})
    return labels.length ? ` with ${labels.map(([k, v]) => `${k}="${v}"`).join(', ')}` : ''
  }

  async #tick(api: PrometheusApi): Promise<void> {
    const end = this.#settled(Date.now())
    if (this.#last === null || end <= this.#last) return
    const start = Math.max(this.#last + this.#stepMs, end - (MAX_POINTS - 1) * this.#stepMs)
    this.#emit(await this.#fetch(api, start, end))
    // Only once read: a failed tick leaves its range to the next one.
    this.#last = end
  }

  async #fetch(api: PrometheusApi, startMs: number, endMs: number, timeoutMs?: number): Promise<Fetched> {
    const range = { start: startMs / 1000, end: endMs / 1000, step: this.#stepMs / 1000 }
    const answers = await Promise.all(
      this.#plan.series.map((s) => api.range({ ...range, query: s.query }, timeoutMs)),
    )
    const at = new Map<number, Map<string, Row>>()
    const empty: PromSeries[] = []
    answers.forEach((result, i) => {
      const series = this.#plan.series[i]!
      const kept = result.filter((r) => this.#joined(r))
      if (kept.length === 0) empty.push(series)
      for (const r of kept) this.#place(at, series, r)
    })
    return { at, empty }
  }

  /** A query's series belongs to the target when it carries every label the spec names. */
  #joined(r: RangeSeries): boolean {
    return Object.entries(this.#plan.require).every(([k, v]) => r.labels[k] === v)
  }

  #place(at: Map<number, Map<string, Row>>, series: PromSeries, r: RangeSeries): void {
    const instance = instanceOf(r.labels, this.#plan.by, this.#spec.preset ?? this.#spec.name ?? 'value')
    for (const [seconds, raw] of r.points) {
      const t = Math.round(seconds * 1000)
      const rows = at.get(t) ?? new Map<string, Row>()
      at.set(t, rows)
      const row: Row = rows.get(instance) ?? { metrics: new Map<string, number | null>() }
      rows.set(instance, row)
      // NaN (0/0) or ±Inf is no reading.
      const value = Number.isFinite(raw) ? raw : null
      if (typeof series.into === 'object') row.metrics.set(series.into.metric, value)
      else row[series.into] = value
    }
  }

  /** Samples in time order; all of one moment's instances together. */
  #emit(fetched: Fetched): void {
    for (const t of [...fetched.at.keys()].sort((a, b) => a - b)) {
      const rows = fetched.at.get(t)!
      for (const instance of [...rows.keys()].sort()) {
        const row = rows.get(instance)!
        const base = {
          t,
          source: 'prometheus' as const,
          target: this.#target,
          instance,
          cpuPercent: null,
          memoryBytes: null,
          memoryLimitBytes: null,
          cpuLimit: null,
          state: 'running',
        }
        if (row.cpuPercent != null || row.memoryBytes != null) {
          this.#onSample({
            ...base,
            cpuPercent: row.cpuPercent ?? null,
            memoryBytes: row.memoryBytes == null ? null : Math.round(row.memoryBytes),
            memoryLimitBytes: row.memoryLimitBytes == null ? null : Math.round(row.memoryLimitBytes),
            cpuLimit: row.cpuLimit ?? null,
          } satisfies ResourceSample)
        }
        for (const [metric, value] of [...row.metrics].sort(([a], [b]) => a.localeCompare(b)))
          this.#onSample({ ...base, metric, value } satisfies ResourceSample)
      }
    }
  }

  async stop(): Promise<void> {
    const stopAt = Date.now()
    await this.#loop?.stop()
    this.#loop = undefined
    const api = this.#api
    const last = this.#last
    this.#last = null
    if (!api || last === null) return
    // The run's last seconds, read once they have settled: its timeline ends where the run did.
    const end = Math.floor(stopAt / this.#stepMs) * this.#stepMs
    if (end <= last) return
    const wait = stopAt + SETTLE_MS - Date.now()
    if (wait > 0) await new Promise((r) => setTimeout(r, wait))
    try {
      this.#emit(await this.#fetch(api, last + this.#stepMs, end, FINAL_TIMEOUT_MS))
    } catch {
      // The run is over and nobody listens for errors any more: those seconds stay a gap.
    }
  }
}

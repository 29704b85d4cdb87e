// What a `prometheus` monitor asks Prometheus: its PromQL, one query per series, each grouped by the
// labels that tell the target's instances apart. A preset reads what an exporter everyone runs
// already exposes; `query` is any PromQL, one series of the user's name.
//
// - container (cAdvisor): CPU from container_cpu_usage_seconds_total, memory as the kubelet and
//   `docker stats` count it (container_memory_working_set_bytes), limits from container_spec_*.
//   `image!=""` keeps real containers and drops the cgroup hierarchy's own series.
// - host (node_exporter): CPU busy in every mode but idle, iowait and steal; memory used =
//   MemTotal − MemAvailable; limits: the CPUs and MemTotal.
// - jvm: the process' CPU and RSS, heap used, the share of time in GC pauses and the threads, under
//   client_java's names or Micrometer's (whichever the service exposes: `or`).
// - nodejs (prom-client's default metrics): the process' CPU and RSS, heap used, event-loop lag.
// CPU is in % of one core (rate of CPU seconds × 100), as every other source reports it. The host
// preset is the whole machine's (every process on it), not the target's alone.
import type { PrometheusMonitorSpec, PrometheusPreset } from '../config/schema-monitor.ts'

/** A figure the sample's columns hold; anything else is a named series (`metric`, `value`). */
export type Column = 'cpuPercent' | 'memoryBytes' | 'memoryLimitBytes' | 'cpuLimit'

export interface PromSeries {
  /** A column of the sample, or the series' name (`heap_bytes`: its unit is its Prometheus suffix). */
  into: Column | { metric: string }
  query: string
}

export interface PromPlan {
  series: PromSeries[]
  /** The labels whose values name an instance; null: every label of the series (a query's). */
  by: string[] | null
  /** Exact label matches a query's series must carry (presets put them into their selectors). */
  require: Record<string, string>
}

/**
 * Without a `rateWindow`, a counter's rate is each scrape's own (irate over the last minute: the
 * last two scrapes in it), so a run's seconds follow the server as fast as it is scraped. A
 * rate() over a minute would smooth a 10 s run flat (issue 28: the host preset read 195 % in every
 * second); a `rateWindow` asks for that smoothing, over the window given.
 */
const INSTANT_LOOKBACK = '1m'

/** A label value inside a PromQL string literal. */
export function promString(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`
}

export function presetPlan(spec: PrometheusMonitorSpec): PromPlan {
  if (spec.query !== undefined) {
    return {
      series: [{ into: { metric: spec.name ?? 'value' }, query: spec.query }],
      by: null,
      require: spec.labels ?? {},
    }
  }
  const rate = (expr: string) =>
    spec.rateWindow === undefined
      ? `irate(${expr}[${INSTANT_LOOKBACK}])`
      : `rate(${expr}[${spec.rateWindow}])`
  const user = Object.entries(spec.labels ?? {}).map(([k, v]) => `${k}=${promString(v)}`)
  /** `metric{…}`: the preset's own matchers and the user's labels. */
  const sel = (metric: string, ...own: string[]) => `${metric}{${[...own, ...user].join(',')}}`
  const preset = spec.preset as PrometheusPreset
  const by = PRESET_BY[preset]
  const sum = (expr: string) => `sum by (${by.join(', ')}) (${expr})`
  return { series: PRESETS[preset]({ sel, sum, rate }), by, require: {} }
}

type Build = {
  sel: (metric: string, ...own: string[]) => string
  sum: (expr: string) => string
  /** A counter's per-second rate: irate by default, rate() over the spec's `rateWindow`. */
  rate: (expr: string) => string
}

const PRESET_BY: Record<PrometheusPreset, string[]> = {
  container: ['namespace', 'pod', 'container', 'name'],
  host: ['instance'],
  jvm: ['instance'],
  nodejs: ['instance'],
}

/** The process' own CPU and RSS, as client_java and prom-client both name them. */
const processSeries = ({ sel, sum, rate }: Build): PromSeries[] => [
  { into: 'cpuPercent', query: `${sum(rate(sel('process_cpu_seconds_total')))} * 100` },
  { into: 'memoryBytes', query: sum(sel('process_resident_memory_bytes')) },
]

const PRESETS: Record<PrometheusPreset, (b: Build) => PromSeries[]> = {
  container: ({ sel, sum, rate }) => {
    const c = (metric: string) => sel(metric, 'image!=""')
    return [
      { into: 'cpuPercent', query: `${sum(rate(c('container_cpu_usage_seconds_total')))} * 100` },
      { into: 'memoryBytes', query: sum(c('container_memory_working_set_bytes')) },
      // 0 = no limit: left out (> 0), so the column stays null.
      { into: 'memoryLimitBytes', query: `${sum(c('container_spec_memory_limit_bytes'))} > 0` },
      {
        into: 'cpuLimit',
        query: `${sum(`${c('container_spec_cpu_quota')} / ${c('container_spec_cpu_period')}`)} > 0`,
      },
    ]
  },
  host: ({ sel, sum, rate }) => [
    {
      into: 'cpuPercent',
      query: `${sum(rate(sel('node_cpu_seconds_total', 'mode!~"idle|iowait|steal"')))} * 100`,
    },
    {
      into: 'memoryBytes',
      query: sum(`${sel('node_memory_MemTotal_bytes')} - ${sel('node_memory_MemAvailable_bytes')}`),
    },
    { into: 'memoryLimitBytes', query: sum(sel('node_memory_MemTotal_bytes')) },
    { into: 'cpuLimit', query: `count by (instance) (${sel('node_cpu_seconds_total', 'mode="idle"')})` },
  ],
  jvm: (b) => {
    const { sel, sum, rate } = b
    return [
      ...processSeries(b),
      {
        into: { metric: 'heap_bytes' },
        query: `${sum(sel('jvm_memory_used_bytes', 'area="heap"'))} or ${sum(sel('jvm_memory_bytes_used', 'area="heap"'))}`,
      },
      {
        into: { metric: 'gc_pause_ratio' },
        query: `${sum(rate(sel('jvm_gc_collection_seconds_sum')))} or ${sum(rate(sel('jvm_gc_pause_seconds_sum')))}`,
      },
      {
        into: { metric: 'threads' },
        query: `${sum(sel('jvm_threads_current'))} or ${sum(sel('jvm_threads_live_threads'))}`,
      },
    ]
  },
  nodejs: (b) => {
    const { sel, sum } = b
    return [
      ...processSeries(b),
      { into: { metric: 'heap_bytes' }, query: sum(sel('nodejs_heap_size_used_bytes')) },
      {
        into: { metric: 'event_loop_lag_seconds' },
        query: `max by (instance) (${sel('nodejs_eventloop_lag_seconds')})`,
      },
    ]
  },
}

/** An instance's name from a series' labels: the plan's labels' values, or every label of a query's series. */
export function instanceOf(labels: Record<string, string>, by: string[] | null, fallback: string): string {
  if (by) {
    const parts = by.map((k) => labels[k] ?? '').filter((v) => v !== '')
    return parts.length ? parts.join('/') : fallback
  }
  const entries = Object.entries(labels)
    .filter(([k]) => k !== '__name__')
    .sort(([a], [b]) => a.localeCompare(b))
  return entries.length ? `{${entries.map(([k, v]) => `${k}=${promString(v)}`).join(',')}}` : fallback
}

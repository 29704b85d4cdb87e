// GET /metrics in Prometheus text format (version 0.0.4): requests by method, route and status, a
// latency histogram per route, and the runtime's own figures under the names prom-client gives
// them (process_cpu_seconds_total, process_resident_memory_bytes, nodejs_heap_size_used_bytes,
// nodejs_eventloop_lag_seconds), so Cannonade's `nodejs` Prometheus preset reads this server as
// it reads any Node.js service. No dependency: the format is a few lines of text.
// A process keeps a Snapshot; node-cluster's primary gathers every worker's and its own and
// renders their sum (cluster.ts), so a scrape that lands on any worker sees the whole server.
import { monitorEventLoopDelay, performance } from 'node:perf_hooks'

/** Upper bounds of the latency histogram, seconds (+Inf is implied). */
export const BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

// A fixed set of label values: a scanner's random paths cannot grow the series without bound.
const ROUTES = ['/health', '/ads', '/compute', '/payload', '/users', '/login', '/me', '/metrics']
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']

/** The route label of a request path: the API's routes, `/ads/:id`, else `other`. */
export function routeOf(path: string): string {
  if (ROUTES.includes(path)) return path
  return path.startsWith('/ads/') ? '/ads/:id' : 'other'
}

export interface Histogram {
  /** Cumulative counts per bucket of BUCKETS (le), then +Inf. */
  buckets: number[]
  sum: number
  count: number
}

/** One process's figures, plain JSON (it crosses the cluster's IPC). */
export interface Snapshot {
  /** By `METHOD route status`. */
  requests: Record<string, number>
  /** By route. */
  durations: Record<string, Histogram>
  cpuUserSeconds: number
  cpuSystemSeconds: number
  residentBytes: number
  heapUsedBytes: number
  heapTotalBytes: number
  /** Mean and max event-loop delay since the previous snapshot, seconds. */
  lagMeanSeconds: number
  lagMaxSeconds: number
  startTimeSeconds: number
}

export interface Metrics {
  /** One answered request (the /metrics route itself is not counted: scrapes would inflate it). */
  record(method: string, path: string, status: number, seconds: number): void
  snapshot(): Snapshot
}

const START_TIME_SECONDS = Math.round(performance.timeOrigin / 10) / 100

export function createMetrics(): Metrics {
  const requests = new Map<string, number>()
  const durations = new Map<string, Histogram>()
  const loop = monitorEventLoopDelay({ resolution: 10 })
  loop.enable()
  return {
    record(method, path, status, seconds) {
      const route = routeOf(path)
      if (route === '/metrics') return
      const m = METHODS.includes(method) ? method : 'other'
      const key = `${m} ${route} ${status}`
      requests.set(key, (requests.get(key) ?? 0) + 1)
      let h = durations.get(route)
      if (!h) {
        h = { buckets: new Array<number>(BUCKETS.length + 1).fill(0), sum: 0, count: 0 }
        durations.set(route, h)
      }
      for (let i = 0; i < BUCKETS.length; i++) if (seconds <= BUCKETS[i]!) h.buckets[i]!++
      h.buckets[BUCKETS.length]!++
      h.sum += seconds
      h.count++
    },
    snapshot() {
      const cpu = process.cpuUsage()
      const heap = process.memoryUsage()
      // No delay sampled yet (a scrape right after the previous one): NaN mean, reported as 0.
      const mean = Number.isFinite(loop.mean) ? loop.mean / 1e9 : 0
      const max = loop.count > 0 ? loop.max / 1e9 : 0
      loop.reset()
      return {
        requests: Object.fromEntries(requests),
        durations: Object.fromEntries([...durations].map(([k, h]) => [k, { ...h, buckets: [...h.buckets] }])),
        cpuUserSeconds: cpu.user / 1e6,
        cpuSystemSeconds: cpu.system / 1e6,
        residentBytes: heap.rss,
        heapUsedBytes: heap.heapUsed,
        heapTotalBytes: heap.heapTotal,
        lagMeanSeconds: mean,
        lagMaxSeconds: max,
        startTimeSeconds: START_TIME_SECONDS,
      }
    },
  }
}

const labels = (pairs: Record<string, string>): string =>
  `{${Object.entries(pairs)
    .map(([k, v]) => `${k}="${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`)
    .join(',')}}`

/** Prometheus renders numbers in Go's notation; integers and JS's shortest round-trip form both parse. */
const num = (x: number): string => (Number.isFinite(x) ? String(x) : x > 0 ? '+Inf' : x < 0 ? '-Inf' : 'NaN')

function family(out: string[], name: string, type: string, help: string, rows: [string, number][]): void {
  out.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`)
  for (const [suffix, value] of rows) out.push(`${suffix} ${num(value)}`)
}

/**
 * The text of /metrics for one process's snapshot or the sum of several (a cluster's primary and
 * workers): counts, histograms, CPU time and memory add up; the event-loop delay is the worst
 * process's (a cluster is as slow to react as its busiest worker).
 */
export function render(snapshots: readonly Snapshot[]): string {
  const sum = (f: (s: Snapshot) => number) => snapshots.reduce((a, s) => a + f(s), 0)
  const requests = new Map<string, number>()
  const durations = new Map<string, Histogram>()
  for (const s of snapshots) {
    for (const [k, n] of Object.entries(s.requests)) requests.set(k, (requests.get(k) ?? 0) + n)
    for (const [route, h] of Object.entries(s.durations)) {
      const into = durations.get(route) ?? { buckets: h.buckets.map(() => 0), sum: 0, count: 0 }
      h.buckets.forEach((n, i) => (into.buckets[i] = (into.buckets[i] ?? 0) + n))
      into.sum += h.sum
      into.count += h.count
      durations.set(route, into)
    }
  }
  const out: string[] = []
  family(
    out,
    'http_requests_total',
    'counter',
    'Requests answered, by method, route and status (scrapes of /metrics not counted).',
    [...requests].sort().map(([key, n]) => {
      const [method = '', route = '', status = ''] = key.split(' ')
      return [`http_requests_total${labels({ method, route, status })}`, n]
    }),
  )
  const histogramRows: [string, number][] = []
  for (const [route, h] of [...durations].sort(([a], [b]) => a.localeCompare(b))) {
    BUCKETS.forEach((le, i) =>
      histogramRows.push([
        `http_request_duration_seconds_bucket${labels({ route, le: num(le) })}`,
        h.buckets[i]!,
      ]),
    )
    histogramRows.push([`http_request_duration_seconds_bucket${labels({ route, le: '+Inf' })}`, h.count])
    histogramRows.push([`http_request_duration_seconds_sum${labels({ route })}`, h.sum])
    histogramRows.push([`http_request_duration_seconds_count${labels({ route })}`, h.count])
  }
  family(
    out,
    'http_request_duration_seconds',
    'histogram',
    'Time from a request arriving to its answer, by route.',
    histogramRows,
  )
  const user = sum((s) => s.cpuUserSeconds)
  const system = sum((s) => s.cpuSystemSeconds)
  const one = (name: string, type: string, help: string, value: number) =>
    family(out, name, type, help, [[name, value]])
  one('process_cpu_user_seconds_total', 'counter', 'User CPU time spent, seconds.', user)
  one('process_cpu_system_seconds_total', 'counter', 'System CPU time spent, seconds.', system)
  one('process_cpu_seconds_total', 'counter', 'User and system CPU time spent, seconds.', user + system)
  one(
    'process_resident_memory_bytes',
    'gauge',
    'Resident memory size, bytes.',
    sum((s) => s.residentBytes),
  )
  one(
    'process_start_time_seconds',
    'gauge',
    'Start time of the process since the Unix epoch, seconds.',
    Math.min(...snapshots.map((s) => s.startTimeSeconds)),
  )
  one(
    'nodejs_heap_size_used_bytes',
    'gauge',
    'V8 heap used, bytes.',
    sum((s) => s.heapUsedBytes),
  )
  one(
    'nodejs_heap_size_total_bytes',
    'gauge',
    'V8 heap size, bytes.',
    sum((s) => s.heapTotalBytes),
  )
  one(
    'nodejs_eventloop_lag_seconds',
    'gauge',
    'Mean event-loop delay since the previous scrape, seconds (the worst process of a cluster).',
    Math.max(0, ...snapshots.map((s) => s.lagMeanSeconds)),
  )
  one(
    'nodejs_eventloop_lag_max_seconds',
    'gauge',
    'Longest event-loop delay since the previous scrape, seconds.',
    Math.max(0, ...snapshots.map((s) => s.lagMaxSeconds)),
  )
  one(
    'nodejs_processes',
    'gauge',
    'Processes whose figures these are (a cluster: primary and workers).',
    snapshots.length,
  )
  return out.join('\n') + '\n'
}

export const CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8'

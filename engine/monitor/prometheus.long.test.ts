// The prometheus monitor against a real Prometheus (Debian's package, started here on a loopback
// port, scraping every second) scraping real exporters: Debian's node_exporter, the node-http
// target stack's own /metrics, and exporters in this process serving figures the test sets (a JVM
// under client_java's and Micrometer's names, a service's own gauge). Each time, the series on the
// monitor's timeline are held against what the test reads from Prometheus itself for the same
// moments, and, where the test set them, against the figures themselves.
import { readFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMonitor, testMonitor } from './index.ts'
import type { MonitorError, ResourceSample } from './types.ts'
import type { PrometheusMonitorSpec } from '../config/schema-monitor.ts'
import { freePort } from '../stacks/postgres.ts'
import { collector } from '../testing/monitor.ts'
import {
  prometheusGate,
  startExporter,
  startNodeHttp,
  jvmText,
  JVM,
  startNodeExporter,
  startPrometheus,
  type Exporter,
  type LocalPrometheus,
} from '../testing/prometheus.ts'

const gate = prometheusGate('the prometheus monitor tests')

/** A service's own gauge: shard a and b, the values served so far (the truth the timeline must hold). */
const served = { a: [] as number[], b: [] as number[] }
function shopText(): string {
  const n = served.a.length
  served.a.push(100 + n)
  served.b.push(1000 + 3 * n)
  return `# TYPE shop_queue_depth gauge\nshop_queue_depth{shard="a"} ${served.a.at(-1)}\nshop_queue_depth{shard="b"} ${served.b.at(-1)}\n`
}

/**
 * A host whose busy CPU seconds grow at 0.5 cores until `step.at` (ms), then at 1.5 (the truth a
 * default-window preset must follow within a couple of scrapes); sample times are the exporter's.
 */
const step = { at: Infinity, before: 0.5, after: 1.5 }
function stepText(since: number): string {
  const now = Date.now()
  const busy =
    now <= step.at
      ? (step.before * (now - since)) / 1000
      : (step.before * (step.at - since) + step.after * (now - step.at)) / 1000
  return [
    `# TYPE node_cpu_seconds_total counter`,
    `node_cpu_seconds_total{cpu="0",mode="user"} ${busy} ${now}`,
    `node_cpu_seconds_total{cpu="0",mode="idle"} ${(now - since) / 1000} ${now}`,
    `node_memory_MemTotal_bytes 1000000`,
    `node_memory_MemAvailable_bytes 400000`,
    '',
  ].join('\n')
}

let prom: LocalPrometheus | undefined
const exporters: Exporter[] = []

beforeAll(async () => {
  if (gate.skip) return
  if (gate.reason)
    throw new Error(`Prometheus required (CANNONADE_REQUIRE_DOCKER=1) but unavailable: ${gate.reason}`)
  const since = Date.now() - 60_000
  exporters.push(
    await startNodeExporter(),
    await startExporter(() => jvmText('client', since)),
    await startExporter(() => jvmText('micrometer', since)),
    await startExporter(shopText),
  )
  exporters.push(await startNodeHttp(), await startExporter(() => stepText(since)))
  const [node, jvm, micrometer, shop, nodeHttp, stepped] = exporters.map((e) => e.address) as [
    string,
    string,
    string,
    string,
    string,
    string,
  ]
  prom = await startPrometheus([
    { job: 'node', address: node },
    { job: 'jvm', address: jvm },
    { job: 'micrometer', address: micrometer },
    { job: 'shop', address: shop },
    { job: 'node-http', address: nodeHttp },
    { job: 'step', address: stepped },
  ])
  // A rate over 5 s needs a few scrapes of every target.
  await prom.scraped(6)
}, 120_000)

afterAll(async () => {
  await prom?.stop()
  await Promise.all(exporters.map((e) => e.stop()))
})

/** The monitor's samples over `ticks` ticks (after its first answer), stopped; and what it reported. */
async function watch(spec: Omit<PrometheusMonitorSpec, 'kind' | 'url'>, ticks: number) {
  const monitor = createMonitor({ kind: 'prometheus', url: prom!.url, ...spec }, 'shop', { intervalMs: 1000 })
  const samples = collector()
  const errors: MonitorError[] = []
  await monitor.start(samples.onSample, (e) => errors.push(e))
  const got: ResourceSample[] = []
  const perTick = (await samples.next(1)).concat()
  got.push(...perTick)
  // Wait for `ticks` more moments of the grid, then the final read of stop().
  while (new Set(got.map((s) => s.t)).size < ticks + 1) got.push(...(await samples.next(1)))
  await monitor.stop()
  for (;;) {
    const more = await samples.next(1, 50).catch(() => [])
    if (!more.length) break
    got.push(...more)
  }
  return { samples: got, errors }
}

/** Prometheus' own answer for `query` at the samples' moments, by instance label value(s). */
async function truth(query: string, samples: readonly ResourceSample[]) {
  const ts = samples.map((s) => s.t / 1000)
  const series = await prom!.range(query, Math.min(...ts), Math.max(...ts), 1)
  return series
}

const valueAt = (points: [number, number][], t: number) => points.find(([at]) => at * 1000 === t)?.[1]

describe.skipIf(gate.skip)('prometheus monitor against a real Prometheus', () => {
  it('host preset: node_exporter CPU and memory equal Prometheus’ own answer; limits are this machine’s', async () => {
    const { samples, errors } = await watch({ preset: 'host', labels: { job: 'node' }, rateWindow: '5s' }, 3)
    expect(errors).toEqual([])
    expect(new Set(samples.map((s) => s.instance))).toEqual(new Set([exporters[0]!.address]))
    // On the grid of whole steps, one sample per moment, in order.
    const ts = samples.map((s) => s.t)
    expect(ts.every((t) => t % 1000 === 0)).toBe(true)
    expect(ts).toEqual([...new Set(ts)].sort((a, b) => a - b))
    expect(ts.length).toBeGreaterThanOrEqual(4)
    // Written here, not taken from the preset: the figures a person would ask Prometheus for.
    const [cpu] = await truth(
      '100 * sum(rate(node_cpu_seconds_total{job="node",mode!~"idle|iowait|steal"}[5s]))',
      samples,
    )
    const [used] = await truth(
      'node_memory_MemTotal_bytes{job="node"} - node_memory_MemAvailable_bytes{job="node"}',
      samples,
    )
    for (const s of samples) {
      expect(s.cpuPercent, `cpu at ${s.t}`).toBe(valueAt(cpu!.points, s.t))
      expect(s.memoryBytes, `memory at ${s.t}`).toBe(valueAt(used!.points, s.t))
    }
    const memTotal = Number(/MemTotal:\s+(\d+) kB/.exec(readFileSync('/proc/meminfo', 'utf8'))![1]) * 1024
    expect(samples.every((s) => s.memoryLimitBytes === memTotal && s.cpuLimit === cpus().length)).toBe(true)
    expect(
      samples.every((s) => s.source === 'prometheus' && s.target === 'shop' && s.state === 'running'),
    ).toBe(true)
  })

  it('a preset without rateWindow follows each scrape: a CPU step shows within two seconds, not smoothed over a minute', async () => {
    // The step comes 3 s after the monitor starts; a rate() over 1m would read ~0.55 cores 3 s later.
    setTimeout(() => (step.at = Date.now()), 3000)
    const { samples, errors } = await watch({ preset: 'host', labels: { job: 'step' } }, 8)
    expect(errors).toEqual([])
    expect(Number.isFinite(step.at)).toBe(true)
    const before = samples.filter((s) => s.t <= step.at - 1000)
    const after = samples.filter((s) => s.t >= step.at + 2500)
    expect(before.length).toBeGreaterThanOrEqual(1)
    expect(after.length).toBeGreaterThanOrEqual(2)
    for (const s of before) expect(s.cpuPercent, `at ${s.t}`).toBeCloseTo(step.before * 100, 6)
    for (const s of after) expect(s.cpuPercent, `at ${s.t}`).toBeCloseTo(step.after * 100, 6)
    // The whole machine's: its memory used and its one CPU.
    expect(samples.every((s) => s.memoryBytes === 600_000 && s.cpuLimit === 1)).toBe(true)
  })

  for (const job of ['jvm', 'micrometer'] as const) {
    it(`jvm preset (${job === 'jvm' ? 'client_java' : 'Micrometer'} names): the heap, threads, GC share and CPU the exporter was set to`, async () => {
      const { samples, errors } = await watch({ preset: 'jvm', labels: { job }, rateWindow: '5s' }, 2)
      expect(errors).toEqual([])
      const of = (metric: string) => samples.filter((s) => s.metric === metric)
      const columns = samples.filter((s) => !s.metric)
      expect(columns.length).toBeGreaterThanOrEqual(3)
      expect(of('heap_bytes').map((s) => s.value)).toEqual(columns.map(() => JVM.heap))
      expect(of('threads').map((s) => s.value)).toEqual(columns.map(() => JVM.threads))
      expect(columns.every((s) => s.memoryBytes === JVM.rss)).toBe(true)
      // Rates of counters the exporter grows at a set pace: within a tenth of it (scrape jitter).
      for (const s of columns)
        expect(Math.abs(s.cpuPercent! - JVM.cpuCores * 100)).toBeLessThan(JVM.cpuCores * 10)
      for (const s of of('gc_pause_ratio'))
        expect(Math.abs(s.value! - JVM.gcShare)).toBeLessThan(JVM.gcShare / 10)
      const [rate] = await truth(`sum(rate(process_cpu_seconds_total{job="${job}"}[5s])) * 100`, columns)
      for (const s of columns) expect(s.cpuPercent).toBe(valueAt(rate!.points, s.t))
      expect(new Set(samples.map((s) => s.instance))).toEqual(
        new Set([exporters[job === 'jvm' ? 1 : 2]!.address]),
      )
    })
  }

  it('a query: only the series carrying the spec’s labels, named as the spec says, holding what was served', async () => {
    const spec = { query: 'shop_queue_depth', labels: { shard: 'b' }, name: 'queue_depth' }
    const { samples, errors } = await watch(spec, 3)
    expect(errors).toEqual([])
    const address = exporters[3]!.address
    expect(new Set(samples.map((s) => s.instance))).toEqual(
      new Set([`{instance="${address}",job="shop",shard="b"}`]),
    )
    expect(
      samples.every((s) => s.metric === 'queue_depth' && s.cpuPercent === null && s.memoryBytes === null),
    ).toBe(true)
    const own = (await truth('shop_queue_depth{shard="b"}', samples))[0]!
    for (const s of samples) {
      expect(s.value, `at ${s.t}`).toBe(valueAt(own.points, s.t))
      expect(served.b).toContain(s.value)
    }
  })

  it('nodejs preset on a target stack’s /metrics (node-http): CPU, memory, heap and event-loop lag as Prometheus has them', async () => {
    const { samples, errors } = await watch(
      { preset: 'nodejs', labels: { job: 'node-http' }, rateWindow: '5s' },
      2,
    )
    expect(errors).toEqual([])
    const names = new Set(samples.map((s) => s.metric ?? 'columns'))
    expect(names).toEqual(new Set(['columns', 'heap_bytes', 'event_loop_lag_seconds']))
    const columns = samples.filter((s) => !s.metric)
    const [rss] = await truth('process_resident_memory_bytes{job="node-http"}', columns)
    const [heap] = await truth('nodejs_heap_size_used_bytes{job="node-http"}', columns)
    for (const s of columns) expect(s.memoryBytes).toBe(valueAt(rss!.points, s.t))
    for (const s of samples.filter((x) => x.metric === 'heap_bytes'))
      expect(s.value).toBe(valueAt(heap!.points, s.t))
    expect(columns.every((s) => s.memoryBytes! > 2 ** 20 && s.cpuPercent! >= 0)).toBe(true)
  })

  it('says what is wrong: a PromQL error, nothing matching, a series a preset lacks, no Prometheus', async () => {
    const start = (spec: Omit<PrometheusMonitorSpec, 'kind'>) =>
      createMonitor({ kind: 'prometheus', ...spec }, 't').start(
        () => {},
        () => {},
      )
    await expect(start({ url: prom!.url, query: 'rate(shop_queue_depth[' })).rejects.toMatchObject({
      code: 'config',
      message: expect.stringMatching(/bad_data: .*parse error/),
    })
    await expect(
      start({ url: prom!.url, preset: 'jvm', labels: { job: 'nothing-here' } }),
    ).rejects.toMatchObject({
      code: 'not-found',
      message: expect.stringContaining('no series with job="nothing-here"'),
    })
    const closed = await freePort()
    await expect(start({ url: `http://127.0.0.1:${closed}`, preset: 'host' })).rejects.toMatchObject({
      code: 'unreachable',
      message: expect.stringContaining(`127.0.0.1:${closed}`),
    })
    // node_exporter has a process_* of its own but no Node.js heap: started, and told once.
    const errors: MonitorError[] = []
    const m = createMonitor(
      { kind: 'prometheus', url: prom!.url, preset: 'nodejs', labels: { job: 'node' } },
      't',
    )
    await m.start(
      () => {},
      (e) => errors.push(e),
    )
    await m.stop()
    expect(errors.map((e) => e.code)).toEqual(['not-found'])
    expect(errors[0]!.message).toMatch(/nothing for heap_bytes, event_loop_lag_seconds/)
  })

  it('the wizard’s Test button lists each instance with its figures', async () => {
    const r = await testMonitor({ kind: 'prometheus', url: prom!.url, preset: 'jvm', labels: { job: 'jvm' } })
    expect(r).toMatchObject({ ok: true, instances: 1 })
    expect(r.message).toMatch(
      new RegExp(
        `^1 series: ${exporters[1]!.address} \\(running, [\\d.]+ % CPU, 200\\.0 MiB, gc_pause_ratio [\\d.]+ %, heap_bytes 117\\.7 MiB, threads 42\\)$`,
      ),
    )
  })
})

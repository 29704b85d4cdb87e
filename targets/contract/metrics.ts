// The /metrics part of the contract (targets/contract/checks.ts runs it against every stack): the
// text parses as Prometheus' exposition format, the request counter and the latency histogram move
// by exactly what the test sent (each hop of a chain is a request the server received), scrapes
// are not counted, and the runtime's own figures are there under the names the `nodejs` and `jvm`
// presets of the Prometheus monitor query (engine/monitor/prometheus-presets.ts).
import { expect, it } from 'vitest'
import { parseExposition, sumOf, type PromSample } from '../../engine/testing/prom-text.ts'

export interface MetricsTarget {
  base: string
  hops: number
  runtime: 'node' | 'java'
}

/** One request; /metrics and /health are never passed down a chain, the rest go through every hop. */
type Get = (
  path: string,
  init?: RequestInit,
  hops?: number,
) => Promise<{ status: number; text: string; headers: Headers }>

async function scrape(get: Get): Promise<PromSample[]> {
  const a = await get('/metrics', {}, 0)
  expect(a.status, a.text).toBe(200)
  expect(a.headers.get('content-type')).toMatch(/^text\/plain; ?version=0\.0\.4/)
  return parseExposition(a.text)
}

export function metricsChecks(target: () => MetricsTarget, get: Get): void {
  it('GET /metrics counts the requests it answered by route and status, and times them', async () => {
    const t = target()
    const before = await scrape(get)
    const sent: [string, RequestInit, { method: string; route: string; status: string }, number][] = [
      ['/ads/1', {}, { method: 'GET', route: '/ads/:id', status: '200' }, 5],
      ['/ads/999999', {}, { method: 'GET', route: '/ads/:id', status: '404' }, 3],
      ['/no/such/route', {}, { method: 'GET', route: 'other', status: '404' }, 2],
      ['/health', { method: 'POST' }, { method: 'POST', route: '/health', status: '405' }, 1],
    ]
    for (const [path, init, , n] of sent) for (let i = 0; i < n; i++) await get(path, init)
    const after = await scrape(get)
    const moved = (name: string, match: Record<string, string> = {}) =>
      sumOf(after, name, match) - sumOf(before, name, match)
    let total = 0
    for (const [path, , labels, n] of sent) {
      // Every hop of a chain is a request this server received; /health is answered at the entry.
      const received = n * (path === '/health' ? 1 : t.hops + 1)
      total += received
      expect(moved('http_requests_total', labels), JSON.stringify(labels)).toBe(received)
    }
    // Nothing else counted: not the two scrapes. A container's health check (GET /health, once a
    // second) is a request it really answered, and is left out of the sum.
    const healthChecks = moved('http_requests_total', { method: 'GET', route: '/health' })
    expect(moved('http_requests_total') - healthChecks).toBe(total)
    expect(moved('http_request_duration_seconds_count', { route: '/ads/:id' })).toBe(8 * (t.hops + 1))
    expect(moved('http_request_duration_seconds_sum', { route: '/ads/:id' })).toBeGreaterThan(0)
    expect(moved('http_request_duration_seconds_bucket', { route: '/ads/:id', le: '+Inf' })).toBe(
      8 * (t.hops + 1),
    )
  })

  it(`GET /metrics reports the process's CPU time and memory and the runtime's own figures`, async () => {
    const t = target()
    const m = await scrape(get)
    const one = (name: string, labels: Record<string, string> = {}) => {
      const found = m.filter(
        (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
      )
      expect(found.length, `${name}${JSON.stringify(labels)}`).toBeGreaterThan(0)
      return sumOf(found, name)
    }
    expect(one('process_cpu_seconds_total')).toBeGreaterThan(0)
    expect(one('process_resident_memory_bytes')).toBeGreaterThan(1 << 20)
    expect(one('process_start_time_seconds')).toBeLessThanOrEqual(Date.now() / 1000)
    if (t.runtime === 'node') {
      expect(one('nodejs_heap_size_used_bytes')).toBeGreaterThan(0)
      expect(one('nodejs_heap_size_used_bytes')).toBeLessThanOrEqual(one('nodejs_heap_size_total_bytes'))
      expect(one('nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0)
    } else {
      expect(one('jvm_memory_used_bytes', { area: 'heap' })).toBeGreaterThan(0)
      expect(one('jvm_threads_current')).toBeGreaterThan(1)
      expect(one('jvm_gc_collection_seconds_count')).toBeGreaterThanOrEqual(0)
    }
    // The request on a chained server: answered here, no hop entries (checked by `get`).
    expect((await get('/metrics', { method: 'POST' }, 0)).status).toBe(405)
  })
}

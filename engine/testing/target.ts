// A test target that counts what it saw, so tests check behaviour against a known truth: sockets,
// correlation ids, requests in flight sampled over time, with an optional per-request delay and a
// one-off stall.
import http from 'node:http'
import https from 'node:https'
import type { AddressInfo } from 'node:net'
import { DEFAULT_CORRELATION_HEADER } from '../config/schema.ts'

export interface TargetOptions {
  /**
   * Answer each request after this many ms (keeps requests in flight, so concurrency is visible); a
   * request's `?delay=MS` query parameter sets its own.
   */
  delayMs?: number
  /**
   * The delay (ms) as a function of the ms since the target's first request: a warm-up (slow for
   * its first seconds), a trend that never settles. Overrides delayMs; `?delay=MS` still wins.
   */
  delayAt?: (msSinceFirst: number) => number
  /**
   * Serve at most this many requests at once, each for its delay; the rest wait their turn in
   * arrival order: a server of N workers, whose latency grows with the load once they are busy.
   */
  workers?: number
  /** Hold every request that arrives in [from, to) ms after the first request until `to`. */
  stall?: { fromMs: number; toMs: number }
  /** Sample the number of requests in flight every this many ms. */
  sampleEveryMs?: number
  correlationHeader?: string
  status?: number
  tls?: { key: string; cert: string }
  /** Answer with `Server-Timing: app;dur=1.5, db;dur=0.25`. */
  serverTiming?: boolean
  /** With serverTiming: the first this many answers carry `app;dur=NaN, db;dur=0.25` instead (not a duration). */
  serverTimingInvalid?: number
  /** Overload: from this many ms after the first request, accept requests and never answer them. */
  hangAfterMs?: number
  /** Every `every`-th request (counted from 1) is answered with `status` instead. */
  failEvery?: { every: number; status: number }
}

export interface CountingTarget {
  url: string
  port: number
  sockets: number
  requests: number
  ids: string[]
  inFlight: number
  /** [epoch ms, in-flight] samples. */
  samples: [number, number][]
  /** Each request's body as it arrived: size and content type; `lastBody` holds the last one. */
  bodies: { bytes: number; contentType: string | null }[]
  lastBody: Buffer | null
  /**
   * Every answered request: its correlation id, how long the server held it (µs, arrival → response
   * end), the delay it meant to hold it (ms: delayMs, delayAt or `?delay=`; a busy machine adds to
   * it) and when it arrived (epoch ms).
   */
  served: { id: string; us: number; delayMs: number; at: number }[]
  firstRequestAt: number
  /** Requests answered, by status; and those held without an answer (hangAfterMs). */
  answered: Map<number, number>
  hung: number
  /** Answers whose Server-Timing was not a duration (serverTimingInvalid). */
  serverTimingInvalidSent: number
  close(): Promise<void>
}

export async function startTarget(opts: TargetOptions = {}): Promise<CountingTarget> {
  const header = (opts.correlationHeader ?? DEFAULT_CORRELATION_HEADER).toLowerCase()
  const state: CountingTarget = {
    url: '',
    port: 0,
    sockets: 0,
    requests: 0,
    ids: [],
    inFlight: 0,
    samples: [],
    bodies: [],
    lastBody: null,
    served: [],
    firstRequestAt: 0,
    answered: new Map(),
    hung: 0,
    serverTimingInvalidSent: 0,
    close: async () => {},
  }
  // opts.workers: the requests waiting for a worker, and how many are busy.
  const queue: (() => void)[] = []
  let busy = 0
  const drain = () => {
    while (opts.workers !== undefined && busy < opts.workers && queue.length > 0) {
      busy++
      queue.shift()!()
    }
  }
  const release = (finish: () => void) => () => {
    busy--
    finish()
    drain()
  }
  const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const arrived = process.hrtime.bigint()
    const now = Date.now()
    if (state.firstRequestAt === 0) state.firstRequestAt = now
    state.requests++
    state.inFlight++
    const id = req.headers[header]
    if (typeof id === 'string') state.ids.push(id)
    // `?delay=MS` sets this request's delay: a latency the test chooses per URL (a sweep of it).
    const asked = Number(new URL(req.url ?? '/', 'http://target').searchParams.get('delay') ?? Number.NaN)
    const planned = opts.delayAt ? opts.delayAt(now - state.firstRequestAt) : (opts.delayMs ?? 0)
    let wait = Number.isFinite(asked) && asked >= 0 ? asked : planned
    if (opts.stall) {
      const rel = now - state.firstRequestAt
      if (rel >= opts.stall.fromMs && rel < opts.stall.toMs) wait = Math.max(wait, opts.stall.toMs - rel)
    }
    const n = state.requests
    if (opts.hangAfterMs !== undefined && now - state.firstRequestAt >= opts.hangAfterMs) {
      state.hung++
      return // accepted, read, never answered: the client times out or the window closes
    }
    const finish = () => {
      state.inFlight--
      const status =
        opts.failEvery && n % opts.failEvery.every === 0 ? opts.failEvery.status : (opts.status ?? 200)
      state.answered.set(status, (state.answered.get(status) ?? 0) + 1)
      res.statusCode = status
      if (typeof id === 'string') res.setHeader(header, id)
      if (opts.serverTiming) {
        const invalid = state.serverTimingInvalidSent < (opts.serverTimingInvalid ?? 0)
        if (invalid) state.serverTimingInvalidSent++
        res.setHeader('server-timing', invalid ? 'app;dur=NaN, db;dur=0.25' : 'app;dur=1.5, db;dur=0.25')
      }
      res.end('ok')
      if (typeof id === 'string')
        state.served.push({
          id,
          us: Number(process.hrtime.bigint() - arrived) / 1000,
          delayMs: wait,
          at: now,
        })
    }
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks)
      state.bodies.push({ bytes: body.length, contentType: req.headers['content-type'] ?? null })
      state.lastBody = body
      if (opts.workers !== undefined)
        queue.push(() => (wait > 0 ? setTimeout(release(finish), wait) : release(finish)()))
      else if (wait > 0) setTimeout(finish, wait)
      else finish()
      drain()
    })
  }
  const server = opts.tls
    ? https.createServer({ key: opts.tls.key, cert: opts.tls.cert }, handler)
    : http.createServer(handler)
  server.keepAliveTimeout = 60_000
  server.on('connection', () => state.sockets++)
  if (opts.tls) server.on('secureConnection', () => {})
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  const sampler = opts.sampleEveryMs
    ? setInterval(() => state.samples.push([Date.now(), state.inFlight]), opts.sampleEveryMs)
    : null
  state.port = port
  state.url = `${opts.tls ? 'https' : 'http'}://127.0.0.1:${port}`
  state.close = () =>
    new Promise<void>((resolve) => {
      if (sampler) clearInterval(sampler)
      server.closeAllConnections()
      server.close(() => resolve())
    })
  return state
}

/** Median in-flight per second of the run timeline, from samples away from the second's edges. */
export function inFlightPerSecond(
  samples: readonly [number, number][],
  t0Epoch: number,
  edgeMs = 200,
): Map<number, number> {
  const buckets = new Map<number, number[]>()
  for (const [at, n] of samples) {
    const rel = at - t0Epoch
    if (rel < 0) continue
    const second = Math.floor(rel / 1000)
    const within = rel - second * 1000
    if (within < edgeMs || within > 1000 - edgeMs) continue
    const list = buckets.get(second) ?? []
    list.push(n)
    buckets.set(second, list)
  }
  const out = new Map<number, number>()
  for (const [s, list] of buckets) {
    list.sort((a, b) => a - b)
    out.set(s, list[Math.floor(list.length / 2)]!)
  }
  return out
}

// What one segment (one target, one round) of a run is given and gives back (driver.ts runs it),
// and its connections: what they send (the request template, a scenario's steps and think times)
// is built once per segment from the target and load.
import type { Plan } from '../config/compile.ts'
import type { Load, Target } from '../config/schema.ts'
import { Connection } from './connection.ts'
import type { ConnectionHost, LoadConnection } from './load-connection.ts'
import { H2Connection } from './h2/connection.ts'
import { buildH2Request } from './h2/request.ts'
import type { TlsSessions } from './socket.ts'
import type { Ledger } from './ledger.ts'
import { buildRequestTemplate } from './request-template.ts'
import { scenarioSetup } from './scenario.ts'
import { hasThink, thinkSampler, type ThinkPlan } from './think.ts'
import type { ScheduleCounts } from './openloop.ts'

export interface TickInfo {
  /** Second of the run timeline that just closed. */
  t: number
  phase: number
  connections: number
  generatorCpu: number | null
  /** % of the second the load thread was ready to run but waited for a CPU (Linux; null elsewhere). */
  generatorWait: number | null
  /** A final slice of a few ms: the writer folds it into the second before (no row of its own). */
  merge?: boolean
}

export interface SegmentOptions {
  target: Target
  load: Load
  plan: Plan
  /** performance.now() of the run's start: sample start times are µs from it. */
  t0: number
  /** Second of the run timeline at which this segment starts (segments start on whole seconds). */
  startSecond: number
  /**
   * performance.now() at which the segment's window begins, when it is not "now": a load agent
   * woken late by a busy machine still keeps the release instant, so its seconds line up.
   */
  startAt?: number
  correlationHeader: string
  correlationPrefix: string
  /**
   * Run-wide sequence counter: correlation ids are unique across segments. It advances by
   * `stride`: agent i of N numbers its requests i, i + N, … so ids are unique across agents too.
   */
  counter: { next: number; stride: number }
  /** Run-wide scenario pass counter (`${iteration}`), advanced by its stride like `counter`. */
  iterations: { next: number; stride: number }
  /** This process's share of a run split over agents (config/split.ts); {0, 1} alone. */
  share: { index: number; count: number }
  ledger: Ledger
  onTick(info: TickInfo): void
}

export interface SegmentResult {
  seconds: number
  phaseSeconds: number[]
  sent: number
  stopped: boolean
  /** Rate mode: the schedule's counts (lateness comes from the ledger). */
  schedule: ScheduleCounts | null
  /** Server-Timing headers whose duration was not a duration, over every connection, by phase. */
  serverTimingInvalid: number[]
  /** Scenario: passes in which step j was skipped after step k failed, at [j × steps + k]. */
  skipped?: number[]
  /** HTTP/2: the lowest SETTINGS_MAX_CONCURRENT_STREAMS a server set (null: none, or HTTP/1.1). */
  streamLimit: number | null
}

/**
 * The segment's connections, made one at a time by the driver: what they send (the request
 * template, a scenario's steps, think times) is built once from the target and the load.
 */
export function connectionMaker(o: SegmentOptions): (index: number, host: ConnectionHost) => LoadConnection {
  const url = new URL(o.target.url)
  // The segment's connections share their TLS session when the target resumes sessions.
  const resume: TlsSessions | null = o.target.tls?.resume ? { session: undefined } : null
  if (o.target.protocol !== 'http1') return h2Maker(o, url, resume)
  const template = buildRequestTemplate({
    method: o.target.method,
    url,
    headers: o.target.headers,
    body: o.target.body,
    keepAlive: o.load.keepAlive,
    correlationHeader: o.correlationHeader,
    correlationPrefix: o.correlationPrefix,
  })
  const steps = o.target.steps
  const scenario = steps
    ? scenarioSetup({ ...o.target, steps }, url, o.load.keepAlive, o.correlationHeader, o.correlationPrefix)
    : null
  const pauses = pauseMaker(o)
  const { timeoutMs, pipelining } = o.load
  return (index, host) =>
    new Connection(
      index,
      { ...o.target, url, timeoutMs, pipelining, resume },
      template,
      host,
      scenario,
      pauses ? pauses(index) : null,
    )
}

/** Each connection's think-time sampler, made from the target's and its steps' think times (null: no pause). */
function pauseMaker(o: SegmentOptions): ((index: number) => (step: number) => number) | null {
  const think: ThinkPlan = {
    target: o.target.think,
    steps: o.target.steps?.map((s) => s.think) ?? [],
    seed: o.load.seed,
  }
  return hasThink(think) ? (index) => thinkSampler(think, index) : null
}

/** HTTP/2 connections: the request's header blocks are built once, the socket opened by each. */
function h2Maker(
  o: SegmentOptions,
  url: URL,
  resume: TlsSessions | null,
): (index: number, host: ConnectionHost) => LoadConnection {
  const request = buildH2Request({
    method: o.target.method,
    url,
    headers: o.target.headers,
    body: o.target.body,
    correlationHeader: o.correlationHeader,
    correlationPrefix: o.correlationPrefix,
  })
  const secure = o.target.protocol === 'h2'
  const socket = {
    secure,
    hostname: url.hostname.replace(/^\[|\]$/g, ''),
    port: Number(url.port || (secure ? 443 : 80)),
    insecure: o.target.insecure,
    ...(secure ? { alpn: ['h2'] } : {}),
    ...(resume ? { resume } : {}),
  }
  const steps = o.target.steps
  const scenario = steps
    ? scenarioSetup({ ...o.target, steps }, url, true, o.correlationHeader, o.correlationPrefix)
    : null
  const pauses = pauseMaker(o)
  return (index, host) =>
    new H2Connection(
      index,
      { url, streams: o.target.streams, socket, expect: o.target.expect },
      request,
      host,
      scenario,
      pauses ? pauses(index) : null,
    )
}

/** The connections' Server-Timing headers whose duration was not one, summed by phase. */
export function serverTimingInvalidByPhase(conns: LoadConnection[]): number[] {
  const byPhase: number[] = []
  for (const c of conns)
    c.serverTimingInvalid.forEach((n, phase) => (byPhase[phase] = (byPhase[phase] ?? 0) + n))
  return byPhase
}

/** A scenario's skipped steps: the passes in which step j was not sent because step k failed. */
export class SkipTally {
  private readonly steps: number
  /** At [j × steps + k]. */
  private readonly counts: Float64Array

  constructor(steps: number) {
    this.steps = steps
    this.counts = new Float64Array(steps * steps)
  }

  /** Step k failed: the steps after it in its pass are skipped. */
  failed(k: number): void {
    for (let j = k + 1; j < this.steps; j++) this.counts[j * this.steps + k]!++
  }

  /** What the segment's result carries: nothing for a plain target. */
  result(): Pick<SegmentResult, 'skipped'> {
    return this.steps ? { skipped: Array.from(this.counts) } : {}
  }
}

// The figures of a run, defined once. Every screen (the CLI's `run` and `runs show`, the live view,
// run detail, compare, the study page, the exports and the report) takes its counts and rates from
// these functions, so one quantity shows one number everywhere (units.ts words them). Pure and
// light: no histogram decoding, no Node module, no zod, so the renderer and the ledger writer
// thread import it too.
//
// For a block of requests (a target's round, a phase, a step or one second):
// - sent       every request that left: requests + in flight at end
// - requests   requests with an outcome: answered, or failed without an answer. The denominator of
//              the error rate. (What `requests` always meant in StatsBlock and the `--json` summary.)
// - answered   responses of any status (1xx-5xx)
// - ok         successes: answers whose status is in their rule (200–399 unless the config's
//              `expect` says otherwise: engine/config/status-rule.ts) and whose captures were found
// - failed     errors: answers with an unexpected status (their codes counted: `unexpected`),
//              scenario captures that found nothing, and requests without an answer (timeout,
//              refused, reset, TLS, DNS, other). `failedRequests()` counts them.
// - inflight   still waiting when a time window closed: not known to have failed, so neither an
//              error nor a latency; its own category ("in flight at end")
// - throughput responses per second of the window: successes and unexpected statuses count, requests
//              without an answer (errors without a response, in flight at end) do not
// - errorRate  failed / requests
// - latency    percentiles of answered requests only; a second (or block) without an answer has no
//              latency (null), never 0
import { ERROR_KINDS, failedRequests, type ErrorCounts, type StatsBlock } from '../api/types.ts'

export interface Figures {
  sent: number
  requests: number
  answered: number
  ok: number
  failed: number
  /** Failed without any response (timeout, refused, reset, TLS, DNS, other). */
  unanswered: number
  inflight: number
  /** Errors by kind, without `inflight` (which is not an error). */
  errors: ErrorCounts
  /** The `status` errors by their status code. */
  unexpected: Record<string, number>
  /** Responses per second of the window. */
  throughput: number
  /** failed / requests; null when there was no request with an outcome. */
  errorRate: number | null
  /** Seconds of the window (a phase's own wall time for a phase block). */
  seconds: number
}

/** Every kind but `inflight`, in ERROR_KINDS order (the order every screen lists them in). */
export function errorsOnly(errors: ErrorCounts): ErrorCounts {
  const out: ErrorCounts = {}
  for (const kind of ERROR_KINDS) {
    if (kind === 'none' || kind === 'inflight') continue
    const n = errors[kind] ?? 0
    if (n > 0) out[kind] = n
  }
  return out
}

export function answeredOf(b: Pick<StatsBlock, 'statusClasses'>): number {
  const s = b.statusClasses
  return s['1xx'] + s['2xx'] + s['3xx'] + s['4xx'] + s['5xx']
}

export function figuresOf(b: StatsBlock): Figures {
  const inflight = b.errors.inflight ?? 0
  const failed = failedRequests(b.errors)
  const answered = answeredOf(b)
  return {
    sent: b.requests + inflight,
    requests: b.requests,
    answered,
    ok: b.ok,
    failed,
    // Whatever the kind (a new one included): a request with an outcome that got no status.
    unanswered: Math.max(0, b.requests - answered),
    inflight,
    errors: errorsOnly(b.errors),
    unexpected: b.unexpected ?? {},
    throughput: b.throughput,
    errorRate: b.requests > 0 ? failed / b.requests : null,
    seconds: b.seconds,
  }
}

/**
 * One target over its rounds, as thresholds, comparisons and the "all rounds" rows count it:
 * counts summed, throughput the mean of the rounds' throughputs, the error rate over all requests.
 * Latency over rounds comes from the merged HDR histograms (the caller has them).
 */
export function roundsFigures(rounds: readonly StatsBlock[]): Figures {
  const all = rounds.map(figuresOf)
  const sum = (f: (x: Figures) => number) => all.reduce((s, x) => s + f(x), 0)
  const errors: ErrorCounts = {}
  for (const f of all)
    for (const [k, n] of Object.entries(f.errors) as [keyof ErrorCounts, number][])
      errors[k] = (errors[k] ?? 0) + n
  const unexpected: Record<string, number> = {}
  for (const f of all)
    for (const [code, n] of Object.entries(f.unexpected)) unexpected[code] = (unexpected[code] ?? 0) + n
  const requests = sum((f) => f.requests)
  const failed = sum((f) => f.failed)
  return {
    sent: sum((f) => f.sent),
    requests,
    answered: sum((f) => f.answered),
    ok: sum((f) => f.ok),
    failed,
    unanswered: sum((f) => f.unanswered),
    inflight: sum((f) => f.inflight),
    errors,
    unexpected,
    throughput: all.length ? sum((f) => f.throughput) / all.length : 0,
    errorRate: requests > 0 ? failed / requests : null,
    seconds: sum((f) => f.seconds),
  }
}

/** Per second: answered requests are those with a status class (the series' status counts). */
export function answeredInSecond(status: Partial<Record<string, number>>): number {
  let n = 0
  for (const c of ['1xx', '2xx', '3xx', '4xx', '5xx']) n += status[c] ?? 0
  return n
}

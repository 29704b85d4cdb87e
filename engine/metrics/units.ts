// The units figures are shown in, defined once: latency in ms (stored in µs), throughput in
// requests/s, the error rate in %, and the names of error kinds. Thresholds are stored in the
// config's units (µs for latencies) and shown with these, on every screen and in every export.
// A target's protocol is named here too, in the words the wizard, the run page, the report and
// the comparison share.
import {
  ERROR_KINDS,
  type ErrorCounts,
  type ErrorKind,
  type GeneratorHealth,
  type ThresholdResult,
} from '../api/types.ts'
import { isLatencyMetric, type Protocol } from '../config/schema.ts'

const KIND_LABEL: Record<Exclude<ErrorKind, 'none'>, string> = {
  timeout: 'timeout',
  refused: 'refused',
  reset: 'reset',
  status: 'unexpected status',
  tls: 'TLS',
  dns: 'DNS',
  other: 'other',
  inflight: 'in flight at end',
  capture: 'capture found nothing',
  parse: 'malformed response',
  closed: 'closed by server',
  stream_reset: 'stream reset',
  stream_refused: 'stream refused',
  goaway: 'GOAWAY with an error',
}

/** How every screen names an error kind (and "in flight at end", which is not one). */
export function kindLabel(kind: string): string {
  return KIND_LABEL[kind as Exclude<ErrorKind, 'none'>] ?? kind
}

/**
 * Errors by kind in words, in ERROR_KINDS order: "timeout 3 · unexpected status 12 (404 ×10, 500
 * ×2)"; "none" without any. Pass figures' `errors` (no `inflight`): requests in flight at the end
 * are shown on their own; `unexpected` (figures' codes of the `status` errors) names their codes.
 */
export function errorsText(
  errors: ErrorCounts,
  fmt: (n: number) => string = String,
  unexpected: Readonly<Record<string, number>> = {},
): string {
  const parts = ERROR_KINDS.filter((k) => k !== 'none' && (errors[k] ?? 0) > 0).map((k) => {
    const text = `${kindLabel(k)} ${fmt(errors[k as Exclude<ErrorKind, 'none'>] ?? 0)}`
    return k === 'status' && Object.keys(unexpected).length
      ? `${text} (${statusCodesText(unexpected, fmt)})`
      : text
  })
  return parts.length ? parts.join(' · ') : 'none'
}

/** Unexpected statuses by code: "404 ×1,204, 500 ×3" (the codes in ascending order). */
export function statusCodesText(
  unexpected: Readonly<Record<string, number>>,
  fmt: (n: number) => string = String,
): string {
  return Object.entries(unexpected)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([code, n]) => `${code} ×${fmt(n)}`)
    .join(', ')
}

/**
 * µs as ms with `digits` decimals (2 unless said), rounded half up on the µs themselves: 4005 µs is
 * 4.01 ms on every screen. (`(4.005).toFixed(2)` gives "4.00" where `Intl.NumberFormat` gives
 * "4.01": a binary fraction rounded two ways. Rounding here first, once, leaves nothing to differ.)
 * A fractional mean is taken to whole µs first, the unit the `--json` summary and the CSV exports
 * store it in: a mean of 4624.6 µs is 4625 there, so it reads 4.63 ms on every screen, never 4.62.
 */
/**
 * Server-Timing headers whose duration was not one (TargetRoundSummary.serverTimingInvalid), in the
 * words every screen uses under a Server-Timing label: the CLI's run table, the run page and the
 * report.
 */
export function serverTimingInvalidText(n: number, fmt: (n: number) => string = String): string {
  return `${fmt(n)} header${n === 1 ? ' was not a duration' : 's were not durations'} (kept out of app/db time)`
}

export function msRounded(us: number, digits = 2): number {
  const scale = 10 ** (3 - digits)
  return Math.round(Math.round(us) / scale) / 10 ** digits
}

/** Milliseconds from µs, two decimals: the precision every table prints latency with. */
export function msText(us: number): string {
  return msRounded(us).toFixed(2)
}

/**
 * A threshold metric's value in the unit a person reads: latencies are stored in µs and shown in
 * ms, throughput in requests/s, the error rate (a fraction) in %.
 */
export function formatMetricValue(metric: string, value: number): string {
  if (isLatencyMetric(metric)) return `${msText(value)} ms`
  if (metric === 'throughput') return `${value.toFixed(1)} req/s`
  if (metric === 'errorRate') return `${(value * 100).toFixed(2)} %`
  return String(value)
}

/**
 * How a named series (the prometheus monitor's heap_bytes, gc_pause_ratio, a query's own name) is
 * shown, from its Prometheus unit suffix: bytes in MiB, seconds in ms, ratios in %, else as is.
 * The live view, run detail, the study page and the report all scale and label it with this.
 */
export function seriesUnit(metric: string): { unit: string; scale: number; digits: number } {
  if (/_bytes$/.test(metric)) return { unit: 'MiB', scale: 1 / 2 ** 20, digits: 1 }
  if (/_seconds$/.test(metric)) return { unit: 'ms', scale: 1000, digits: 2 }
  if (/_(ratio)$/.test(metric)) return { unit: '%', scale: 100, digits: 2 }
  if (/_percent$/.test(metric)) return { unit: '%', scale: 1, digits: 1 }
  return { unit: '', scale: 1, digits: 2 }
}

/**
 * How a named series' instances add up in one second: sizes and counts sum (the heap of all
 * replicas), times, ratios and percentages are averaged (two instances' event-loop lag is not
 * their sum).
 */
export function seriesAggregate(metric: string): 'sum' | 'mean' {
  return /_(seconds|ratio|percent)$/.test(metric) ? 'mean' : 'sum'
}

/** A named series' value as a person reads it: `123.4 MiB`, `1.25 ms`, `0.40 %`, `42`. */
export function formatSeriesValue(metric: string, value: number): string {
  const { unit, scale, digits } = seriesUnit(metric)
  const x = value * scale
  const text = unit === '' && Number.isInteger(x) ? String(x) : x.toFixed(digits)
  return unit ? `${text} ${unit}` : text
}

/** A limit as the user typed it, in its unit and without padding zeros: 200000 µs → "200 ms". */
export function formatLimitValue(metric: string, value: number): string {
  const plain = (x: number) => String(Number(x.toFixed(3)))
  if (isLatencyMetric(metric)) return `${plain(value / 1000)} ms`
  if (metric === 'throughput') return `${plain(value)} req/s`
  if (metric === 'errorRate') return `${plain(value * 100)} %`
  return plain(value)
}

/** A threshold's limit with its unit: "≤ 200 ms", "≥ 100 req/s and ≤ 2 %". */
export function thresholdLimit(t: Pick<ThresholdResult, 'metric' | 'min' | 'max'>): string {
  const parts: string[] = []
  if (t.min !== undefined) parts.push(`≥ ${formatLimitValue(t.metric, t.min)}`)
  if (t.max !== undefined) parts.push(`≤ ${formatLimitValue(t.metric, t.max)}`)
  return parts.join(' and ')
}

/** "p99 ≤ 200 ms on api: 12.34 ms, passed" — the same words on every screen. */
export function thresholdSentence(t: ThresholdResult): string {
  const actual = t.actual === null ? 'no responses to measure' : formatMetricValue(t.metric, t.actual)
  return `${t.metric} ${thresholdLimit(t)} on ${t.target}: ${actual}, ${t.passed ? 'passed' : 'FAILED'}`
}

/**
 * How long a generator was the limit, in the same words everywhere: "above 90 % CPU in 3 of 10
 * seconds", or, when other processes held its CPU, "busy or waiting for a CPU in 9 of 10 seconds
 * (waiting, its CPU taken by other processes, in 8)".
 */
export function generatorBusyWords(
  g: Pick<GeneratorHealth, 'saturatedSeconds' | 'seconds' | 'waitedSeconds'>,
): string {
  const of = `${g.saturatedSeconds} of ${g.seconds} seconds`
  return g.waitedSeconds
    ? `busy or waiting for a CPU in ${of} (waiting, its CPU taken by other processes, in ${g.waitedSeconds})`
    : `above 90 % CPU in ${of}`
}

/** A protocol as the wizard offers it. */
export const PROTOCOL_LABELS: Readonly<Record<Protocol, string>> = {
  http1: 'HTTP/1.1',
  h2: 'HTTP/2 over TLS (h2)',
  h2c: 'HTTP/2 cleartext (h2c)',
}

/** A protocol's short name, as a comparison sets two side by side: "HTTP/1.1 vs h2c". */
export function protocolName(p: Protocol): string {
  return p === 'http1' ? 'HTTP/1.1' : p
}

/**
 * How a target is spoken to, in the same words on the run page, in the report and in Review:
 * "HTTP/1.1", "HTTP/2 cleartext (h2c), 10 streams per connection".
 */
export function protocolWords(t: { protocol: Protocol; streams: number }): string {
  return t.streams > 1
    ? `${PROTOCOL_LABELS[t.protocol]}, ${t.streams} streams per connection`
    : PROTOCOL_LABELS[t.protocol]
}

// A/A calibration (`cannonade calibrate URL`, or a template that runs one target under two names):
// how much two identical targets differ from round to round on this machine, and so the smallest
// difference a comparison here can resolve in a given time. Pure: the rounds come in.
//
// The spread is the standard deviation of the per-round log-ratio of the two names (round i of one
// against round i of the other, run in a random order), shown as ± %: exp(sd) − 1. After n rounds a
// run that stops when precise states the 99 % t-interval (stopping.ts), whose half-width is
// exp(t(0.995, n − 1) × sd / √n) − 1: a true difference larger than that is decided (the interval
// excludes 1×) after n rounds; one much smaller is not told from no difference.
import { compareMetric, type Round } from './compare-metric.ts'
import { tQuantile } from './compare-stats.ts'
import { fmtRatio, fmtRatioRange } from './compare-words.ts'
import { fmtWidth, HEADLINE_METRICS, SEQUENTIAL_LEVEL, SEQUENTIAL_TRIM } from './stopping.ts'

type Headline = (typeof HEADLINE_METRICS)[number]

export interface CalibrationMetric {
  metric: Headline
  /** Rounds with a value on both sides. */
  rounds: number
  /** ± %: exp of the per-round log-ratio's standard deviation, − 1; null below 2 rounds. */
  spreadPercent: number | null
  /**
   * ± %: the same from the winsorized spread a run that stops when precise uses (stopping.ts:
   * the 20 % trimmed mean), which a few disturbed rounds do not blow up.
   */
  robustSpreadPercent: number | null
  /** The A/A ratio (second / first) and its 95 % interval: 1× is expected inside. */
  ratio: number | null
  ci: [number, number] | null
  verdict: string | null
}

export interface Resolvable {
  minutes: number
  /** Rounds that fit in that time at this run's round length. */
  rounds: number
  /** Per headline metric, ± %: the half-width after that many rounds (null: fewer than 2 rounds fit). */
  halfWidth: Record<Headline, number | null>
}

export interface Calibration {
  metrics: CalibrationMetric[]
  /** Seconds one round took here (every target once, with its cooldown). */
  roundSeconds: number
  resolvable: Resolvable[]
}

function logRatios(metric: Headline, a: readonly Round[], b: readonly Round[]): number[] {
  const value = (r: Round): number | null =>
    metric === 'throughput'
      ? r.throughput > 0
        ? r.throughput
        : null
      : r.latency.count > 0 && r.latency[metric] > 0
        ? r.latency[metric]
        : null
  const byRound = new Map(b.map((r) => [r.round, value(r)]))
  return a.flatMap((r) => {
    const x = value(r)
    const y = byRound.get(r.round)
    return x !== null && y !== null && y !== undefined ? [Math.log(y / x)] : []
  })
}

function sd(xs: readonly number[]): number | null {
  if (xs.length < 2) return null
  const m = xs.reduce((s, x) => s + x, 0) / xs.length
  return Math.sqrt(xs.reduce((s, x) => s + (x - m) ** 2, 0) / (xs.length - 1))
}

/**
 * The per-round spread Yuen's interval works with: the winsorized standard deviation over
 * (1 − 2 × trim), so that after n rounds its standard error is this / √n.
 */
export function robustSpread(xs: readonly number[], trim = SEQUENTIAL_TRIM): number | null {
  const n = xs.length
  if (n < 2) return null
  const g = Math.floor(trim * n)
  const s = [...xs].sort((a, b) => a - b)
  const w = s.map((v, i) => (i < g ? s[g]! : i >= n - g ? s[n - g - 1]! : v))
  const spread = sd(w)
  return spread === null ? null : spread / (1 - (2 * g) / n)
}

/** ± % a stopping run states after `n` rounds with per-round robust log spread `s`. */
export function halfWidthAfter(s: number, n: number, trim = SEQUENTIAL_TRIM): number | null {
  const h = n - 2 * Math.floor(trim * n)
  if (n < 2 || h < 2) return null
  return (Math.exp((tQuantile(1 - (1 - SEQUENTIAL_LEVEL) / 2, h - 1) * s) / Math.sqrt(n)) - 1) * 100
}

export function calibrate(
  first: { target: string; rounds: readonly Round[] },
  second: { target: string; rounds: readonly Round[] },
  roundSeconds: number,
  minutes: readonly number[] = [10, 30, 60],
): Calibration {
  const spreads = new Map<Headline, number | null>()
  const metrics = HEADLINE_METRICS.map((metric): CalibrationMetric => {
    const xs = logRatios(metric, first.rounds, second.rounds)
    const s = sd(xs)
    const robust = robustSpread(xs)
    spreads.set(metric, robust)
    const m = compareMetric({
      metric,
      base: first.rounds,
      other: second.rounds,
      paired: true,
      corrected: false,
      minEffect: 5,
      baseLabel: first.target,
      otherLabel: second.target,
    })
    return {
      metric,
      rounds: xs.length,
      spreadPercent: s === null ? null : (Math.exp(s) - 1) * 100,
      robustSpreadPercent: robust === null ? null : (Math.exp(robust) - 1) * 100,
      ratio: m?.change === null || m === null ? null : 1 + m.change,
      ci: m?.ci ? [1 + m.ci[0], 1 + m.ci[1]] : null,
      verdict: m?.verdict ?? null,
    }
  })
  const resolvable = minutes.map((min): Resolvable => {
    const rounds = roundSeconds > 0 ? Math.floor((min * 60) / roundSeconds) : 0
    const halfWidth = Object.fromEntries(
      HEADLINE_METRICS.map((metric) => {
        const s = spreads.get(metric)
        return [metric, s === null || s === undefined ? null : halfWidthAfter(s, rounds)]
      }),
    ) as Record<Headline, number | null>
    return { minutes: min, rounds, halfWidth }
  })
  return { metrics, roundSeconds, resolvable }
}

const LABEL: Record<Headline, string> = { p50: 'p50', p99: 'p99', throughput: 'throughput' }

/** The calibration in lines, as `cannonade calibrate` prints it. */
export function calibrationLines(c: Calibration, names: [string, string]): string[] {
  const out = [
    `Round-to-round spread of ${names[1]}/${names[0]} (the same target: the standard deviation of the per-round ratio; robust: winsorized, as rounds until precise weigh them):`,
  ]
  for (const m of c.metrics) {
    const spread =
      m.spreadPercent === null
        ? 'too few rounds'
        : `±${fmtWidth(m.spreadPercent)} %${m.robustSpreadPercent === null ? '' : ` (±${fmtWidth(m.robustSpreadPercent)} % robust)`}`
    const ratio =
      m.ratio === null
        ? ''
        : `  ${names[1]}/${names[0]} ${fmtRatio(m.ratio)}${m.ci ? ` (95 % CI ${fmtRatioRange(m.ci[0], m.ci[1])}, ${m.verdict})` : ''}`
    out.push(`  ${LABEL[m.metric].padEnd(11)} ${spread.padEnd(24)}${ratio}`)
  }
  out.push(
    `The smallest difference it resolves (a round is ${Math.round(c.roundSeconds)} s here; the half-width a run that stops when precise would state):`,
  )
  for (const r of c.resolvable) {
    const parts = HEADLINE_METRICS.map((metric) => {
      const w = r.halfWidth[metric]
      return `${LABEL[metric]} ${w === null ? '–' : `±${fmtWidth(w)} %`}`
    })
    out.push(`  in ${r.minutes} min (${r.rounds} rounds): ${parts.join(', ')}`)
  }
  const off = c.metrics.filter((m) => m.verdict === 'higher' || m.verdict === 'lower')
  if (off.length)
    out.push(
      `Identical targets were told apart at ${off.map((m) => LABEL[m.metric]).join(', ')}: something favours one position (order, warm-up, a cache); read comparisons on this machine with that in mind.`,
    )
  return out
}

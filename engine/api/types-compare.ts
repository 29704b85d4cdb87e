// A comparison of targets or runs: its metrics, verdicts, pairs and series (engine/metrics/compare.ts).

/** The metrics a comparison covers, in the order the compare view and the report list them. */
export const COMPARE_METRICS = ['throughput', 'mean', 'p50', 'p95', 'p99', 'p999', 'errorRate'] as const
export type CompareMetricName = (typeof COMPARE_METRICS)[number]

/**
 * How the other entry's figure stands against the baseline's, judged on the 95 % interval and a
 * practical-equivalence margin (± minEffect %): `higher`/`lower` when the whole interval lies beyond
 * the margin, `same` when it lies inside it, `inconclusive` when it crosses it, `too-few-rounds`
 * when there is no interval (engine/metrics/compare.ts states the method).
 */
export type CompareVerdict = 'higher' | 'lower' | 'same' | 'inconclusive' | 'too-few-rounds'

export interface CompareMetric {
  metric: CompareMetricName
  /**
   * Each side's centre over its rounds, the comparison's own statistic (named "geometric mean of
   * rounds" wherever it is shown, never a target's figure): the geometric mean of the rounds'
   * values (latency in µs, throughput in req/s), so that `change` is exactly other / baseline − 1;
   * for the error rate (a fraction) the plain mean of the rounds'. A target's own figures over its
   * rounds (all requests merged) are `RunSummary.overRounds`.
   */
  baseline: number
  other: number
  /** other / baseline − 1; null when the baseline is 0. */
  change: number | null
  /** The 95 % interval of `change`, on the same scale; null without one (too few rounds, baseline 0). */
  ci: [number, number] | null
  /**
   * The interval excludes no change (ratio 1): the direction is sure, though not whether it
   * matters (the verdict says that against the margin). Null when there is no interval.
   */
  excludesNoChange: boolean | null
  verdict: CompareVerdict
  /** Which side is better on this metric when the verdict is higher or lower. */
  better: 'baseline' | 'other' | null
  /**
   * How many rounds point the same way as the estimate, out of `of`, the same whichever side is
   * the baseline: paired, the pairs of rounds; unpaired, every round of both sides against the
   * midpoint of the two centres (engine/metrics/compare-metric.ts).
   */
  agree: { rounds: number; of: number }
  /** Plain words, e.g. "b's p50 is 3.90× a's (95 % CI 3.70–4.10×, all 5 rounds agree): higher". */
  sentence: string
}

export interface CompareEntry {
  runId: number
  target: string
  label: string
  rounds: number
}

export interface ComparePair {
  baseline: CompareEntry
  other: CompareEntry
  /** paired: round i with round i (interleaved rounds of one run); unpaired: Welch on the rounds. */
  design: 'paired' | 'unpaired'
  /** Latency compared as corrected for coordinated omission (both sides ran with a rate). */
  corrected: boolean
  metrics: CompareMetric[]
  /** What keeps this pair from being like for like (config, environment, generator), in words. */
  notes: string[]
}

/** One point of a curve: an entry that is a value of one thing (a sweep, sizes of one target). */
export interface CompareSeriesPoint {
  value: number
  runId: number
  target: string
  label: string
  rounds: number
  throughput: number
  p50: number
  p95: number
  p99: number
  errorRate: number
}

/** Entries that are values of one series, drawn as a curve against the value, not compared as rivals. */
export interface CompareSeries {
  /** What the value is: the swept config path's last part, or the targets' series name. */
  name: string
  lines: { name: string; points: CompareSeriesPoint[] }[]
}

export interface CompareResult {
  /** A few sentences a team lead can read: who is faster at the median and the tail, how sure, and any caveat, once. */
  headline: string
  /** The statistical method in words (stated once, under the table). */
  method: string
  /** The practical-equivalence margin, ± % (default 5). */
  minEffect: number
  entries: CompareEntry[]
  /** The chosen baseline: within a run, what each other target is held against; across runs, its run. */
  baseline: CompareEntry | null
  pairs: ComparePair[]
  /** Every caveat of the comparison, each once (they are in the headline too). */
  notes: string[]
  /** Each compared run's rounds: how many ran and why they stopped, in words (rounds-words.ts). */
  rounds: { runId: number; words: string }[]
  /** Set when the entries are values of one thing: then `pairs` is empty. */
  series: CompareSeries | null
}

// Studies: the settings a study sweeps, its list item, and its results per point (with scaling).
import type { SloMetric } from '../config/schema.ts'

/** One value of a sweep: a number, a word, true/false, or a set of target names. */
export type SweepValue = number | string | boolean | string[]

/** One setting a study sweeps (engine/config/sweep.ts). */
export interface StudyAxis {
  path: string
  /** Its name on charts and tables: `connections`, `iterations`, `stack`. */
  name: string
  values: SweepValue[]
  labels: string[]
  /** Every value a number: a scale, on which a knee can be found; else the values are categories. */
  numeric: boolean
}

export interface StudyListItem {
  studyId: number
  name: string
  /** The first setting swept and its values (`axes` lists a grid's second one too). */
  path: string
  values: SweepValue[]
  axes: StudyAxis[]
  /** How many runs the study makes: one per value, or per pair of values. */
  size: number
  runIds: number[]
  createdAt: string
}

export interface SweepPoint {
  /** Where the point sits on the first axis: the value when it is a number, else its index. */
  value: number
  /** The value as written: `64`, `node-cluster`, `java-jetty+node-http`. */
  label: string
  runId: number
  /** Throughput: the mean of the rounds; latency: all rounds' histograms merged. */
  throughput: number
  p50: number
  p95: number
  p99: number
  errorRate: number
  rounds: number
  /** Round-to-round spread: the rounds' relative standard deviation (0 with one round). */
  spread: { throughput: number; p99: number }
  /** The target's instances' CPU next to its throughput, when a monitor sampled them. */
  scaling?: ScalingPoint | null
  /** The target's monitors' figures over the run: what a study plots against throughput. */
  series?: SeriesFigure[]
  /** With a latency target: its percentile here (all rounds merged, µs), and whether it met it. */
  slo?: { latencyUs: number; met: boolean; roundsMet: number }
}

/**
 * One figure of a target's monitors over a run (engine/study/series.ts): `cpu_percent` and
 * `memory_bytes` (its instances summed), or a named series (the prometheus monitor's heap_bytes,
 * gc_pause_ratio, a query's own name; its unit is its Prometheus suffix: engine/metrics/units.ts
 * seriesUnit). The mean of the seconds the target was measured in that had a value.
 */
export interface SeriesFigure {
  metric: string
  mean: number
  /** How many seconds had a value. */
  seconds: number
}

/**
 * Throughput against CPU per instance count (engine/study/scaling.ts): what one run's target did
 * with the CPU of all its instances together. CPU in % of one core.
 */
export interface ScalingPoint {
  /** Instances that reported CPU (app containers of a stack with replicas, processes, CF instances). */
  instances: number
  /** The CPU one instance may use (its limit × 100 %), when the monitor knows it. */
  capacityPerInstance: number | null
  /** The highest CPU of all instances together in one second. */
  peakCpu: number
  /** peakCpu / (instances × capacityPerInstance): the share of the instances' CPU they used. */
  utilization: number | null
  /** The highest throughput in one second (requests/s). */
  peakThroughput: number
  /** Each second where every instance reported: its throughput and the instances' CPU together. */
  seconds: { t: number; throughput: number; cpu: number }[]
}

/** A study's latency target: a percentile and its limit in ms (the sweep's `slo: { p99: 50 }`). */
export interface StudySlo {
  metric: SloMetric
  ms: number
}

/**
 * The capacity of one line of a study under its latency target (engine/study/capacity.ts): the
 * value with the highest throughput whose percentile (all rounds merged) stayed under it.
 */
export interface Capacity {
  /** The value, as on the axis and as written; null (with `sentence`) when no value met the target. */
  value: number | null
  label: string | null
  runId: number | null
  /** Its throughput (the rounds' mean) and the 95 % t-interval over its rounds (null with one round). */
  throughput: number | null
  interval: [number, number] | null
  rounds: number
  /** Rounds whose own percentile was under the target too. */
  roundsMet: number
  /** Its percentile, all rounds merged, µs. */
  latencyUs: number | null
  /** The next value up, which broke the target (null: none did, or none was swept past it). */
  next: { label: string; latencyUs: number } | null
  sentence: string
}

export interface StudyResults {
  studyId: number
  name: string
  path: string
  values: SweepValue[]
  axes: StudyAxis[]
  /** How the knee is found, in words (engine/study/results.ts). */
  kneeRule: string
  /** The sweep's latency target, and how capacity under it is read (engine/study/capacity.ts). */
  slo: StudySlo | null
  capacityRule: string | null
  /**
   * One line per target (and, in a grid, per value of the second setting): the figures against
   * the first setting's values and the knee, in words too. The knee needs a numeric first axis.
   */
  targets: {
    target: string
    by: { value: SweepValue; label: string } | null
    points: SweepPoint[]
    knee: number | null
    sentence: string
    /** With a latency target: the highest throughput under it (null without one). */
    capacity: Capacity | null
  }[]
}

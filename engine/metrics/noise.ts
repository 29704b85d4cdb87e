// The noise a round ran in, named, and when a round counts as disturbed. Pure: the runner's parent
// measures (engine/runner/noise-meter.ts, from /proc, the runner and the monitors) and hands the
// figures in. The rule, stated once (README.md, "Noise"):
// - the host: the hypervisor took ≥ 5 % of the CPU (steal), or processes outside the run used
//   ≥ 25 % of the host's cores (a core of a 4-core host, half a core of a 2-core one): they took
//   time the generator and the targets would otherwise have had;
// - the result: the round's ratio of a pair (p50, p99 or throughput, the baseline against another
//   target) is a robust outlier among the run's rounds, |x − median| > 3.5 × 1.4826 × MAD of the
//   log-ratios (Iglewicz and Hoaglin's modified z-score), once the run has 5 rounds or more.
// A disturbed round is kept and shown, and counted in the verdict's words; `rounds.skipDisturbed`
// repeats it instead (it then stays out of the figures and the comparison).
import type { MachineLoad, RoundNoise, StatsBlock } from '../api/types.ts'

export const DISTURBANCE = {
  /** Steal at or above this share of the host's CPU time (%). */
  stealPercent: 5,
  /** Other processes' CPU at or above this share of the host's cores. */
  otherShare: 0.25,
  /** Modified z-score above which a round's log-ratio is an outlier. */
  outlierZ: 3.5,
  /** Rounds needed before a ratio can be called an outlier. */
  outlierRounds: 5,
} as const

/** Cores from CPU % (100 = one core): "1.30 cores", "0.45 cores". */
export function coresText(percent: number): string {
  const c = percent / 100
  return `${c.toFixed(2)} core${c === 1 ? '' : 's'}`
}

/** What the host did beside the run, as measured for one round (no verdict yet). */
export type MeasuredNoise = Omit<RoundNoise, 'disturbed' | 'reasons' | 'repeated'>

/** Why the host counts as busier than the rule allows, in words; empty when it does not. */
export function hostReasons(n: MeasuredNoise): string[] {
  const out: string[] = []
  const load = n.loadAverage === null ? '' : ` (load ${n.loadAverage.toFixed(1)} on ${n.cores} cores)`
  if (n.otherCpuPercent !== null && n.otherCpuPercent >= DISTURBANCE.otherShare * n.cores * 100)
    out.push(`other processes used ${coresText(n.otherCpuPercent)}${load}`)
  if (n.stealPercent !== null && n.stealPercent >= DISTURBANCE.stealPercent)
    out.push(`the hypervisor took ${n.stealPercent.toFixed(1)} % of the CPU (steal)`)
  return out
}

/** A round's noise with the host rule applied (the outlier rule needs the other rounds: outlierRounds). */
export function judgeHost(n: MeasuredNoise): RoundNoise {
  const reasons = hostReasons(n)
  return { ...n, disturbed: reasons.length > 0, reasons, repeated: false }
}

const HEADLINE = ['p50', 'p99', 'throughput'] as const

function headlineValue(metric: (typeof HEADLINE)[number], r: StatsBlock): number | null {
  if (metric === 'throughput') return r.throughput > 0 ? r.throughput : null
  return r.latency.count > 0 && r.latency[metric] > 0 ? r.latency[metric] : null
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}

/** Indexes of the robust outliers of xs (modified z-score), none below DISTURBANCE.outlierRounds values. */
export function robustOutliers(xs: readonly number[]): number[] {
  if (xs.length < DISTURBANCE.outlierRounds) return []
  const m = median(xs)
  const mad = median(xs.map((x) => Math.abs(x - m)))
  if (mad === 0) return []
  return xs.flatMap((x, i) => (Math.abs(x - m) / (1.4826 * mad) > DISTURBANCE.outlierZ ? [i] : []))
}

export interface RoundsOf {
  target: string
  rounds: readonly (StatsBlock & { round: number })[]
}

/**
 * Rounds whose ratio against the baseline (the first entry) is a robust outlier, with why in
 * words: round → reasons. Each pair and headline metric on its own, over the rounds both sides have.
 */
export function outlierRounds(targets: readonly RoundsOf[]): Map<number, string[]> {
  const out = new Map<number, string[]>()
  const [base, ...others] = targets
  if (!base) return out
  const byRound = new Map(base.rounds.map((r) => [r.round, r]))
  for (const other of others) {
    for (const metric of HEADLINE) {
      const rounds: number[] = []
      const xs: number[] = []
      for (const r of other.rounds) {
        const b = byRound.get(r.round)
        const x = headlineValue(metric, r)
        const y = b ? headlineValue(metric, b) : null
        if (x === null || y === null) continue
        rounds.push(r.round)
        xs.push(Math.log(x / y))
      }
      const m = median(xs)
      for (const i of robustOutliers(xs)) {
        const round = rounds[i]!
        const ratio = Math.exp(xs[i]!)
        const words = `${other.target}/${base.target} ${metric} ${ratio.toFixed(2)}× is an outlier (median ${Math.exp(m).toFixed(2)}×)`
        out.set(round, [...(out.get(round) ?? []), words])
      }
    }
  }
  return out
}

/** How many of a run's rounds were disturbed, and the worst host reading, in words; null when none. */
export function noiseWords(
  rounds: readonly { round: number; noise?: RoundNoise | null }[],
  skipDisturbed: boolean,
): string | null {
  const all = new Set(rounds.map((r) => r.round))
  const hit = new Map<number, RoundNoise[]>()
  for (const r of rounds) if (r.noise?.disturbed) hit.set(r.round, [...(hit.get(r.round) ?? []), r.noise])
  if (hit.size === 0) return null
  const noises = [...hit.values()].flat()
  const busiest = noises.reduce<RoundNoise | null>(
    (a, n) => (a === null || (n.otherCpuPercent ?? -1) > (a.otherCpuPercent ?? -1) ? n : a),
    null,
  )
  const why = busiest?.reasons[0] ?? noises.flatMap((n) => n.reasons)[0] ?? 'disturbed'
  const what = skipDisturbed ? 'repeated, left out of the figures' : 'kept in the figures'
  return `${hit.size} of ${all.size} round${all.size === 1 ? '' : 's'} disturbed (${what}): ${why}`
}

/** "node 130 %, postgres 40 %": what used the CPU, 100 % = one core. */
export function topWords(top: MachineLoad['top']): string {
  return top
    .filter((p) => p.cpuPercent >= 1)
    .map((p) => `${p.name} ${Math.round(p.cpuPercent)} %`)
    .join(', ')
}

/** The machine before a run, said plainly when it is busier than its cores; null otherwise. */
export function machineWords(m: Omit<MachineLoad, 'words'>): string | null {
  if (!m.busy) return null
  const load = m.loadAverage === null ? '' : `load average ${m.loadAverage.toFixed(1)} on ${m.cores} cores`
  const cpu = m.busyPercent === null ? '' : `${coresText(m.busyPercent)} busy`
  const what = topWords(m.top)
  return `This machine is busier than its cores before the run: ${[load, cpu].filter(Boolean).join(', ')}${what ? ` (using the CPU: ${what})` : ''}. Its figures will carry that noise: rounds it disturbs are marked, and a quieter machine gives narrower intervals.`
}

/** The columns of a round's noise as every screen prints them (the CLI, the run page, the PDF). */
export const NOISE_COLUMNS = [
  'load',
  'other CPU',
  'steal',
  'generator CPU',
  'send lag p99',
  'target CPU',
  'disturbed',
] as const

const pct = (v: number | null, digits = 0): string => (v === null ? '–' : `${v.toFixed(digits)} %`)

/** One round's noise in the cells of NOISE_COLUMNS (CPU: 100 % = one core). */
export function noiseCells(n: RoundNoise | null | undefined): string[] {
  if (!n) return NOISE_COLUMNS.map(() => '–')
  const target =
    n.targetCpuPercent === null
      ? '–'
      : `${pct(n.targetCpuPercent)}${n.targetCpuLimitPercent ? ` of ${pct(n.targetCpuLimitPercent)}` : ''}`
  return [
    n.loadAverage === null ? '–' : `${n.loadAverage.toFixed(1)} / ${n.cores}`,
    pct(n.otherCpuPercent),
    pct(n.stealPercent, 1),
    pct(n.generatorCpuPercent),
    n.sendLagMs === null ? '–' : `${n.sendLagMs.toFixed(2)} ms`,
    target,
    n.repeated ? 'repeated' : n.disturbed ? 'yes' : 'no',
  ]
}

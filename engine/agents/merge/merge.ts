// The merged run is the sum of its agents: per second and per segment their counters are added
// and their HDR histograms added bucket by bucket (metrics/encoded.ts), so every figure is what one
// process recording every request would have reported. Pure functions: rows in, figures out.
import type {
  PhaseSummary,
  ScheduleStats,
  SeriesPoint,
  StepSummary,
  TargetRoundSummary,
} from '../../api/types.ts'
import type { Segment } from '../../config/segments.ts'
import { secondPoint, StatsAccumulator } from '../../metrics/accumulate.ts'
import { addStats, checkSettings } from '../../metrics/encoded.ts'
import { addSkipped, skippedByStep } from '../../metrics/skipped.ts'
import {
  decodeHistogram,
  EMPTY_STATS,
  encodeHistogram,
  latencyStats,
  newHistogram,
  type Histogram,
} from '../../metrics/hdr.ts'
import type { AgentSecondRow, AgentSegmentRow } from '../coordination/protocol.ts'

export interface MergedSecond {
  point: SeriesPoint
  /** Index of the point's phase. */
  phase: number
  statusJson: string
}

/** One second of one segment from the agents that reported it. */
export function mergeSecond(
  seg: Segment,
  phases: readonly string[],
  rows: readonly AgentSecondRow[],
): MergedSecond {
  const acc = new StatsAccumulator()
  try {
    let connections = 0
    let phase = 0
    let cpu: number | null = null
    for (const r of rows) {
      const s = r.second
      addStats(acc, s.stats, `agent ${r.index}, segment ${s.segment}, second ${s.t}`)
      connections += s.connections
      // Agents of a request-bound profile may be in different phases: the latest one names it.
      phase = Math.max(phase, s.phase)
      if (s.generatorCpu !== null) cpu = Math.max(cpu ?? 0, s.generatorCpu)
    }
    // As one process's writer counts a second (engine/runner/writer.ts).
    const { point, status } = secondPoint(acc, latencyStats(acc.latency, acc.exact.latency), {
      target: seg.target,
      round: seg.round,
      t: rows[0]?.second.t ?? 0,
      phase: phases[phase] ?? 'main',
      connections,
      // The busiest agent's load thread: each agent's saturation is judged on its own.
      generatorCpu: cpu,
    })
    point.agents = rows.length
    return { point, phase, statusJson: JSON.stringify(status) }
  } finally {
    acc.destroy()
  }
}

/**
 * One segment's summary from the agents' segment rows. An agent lost before it sent its segment
 * counts with the seconds it did report (`partialSeconds`): what it measured is kept.
 */
export function mergeSegment(
  seg: Segment,
  phases: readonly string[],
  stepNames: readonly string[],
  rows: readonly AgentSegmentRow[],
  partialSeconds: readonly AgentSecondRow[] = [],
): TargetRoundSummary {
  const total = new StatsAccumulator()
  const byPhase: (StatsAccumulator | undefined)[] = []
  const bySteps: (StatsAccumulator | undefined)[] = []
  const phaseSeconds: number[] = []
  let seconds = 0
  try {
    for (const r of rows) {
      const e = r.segment
      const who = `agent ${r.index}, segment ${e.segment}`
      addStats(total, e.total, who)
      e.phases.forEach(
        (p, i) => p && addStats((byPhase[i] ??= new StatsAccumulator()), p, `${who}, phase ${i}`),
      )
      e.steps?.forEach(
        (p, i) => p && addStats((bySteps[i] ??= new StatsAccumulator()), p, `${who}, step ${i}`),
      )
      seconds = Math.max(seconds, e.seconds)
      e.phaseSeconds.forEach((s, i) => (phaseSeconds[i] = Math.max(phaseSeconds[i] ?? 0, s)))
    }
    const counted = new Map<number, number>()
    for (const r of partialSeconds) {
      const s = r.second
      const who = `agent ${r.index}, segment ${s.segment}, second ${s.t}`
      addStats(total, s.stats, who)
      addStats((byPhase[s.phase] ??= new StatsAccumulator()), s.stats, who)
      counted.set(r.index, (counted.get(r.index) ?? 0) + 1)
    }
    for (const n of counted.values()) seconds = Math.max(seconds, n)
    const phaseBlocks: PhaseSummary[] = []
    byPhase.forEach((acc, i) => {
      if (acc) phaseBlocks.push({ phase: phases[i] ?? 'main', ...acc.toBlock(phaseSeconds[i] ?? seconds) })
    })
    // Each agent counted the passes its own connections skipped: together, the run's.
    const skipped = skippedByStep(stepNames, addSkipped(rows.map((r) => r.segment.skipped)))
    const steps: StepSummary[] | undefined = stepNames.length
      ? stepNames.map((step, i) => ({
          step,
          ...(bySteps[i] ??= new StatsAccumulator()).toBlock(seconds),
          ...(skipped[i] ? { skipped: skipped[i] } : {}),
        }))
      : undefined
    return {
      target: seg.target,
      round: seg.round,
      ...total.toBlock(seconds),
      phases: phaseBlocks,
      ...(steps ? { steps } : {}),
      histogram: encodeHistogram(total.latency),
      correctedHistogram: total.corrected ? encodeHistogram(total.corrected) : null,
      connect: mergeConnect(rows),
      schedule: mergeSchedule(rows),
      // Each agent counted the headers of its own connections: together, the run's.
      serverTimingInvalid: rows.reduce((n, r) => n + (r.segment.serverTimingInvalid ?? 0), 0),
    }
  } finally {
    total.destroy()
    for (const a of [...byPhase, ...bySteps]) a?.destroy()
  }
}

/** The sum of encoded histograms (settings checked), or null when there is none. */
function sumHistograms(encoded: readonly { h: string; who: string }[]): Histogram | null {
  if (!encoded.length) return null
  const sum = newHistogram()
  for (const { h, who } of encoded) {
    checkSettings(h, who)
    const one = decodeHistogram(h)
    sum.add(one)
    one.destroy()
  }
  return sum
}

/** Every agent's connect times in one distribution, as one process opening them all would report. */
function mergeConnect(rows: readonly AgentSegmentRow[]): TargetRoundSummary['connect'] {
  const sum = sumHistograms(
    rows.flatMap((r) =>
      r.segment.connect ? [{ h: r.segment.connect, who: `agent ${r.index}, connect times` }] : [],
    ),
  )
  if (!sum) return null
  try {
    return latencyStats(sum)
  } finally {
    sum.destroy()
  }
}

/**
 * Rate mode: the agents' parts of the one send schedule (agent i sent slots i, i + N, …) add up to
 * it. Peak connections is the sum of each agent's peak: the most the agents could have had busy
 * at once.
 */
function mergeSchedule(rows: readonly AgentSegmentRow[]): ScheduleStats | null {
  const parts = rows.flatMap((r) => (r.segment.schedule ? [{ s: r.segment.schedule, index: r.index }] : []))
  if (!parts.length) return null
  const sum = (k: 'scheduled' | 'sent' | 'unsent' | 'late' | 'peakConnections') =>
    parts.reduce((a, p) => a + p.s[k], 0)
  const lateness = sumHistograms(
    parts.flatMap((p) => (p.s.lateness ? [{ h: p.s.lateness, who: `agent ${p.index}, send lateness` }] : [])),
  )
  try {
    return {
      scheduled: sum('scheduled'),
      sent: sum('sent'),
      unsent: sum('unsent'),
      late: sum('late'),
      peakConnections: sum('peakConnections'),
      lateness: lateness ? latencyStats(lateness) : { ...EMPTY_STATS },
    }
  } finally {
    lateness?.destroy()
  }
}

// A run's rounds in the terminal: how many ran and why they stopped, the order they ran in (and a
// randomized schedule's seed), how busy the machine was as it started, and what shared the machine
// with each round: the words and cells the run page and the report use (engine/metrics/).
import type { RoundNoise, RunSummary, TargetRoundSummary } from '../api/types.ts'
import { NOISE_COLUMNS, noiseCells } from '../metrics/noise.ts'
import { orderWords } from '../metrics/rounds-words.ts'
import { formatTable } from './table.ts'

/** The `noise` of a target's round in `--json` (README.md): its figures and whether it was disturbed. */
export function noiseJson(n: RoundNoise | null | undefined) {
  if (!n) return null
  return {
    loadAverage: n.loadAverage,
    stealPercent: n.stealPercent,
    otherCpuPercent: n.otherCpuPercent,
    generatorCpuPercent: n.generatorCpuPercent,
    disturbed: n.disturbed,
    cores: n.cores,
    sendLagMs: n.sendLagMs,
    targetCpuPercent: n.targetCpuPercent,
    targetCpuLimitPercent: n.targetCpuLimitPercent,
    reasons: n.reasons,
    repeated: n.repeated,
  }
}

/** The rounds in a few lines: stop, order, noise, the machine as the run started. */
export function roundsLines(
  s: Pick<RunSummary, 'rounds' | 'machine' | 'results'>,
  targets: number,
): string[] {
  const r = s.rounds
  const out = [`rounds: ${r.stop}`]
  if (targets > 1 && r.orders.length > 1) {
    const shown = r.orders.slice(0, 12).map((o) => `${o.round}: ${o.targets.join(' → ')}`)
    const more = r.orders.length > 12 ? ` … (${r.orders.length - 12} more)` : ''
    out.push(`order: ${orderWords(r)}; ${shown.join(' · ')}${more}`)
  }
  if (r.noise) out.push(`noise: ${r.noise}`)
  if (s.machine?.words) out.push(`warning: ${s.machine.words}`)
  return out
}

/** Per target and round, what shared the machine (runs show). */
export function noiseTable(results: readonly TargetRoundSummary[]): string {
  const rows = [...results]
    .filter((r) => r.noise)
    .sort((a, b) => a.round - b.round || (a.segment ?? 0) - (b.segment ?? 0))
    .map((r) => [r.target, String(r.round), ...noiseCells(r.noise)])
  if (rows.length === 0) return ''
  const head = ['TARGET', 'ROUND', ...NOISE_COLUMNS.map((c) => c.toUpperCase())]
  return formatTable(
    head,
    rows,
    head.map((_, i) => i).filter((i) => i >= 1 && i < head.length - 1),
  )
}

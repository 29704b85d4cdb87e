// Markdown pieces of docs/results.md, and the figures in the words and units the app shows them
// with (renderer/src/lib/format.ts: the study page's and the compare page's formatting), so a number
// in the doc reads as the same number on the page its chart comes from.
import type { CompareMetric, CompareMetricName, CompareResult, SweepPoint } from '../../engine/api/types.ts'
import {
  fmtEffect,
  fmtMargin,
  METRIC_LABEL,
  metricCells,
  verdictWord,
} from '../../engine/metrics/compare-words.ts'
import { fmtWidth, halfWidthPercent } from '../../engine/metrics/stopping.ts'
import { maxRounds, roundsPlan } from '../../engine/config/rounds.ts'
import { roundsSettingWords } from '../../engine/metrics/rounds-words.ts'
import { ms, percent, rate } from '../../renderer/src/lib/format.ts'
import { num, type Result } from './figures.ts'

/** A markdown table; cells may hold `|` (escaped here). */
export function table(head: readonly string[], rows: readonly (readonly string[])[]): string {
  const cell = (s: string) => s.replaceAll('|', '\\|')
  const line = (r: readonly string[]) => `| ${r.map(cell).join(' | ')} |`
  return [line(head), line(head.map(() => '---')), ...rows.map(line)].join('\n')
}

/** The study's own words, quoted, with where they are. */
export function quote(where: string, text: string): string {
  return `> ${text}\n>\n> — ${where}`
}

/** A target's points on the study page (its one line: these studies sweep one setting). */
export function pointsOf(r: Result, target: string): SweepPoint[] {
  return r.study?.targets.find((t) => t.target === target)?.points ?? []
}

/** The study CSV's row for a target at a value (its label as the study page writes it). */
export function rowOf(r: Result, target: string, label: string): Record<string, string> | undefined {
  return r.studyRows.find((x) => x.target === target && x.value === label)
}

/** A CSV latency column (µs) in the app's ms. */
export const csvMs = (row: Record<string, string> | undefined, key: string): string => {
  const v = num(row?.[key])
  return v === null ? '–' : ms(v)
}

/** A sweep point's row as the study page shows it: value, throughput, the latencies named, error rate. */
export function pointCells(p: SweepPoint, latencies: readonly ('p50' | 'p95' | 'p99')[]): string[] {
  return [p.label, rate(p.throughput), ...latencies.map((k) => ms(p[k])), percent(p.errorRate * 100)]
}

/** The study CSV's mean app CPU at a point, or a dash. */
export function cpuCell(row: Record<string, string> | undefined): string {
  const cpu = num(row?.target_cpu_mean_percent)
  return cpu === null ? '–' : percent(cpu)
}

/** How the run went on this machine: its runs, when, how loaded the machine was, and any caveat. */
export function runLine(r: Result): string {
  const first = r.runs[0]!
  const ids =
    r.found.studyId !== null
      ? `Study ${r.found.studyId} (runs ${r.found.runIds.join(', ')})`
      : `Run ${first.runId}`
  const when = first.startedAt.slice(0, 16).replace('T', ' ')
  const cores = r.judgement.cores ?? r.gate?.cores
  const on = cores ? ` on ${cores} cores` : ''
  const loads = r.load.flatMap((l) => [l.start, l.end])
  const load = loads.length
    ? `; load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} at its runs' starts and ends${on}`
    : ''
  const saturated = r.runs.filter((x) => x.generator.saturated).length
  const notDone = r.runs.filter((x) => x.status !== 'done')
  const caveats = [
    saturated ? `the load generator was saturated in ${saturated} of ${r.runs.length} runs` : '',
    notDone.length ? `not complete: ${notDone.map((x) => `run ${x.runId} ${x.status}`).join(', ')}` : '',
    r.runs.some((x) => x.warnings.length)
      ? 'a monitor could not read its source in some runs (see each run page)'
      : '',
  ].filter(Boolean)
  return `${ids}, started ${when} UTC${load}. ${r.judgement.words}${caveats.length ? ` **Caveats:** ${caveats.join('; ')}.` : ''}`
}

/**
 * The mark of a section measured while the machine was busier than its cores (bench/results/quiet.ts):
 * a line above everything else of it, and the start of its cell in the summary table. Empty otherwise.
 */
export function busyMark(r: Result): string {
  return r.judgement.busy
    ? `> **Not evidence: the machine was busier than its cores while this was measured.** ${r.judgement.words} What follows is printed as measured; read no comparison in it as a result.`
    : ''
}

/** How many rounds each run of the experiment made and why they stopped (the run's own sentence). */
export function roundsLine(r: Result, label?: (runId: number) => string): string {
  const lines = r.runs.map((run) => {
    const who = r.runs.length > 1 ? `${label ? label(run.runId) : `run ${run.runId}`}: ` : ''
    return `${who}${run.rounds.stop}${run.rounds.noise ? ` (${run.rounds.noise})` : ''}`
  })
  return `**Rounds.** ${lines.join('; ')}.`
}

/** Which way a compared metric was decided, or that it was not. */
export function decision(m: CompareMetric | undefined): 'higher' | 'lower' | 'same' | 'unresolved' {
  if (!m) return 'unresolved'
  return m.verdict === 'higher' || m.verdict === 'lower' || m.verdict === 'same' ? m.verdict : 'unresolved'
}

/**
 * A comparison decided (faster, slower, more or fewer req/s, the same within the margin), or below
 * what this machine can resolve in the rounds it had: its interval wider than the margin it must
 * clear. An interval narrow enough yet across the margin is a difference about the margin's size,
 * said as such. `rounds` is how many rounds it rests on.
 */
export function decisionWords(m: CompareMetric | undefined, minEffect: number, rounds: number): string {
  if (!m) return 'not compared'
  const n = `${rounds} round${rounds === 1 ? '' : 's'}`
  if (decision(m) !== 'unresolved') return `decided in ${n}: ${verdictWord(m, minEffect)}`
  if (!m.ci) return `below what this machine can resolve: no interval from ${n}`
  const half = halfWidthPercent(m.ci)
  return half <= minEffect
    ? `not decided in ${n}: a difference about the size of the ±${fmtMargin(minEffect)} margin (interval ±${fmtWidth(half)} %)`
    : `below what this machine can resolve in ${n} (interval ±${fmtWidth(half)} %, a decision needs it narrower than the ±${fmtMargin(minEffect)} margin)`
}

/** The rounds a pair's comparison rests on: its entries' fewest. */
export function pairRounds(c: CompareResult | undefined): number {
  const p = c?.pairs[0]
  return p ? Math.min(p.baseline.rounds, p.other.rounds) : 0
}

/** A pair's headline metrics (throughput, p50, p99) each decided or below resolution, one line each. */
export function verdictLines(c: CompareResult | undefined): string {
  const p = c?.pairs[0]
  if (!c || !p) return ''
  const rounds = pairRounds(c)
  const lines = (['throughput', 'p50', 'p99'] as const).map((name) => {
    const m = p.metrics.find((x) => x.metric === name)
    return `- ${METRIC_LABEL[name]}: ${m ? `${p.other.label} at ${fmtEffect(m)} of ${p.baseline.label}'s, ` : ''}${decisionWords(m, c.minEffect, rounds)}`
  })
  return `**Verdict**, ${p.other.label} against ${p.baseline.label}:\n\n${lines.join('\n')}`
}

/** The markdown of an image the script drew. */
export const image = (alt: string, path: string | undefined): string => (path ? `![${alt}](${path})` : '')

/** A pair's metric from a comparison of a run's targets. */
export function metricOf(c: CompareResult | undefined, name: CompareMetricName): CompareMetric | undefined {
  return c?.pairs[0]?.metrics.find((m) => m.metric === name)
}

/** The compare page's table of a pair, as the page words it (engine/metrics/compare-words.ts). */
export function pairTable(c: CompareResult): string {
  const p = c.pairs[0]
  if (!p) return ''
  return table(
    ['metric', p.baseline.label, p.other.label, 'ratio (95 % CI)', 'rounds agreeing', 'verdict'],
    p.metrics.map((m) => metricCells(m, c.minEffect)),
  )
}

/** Each run of a study against its first, on one metric, as the compare page words it. */
export function acrossText(
  c: CompareResult | null,
  name: CompareMetricName,
  label: (runId: number) => string,
): string {
  if (!c) return '–'
  return (
    c.pairs
      .map((p) => {
        const m = p.metrics.find((x) => x.metric === name)
        return m
          ? `${label(p.other.runId)} against ${label(p.baseline.runId)}: ${fmtEffect(m)}, ${decisionWords(m, c.minEffect, Math.min(p.baseline.rounds, p.other.rounds))}`
          : ''
      })
      .filter(Boolean)
      .join('; ') || 'no pair to compare (a run without responses)'
  )
}

/** How the experiment's runs were shaped, from their config: "3 rounds of 30 s after a 5 s warm-up". */
export function lengthWords(r: Result): string {
  const c = r.runs[0]!.config
  const p = c.load.profile
  const seconds =
    p.kind === 'phases' ? p.phases.reduce((s, ph) => s + (ph.duration ?? 0), 0) : c.load.duration
  const warm = c.load.warmupSeconds ? ` after a ${c.load.warmupSeconds} s warm-up` : ''
  const restart = c.sweep?.warmupSeconds ? `, ${c.sweep.warmupSeconds} s of warm-up after each restart` : ''
  // The rounds the runs made (rounds until precise decide how many as they go), and how they were set.
  const made = r.runs.map((x) => x.rounds.round || maxRounds(x.config))
  const [lo, hi] = [Math.min(...made), Math.max(...made)]
  const plan = roundsPlan(c)
  const count = lo === hi ? `${lo} round${lo === 1 ? '' : 's'}` : `${lo}–${hi} rounds`
  const rounds = plan.adaptive ? `${count} (${roundsSettingWords(plan)})` : count
  const order =
    c.targets.length < 2 || c.schedule === 'sequential'
      ? ''
      : c.schedule === 'randomized'
        ? ', each round in a random order'
        : ', interleaved'
  return `${rounds} of ${Number((seconds ?? 0).toFixed(1))} s${warm}${order}${restart}`
}

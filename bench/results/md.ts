// Markdown pieces of docs/results.md, and the figures in the words and units the app shows them
// with (renderer/src/lib/format.ts: the study page's and the compare page's formatting), so a number
// in the doc reads as the same number on the page its chart comes from.
import type { CompareMetric, CompareMetricName, CompareResult, SweepPoint } from '../../engine/api/types.ts'
import { fmtEffect, metricCells, verdictWord } from '../../engine/metrics/compare-words.ts'
import { ms, percent, rate } from '../../renderer/src/lib/format.ts'
import { num, type Result } from './figures.ts'
import { maxRounds } from '../../engine/config/rounds.ts'

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
  const loads = r.load.flatMap((l) => [l.start, l.end])
  const load = loads.length
    ? `; load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} while it ran (2 cores)`
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
  return `${ids}, started ${when} UTC${load}.${caveats.length ? ` **Caveats:** ${caveats.join('; ')}.` : ''}`
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

/** Which way a ratio's interval points: above 1, below 1, or across it (no interval: the estimate). */
export function direction(m: CompareMetric | undefined): 'above' | 'below' | 'unclear' {
  if (!m || m.change === null) return 'unclear'
  const [lo, hi] = m.ci ?? [m.change, m.change]
  return lo > 0 ? 'above' : hi < 0 ? 'below' : 'unclear'
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
          ? `${label(p.other.runId)} against ${label(p.baseline.runId)}: ${fmtEffect(m)}, ${verdictWord(m, c.minEffect)}`
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
  // The rounds the run made (rounds until precise decide how many as they go).
  const made = r.runs[0]!.rounds.round || maxRounds(c)
  const rounds = `${made} round${made === 1 ? '' : 's'}`
  const order =
    c.targets.length < 2 || c.schedule === 'sequential'
      ? ''
      : c.schedule === 'randomized'
        ? ', each round in a random order'
        : ', interleaved'
  return `${rounds} of ${Number((seconds ?? 0).toFixed(1))} s${warm}${order}${restart}`
}

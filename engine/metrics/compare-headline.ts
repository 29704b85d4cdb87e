// The comparison's opening sentences, for someone who reads nothing else: which entry is faster at
// the median (p50) and at the tail (p99), by how much, how sure, and what made the comparison
// unfair if anything did. Every caveat appears once; the per-metric words are in the table.
import type { CompareMetric, ComparePair } from '../api/types.ts'
import { MIN_ROUNDS } from './compare-metric.ts'
import { fmtAgree, fmtMargin, fmtMetricValue, fmtRatio, fmtRatioRange, verdictName } from './compare-words.ts'

/** The method in words, stated once wherever a comparison is shown (CLI footer, app, PDF). */
export function methodText(minEffect: number): string {
  const m = `±${fmtMargin(minEffect)}`
  return [
    'Method: each round is one observation.',
    'Two targets whose rounds ran interleaved in one run are paired round by round: the ratio is exp of the mean per-round log-ratio, with a t-interval (rounds − 1 degrees of freedom).',
    "Otherwise (different runs, sequential rounds, different round counts) Welch's interval on the rounds' log values.",
    "A run that made rounds until precise is compared as its stopping rule judged it: the ratio is exp of the 20 % trimmed mean of its per-round log-ratios, with Yuen's interval at Student's 99 % quantile (a disturbed round weighs no more than the rounds trimmed; under that rule the interval still covers the truth 95 % of the time).",
    "The figures beside each label are the comparison's own: the geometric mean of the rounds' values (the error rate: their mean), not the target's figures over its rounds (every request merged) that the tables above show. The 95 % CI is exp of the interval's bounds.",
    `Verdict: faster or slower when the whole interval lies beyond ${m} (the smallest difference that matters, configurable), same when it lies inside ${m}, inconclusive when it crosses ${m} (even if it excludes 1×: the direction is sure, not whether it matters).`,
    'Rounds agreeing: paired, the pairs of rounds that point the way of the estimate; unpaired, the rounds of both sides that lie on their side of the midpoint between the two figures (the same count whichever side is the baseline).',
    `Error rates are compared as a difference in percentage points (margin ${m} of the baseline's rate, at least 0.1 point).`,
    `An interval needs ${MIN_ROUNDS} rounds per target.`,
  ].join(' ')
}

export function notEnoughRounds(): string {
  return `Not enough rounds for an interval: give each target ${MIN_ROUNDS} rounds or more (rounds: ${MIN_ROUNDS}, schedule: randomized) to know how sure these differences are.`
}

const metricOf = (p: ComparePair, name: CompareMetric['metric']): CompareMetric | undefined =>
  p.metrics.find((m) => m.metric === name)

function detail(m: CompareMetric, label: string): string {
  const r = m.change === null ? '–' : fmtRatio(1 + m.change)
  if (!m.ci) return `${label} ${r}`
  return `${label} ${r}, 95 % CI ${fmtRatioRange(1 + m.ci[0], 1 + m.ci[1])}, ${fmtAgree(m.agree)}`
}

/** A verdict in the headline, in the word the table shows (verdictName). */
function phrase(m: CompareMetric, base: string, minEffect: number): string {
  const word = verdictName(m)
  switch (m.verdict) {
    case 'higher':
    case 'lower':
      return `${word} than ${base}`
    case 'same':
      return `the ${word} as ${base} within ±${fmtMargin(minEffect)}`
    case 'inconclusive':
      return `${word} against ${base} (the interval crosses ±${fmtMargin(minEffect)})`
    case 'too-few-rounds':
      return word
  }
}

/** One pair in one or two sentences. */
function pairSentence(p: ComparePair, minEffect: number): string {
  const o = p.other.label
  const b = p.baseline.label
  const p50 = metricOf(p, 'p50')
  const p99 = metricOf(p, 'p99')
  const out: string[] = []
  if (!p50 || !p99) out.push(`${o} and ${b} have no answered requests to compare latency on.`)
  else if (p50.verdict === 'too-few-rounds' || p99.verdict === 'too-few-rounds') {
    const r = (m: CompareMetric) => (m.change === null ? '–' : fmtRatio(1 + m.change))
    out.push(`${o}'s p50 is ${r(p50)} ${b}'s and its p99 ${r(p99)} (${verdictName(p50)}).`)
  } else {
    const a = phrase(p50, b, minEffect)
    const c = phrase(p99, b, minEffect)
    out.push(
      p50.verdict === p99.verdict
        ? `${o} is ${a} at the median (${detail(p50, 'p50')}) and at the tail (${detail(p99, 'p99')}).`
        : `${o} is ${a} at the median (${detail(p50, 'p50')}), and ${c} at the tail (${detail(p99, 'p99')}).`,
    )
  }
  const err = metricOf(p, 'errorRate')
  if (err && (err.verdict === 'higher' || err.verdict === 'lower')) {
    out.push(
      `${o} fails ${fmtMetricValue('errorRate', err.other)} of requests, ${b} ${fmtMetricValue('errorRate', err.baseline)}.`,
    )
  }
  return out.join(' ')
}

/** "is slower" / "are slower", from the verdict's word. */
function groupWords(m: CompareMetric): [string, string] {
  const word = verdictName(m)
  if (m.verdict === 'same') return [`is the ${word}`, `are the ${word}`]
  if (m.verdict === 'too-few-rounds') return [`has ${word}`, `have ${word}`]
  return [`is ${word}`, `are ${word}`]
}

/** Many pairs: at the median and at the tail, who is slower, faster, the same, or unclear. */
function groupedSentences(pairs: readonly ComparePair[], minEffect: number): string[] {
  const bases = new Set(pairs.map((p) => p.baseline.label))
  const oneBase = bases.size === 1 ? [...bases][0]! : null
  return (['p50', 'p99'] as const).map((name) => {
    const groups = new Map<string, { m: CompareMetric; items: string[] }>()
    for (const p of pairs) {
      const m = metricOf(p, name)
      if (!m) continue
      const who = oneBase ? p.other.label : `${p.other.label} against ${p.baseline.label}`
      const item = m.change === null ? who : `${who} (${fmtRatio(1 + m.change)})`
      const group = groups.get(m.verdict) ?? { m, items: [] }
      groups.set(m.verdict, { m: group.m, items: [...group.items, item] })
    }
    const parts = [...groups.values()].map(({ m, items }) => {
      const [one, many] = groupWords(m)
      const extra = m.verdict === 'same' ? ` within ±${fmtMargin(minEffect)}` : ''
      return `${items.length > 1 ? `${items.slice(0, -1).join(', ')} and ${items.at(-1)}` : items[0]} ${items.length > 1 ? many : one}${extra}`
    })
    const where = name === 'p50' ? 'At the median (p50)' : 'At the tail (p99)'
    return `${where}${oneBase ? `, against ${oneBase}` : ''}: ${parts.join('; ')}.`
  })
}

/** The headline: the pairs (one sentence each, or grouped when there are many), then each caveat once. */
export function pairsHeadline(
  pairs: readonly ComparePair[],
  notes: readonly string[],
  minEffect: number,
): string {
  const body =
    pairs.length === 0
      ? []
      : pairs.length <= 2
        ? pairs.map((p) => pairSentence(p, minEffect))
        : groupedSentences(pairs, minEffect)
  if (pairs.length === 0 && notes.length === 0) body.push('Nothing to compare.')
  return [...body, ...notes].join(' ')
}

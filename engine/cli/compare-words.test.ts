// A verdict has one word (engine/metrics/compare-words.ts verdictName), and the headline, the
// pairs table (CLI, app, PDF), the JSON and the report's HTML all say it. The case the issue met:
// an interval that excludes 1× but crosses the margin is "inconclusive" everywhere, never "faster
// … but perhaps by less" in the headline beside "inconclusive" in the table.
import { describe, expect, it } from 'vitest'
import type { CompareResult } from '../api/types.ts'
import { compareRuns } from '../metrics/compare.ts'
import { verdictName, verdictWord } from '../metrics/compare-words.ts'
import { pairsTable as reportPairs } from '../report/comparison.ts'
import { A, B, run } from '../testing/compare-rounds.ts'
import { compareJson, formatComparison } from './compare.ts'

/** base against one other target whose per-round p50s the test sets (paired, interleaved). */
function against(p50s: number[], minEffect = 10): CompareResult {
  return compareRuns(
    [
      run(1, [
        { name: 'base', p50s: A.slice(0, p50s.length) },
        { name: 'other', p50s },
      ]),
    ],
    { minEffect },
  )
}

const CASES: [string, number[]][] = [
  ['slower', B],
  ['faster', A.map((x) => x / 2)],
  ['same', A.map((x, i) => x * (1 + (i % 2 ? 0.004 : 0.002)))],
  // about 0.82–0.98×: surely faster, but perhaps by less than ±10 %.
  ['inconclusive', A.map((x, i) => x * [0.82, 0.98, 0.88, 0.95, 0.85][i]!)],
  ['no interval', A.slice(0, 2).map((x) => x * 2)],
]

describe('one word per verdict', () => {
  it.each(CASES)('%s: the headline, the CLI table, the JSON and the PDF table say it', (word, p50s) => {
    const r = against(p50s)
    const m = r.pairs[0]!.metrics.find((x) => x.metric === 'p50')!
    expect(verdictName(m)).toBe(word)
    expect(r.headline).toContain(word === 'same' ? 'the same as base' : word)
    const json = compareJson(r).pairs[0]!.metrics.p50!
    expect(json).toMatchObject({ verdict: m.verdict, word })
    const cli = formatComparison(r)
    const cell = verdictWord(m, r.minEffect)
    expect(cli.split('\n').find((l) => /^\S.* \/ base +p50 /.test(l) || /^ +p50 /.test(l))).toContain(cell)
    expect(reportPairs(r)).toContain(`>${cell}</td></tr>`)
  })

  it('an interval that excludes 1× but crosses the margin reads "inconclusive", not "faster"', () => {
    const r = against(CASES[3]![1])
    const m = r.pairs[0]!.metrics.find((x) => x.metric === 'p50')!
    expect(m).toMatchObject({ verdict: 'inconclusive', excludesNoChange: true })
    expect(r.headline).toMatch(
      /^other is inconclusive against base \(the interval crosses ±10 %\) at the median/,
    )
    expect(r.headline).not.toMatch(/faster|slower|perhaps/)
    expect(compareJson(r).pairs[0]!.metrics.p50).not.toHaveProperty('significant')
  })
})

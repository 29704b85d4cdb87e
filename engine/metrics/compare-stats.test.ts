// The statistics against an independent calculation. Every expected value below was computed with
// SciPy 1.17.1 (Python), not with this code:
//   stats.t.ppf(0.975, df), stats.t.cdf(t, df)
//   paired:  d = log(b / a); r = stats.ttest_1samp(d, 0); ci = r.confidence_interval(0.95); exp(ci)
//   Welch:   r = stats.ttest_ind(log(b), log(a), equal_var=False); exp(r.confidence_interval(0.95)); r.df
//   paired difference: stats.ttest_1samp(b - a, 0).confidence_interval(0.95)
// The t quantiles also match any printed t-table (df 4: 2.776, df 10: 2.228, df 30: 2.042).
import { describe, expect, it } from 'vitest'
import {
  geometricMean,
  pairedDifference,
  pairedLogRatio,
  tCdf,
  tQuantile,
  welchInterval,
  welchLogRatio,
} from './compare-stats.ts'

describe("Student's t", () => {
  it('quantiles match SciPy, including fractional degrees of freedom (Welch)', () => {
    const expected: [number, number][] = [
      [1, 12.706204736174694],
      [2, 4.302652729749462],
      [4, 2.7764451051977934],
      [10, 2.228138851986274],
      [30, 2.0422724563012378],
      [7.5, 2.333039626864974],
      [3.3, 3.024874461840807],
    ]
    for (const [df, q] of expected) expect(tQuantile(0.975, df)).toBeCloseTo(q, 9)
    expect(tQuantile(0.025, 4)).toBeCloseTo(-2.7764451051977934, 9)
    expect(tQuantile(0.5, 3)).toBe(0)
  })

  it('the CDF matches SciPy', () => {
    expect(tCdf(1.5, 3)).toBeCloseTo(0.8847080673775886, 12)
    expect(tCdf(-2.0, 7.5)).toBeCloseTo(0.041448497649083156, 12)
  })
})

describe('intervals on the ratio', () => {
  it('paired rounds: exp of the t-interval of the mean log-ratio', () => {
    const a = [1010, 1030, 995, 1020, 1005]
    const b = [3950, 4010, 3900, 4050, 3980]
    const i = pairedLogRatio(a, b)!
    expect(Math.exp(i.estimate)).toBeCloseTo(3.9307846511780085, 10)
    expect(Math.exp(i.lo)).toBeCloseTo(3.8899277026846892, 10)
    expect(Math.exp(i.hi)).toBeCloseTo(3.97207073110198, 10)
    expect(i.df).toBe(4)
    // exp(mean log-ratio) is exactly the ratio of the geometric means of paired rounds.
    expect(Math.exp(i.estimate)).toBeCloseTo(geometricMean(b) / geometricMean(a), 12)
  })

  it("unpaired rounds: Welch's interval on the log values", () => {
    const a = [2010, 1985, 2040, 1990, 2005]
    const b = [2100, 2300, 2150]
    const i = welchLogRatio(a, b)!
    expect(Math.exp(i.estimate)).toBeCloseTo(1.0876379660012034, 10)
    expect(Math.exp(i.lo)).toBeCloseTo(0.9717816867315322, 10)
    expect(Math.exp(i.hi)).toBeCloseTo(1.217306686511003, 10)
    expect(i.df).toBeCloseTo(2.125111269225549, 9)
  })

  it('differences on the raw scale (error rates)', () => {
    const i = pairedDifference([0.01, 0.012, 0.011], [0.02, 0.025, 0.021])!
    expect(i.estimate).toBeCloseTo(0.011, 12)
    expect(i.lo).toBeCloseTo(0.006697347270250539, 12)
    expect(i.hi).toBeCloseTo(0.015302652729749462, 12)
    // No spread on either side: the interval is the difference itself.
    expect(welchInterval([0, 0, 0], [0, 0, 0])).toMatchObject({ estimate: 0, lo: 0, hi: 0 })
  })

  it('has no interval from fewer than two observations', () => {
    expect(pairedLogRatio([1], [2])).toBeNull()
    expect(welchLogRatio([1, 2], [3])).toBeNull()
  })
})

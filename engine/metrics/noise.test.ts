// The noise rule (issue 27, item 3) against figures the test sets: a host busier than the stated
// rule allows is disturbed, and only then; a round whose ratio is a robust outlier is named; the
// words every screen shows count the disturbed rounds and say why.
import { describe, expect, it } from 'vitest'
import type { RoundNoise, StatsBlock } from '../api/types.ts'
import { headlineBlock } from '../testing/stats-block.ts'
import {
  DISTURBANCE,
  hostReasons,
  judgeHost,
  machineWords,
  noiseCells,
  noiseWords,
  outlierRounds,
  robustOutliers,
  type MeasuredNoise,
} from './noise.ts'

const quiet: MeasuredNoise = {
  loadAverage: 1.2,
  cores: 2,
  stealPercent: 0,
  otherCpuPercent: 10,
  generatorCpuPercent: 40,
  sendLagMs: null,
  targetCpuPercent: 60,
  targetCpuLimitPercent: 100,
}

const block = (p50: number, p99: number, throughput: number): StatsBlock =>
  headlineBlock(p50, p99, throughput)

describe('the host rule', () => {
  it('other processes at a quarter of the cores, or 5 % steal, disturb a round; less does not', () => {
    expect(hostReasons(quiet)).toEqual([])
    expect(judgeHost(quiet)).toMatchObject({ disturbed: false, reasons: [], repeated: false })
    // 2 cores: half a core (50 %) is the line.
    expect(hostReasons({ ...quiet, otherCpuPercent: 49.9 })).toEqual([])
    expect(hostReasons({ ...quiet, otherCpuPercent: 130, loadAverage: 5.2 })).toEqual([
      'other processes used 1.30 cores (load 5.2 on 2 cores)',
    ])
    expect(hostReasons({ ...quiet, cores: 8, otherCpuPercent: 130 })).toEqual([])
    expect(hostReasons({ ...quiet, cores: 8, otherCpuPercent: 200 })).toHaveLength(1)
    expect(hostReasons({ ...quiet, stealPercent: DISTURBANCE.stealPercent })).toEqual([
      'the hypervisor took 5.0 % of the CPU (steal)',
    ])
    // Nothing measured (not Linux): nothing said.
    expect(hostReasons({ ...quiet, otherCpuPercent: null, stealPercent: null, loadAverage: null })).toEqual(
      [],
    )
  })
})

describe('robust outliers of the ratio', () => {
  it('finds the one far round by the modified z-score, none below five rounds', () => {
    const xs = [0.01, -0.01, 0.02, 0, -0.02, 0.01, 0.3]
    expect(robustOutliers(xs)).toEqual([6])
    expect(robustOutliers([0.01, -0.01, 0.02, 0.3])).toEqual([])
    expect(robustOutliers([0, 0, 0, 0, 0, 0])).toEqual([])
  })

  it('names the round and the pair whose ratio stands out', () => {
    const base = Array.from({ length: 8 }, (_, i) => ({ round: i + 1, ...block(4000, 9000, 1000) }))
    const other = base.map((r, i) => ({
      ...r,
      ...block(4400 * (1 + (i % 3) * 0.005), 9900, 950),
      round: r.round,
    }))
    // Round 5: the other side three times slower (a hog landed on it alone).
    other[4] = { ...other[4]!, ...block(13_000, 30_000, 300), round: 5 }
    const found = outlierRounds([
      { target: 'a', rounds: base },
      { target: 'b', rounds: other },
    ])
    expect([...found.keys()]).toEqual([5])
    expect(found.get(5)!.join('; ')).toMatch(/^b\/a p50 3\.25× is an outlier \(median 1\.1\d×\)/)
  })
})

describe('the words', () => {
  const noise = (round: number, n: Partial<RoundNoise>) => ({
    round,
    noise: { ...judgeHost(quiet), ...n },
  })

  it('count the disturbed rounds once per round, with the busiest reason', () => {
    const rounds = [
      noise(1, {}),
      noise(1, {}),
      noise(2, { disturbed: true, otherCpuPercent: 80, reasons: ['other processes used 0.80 cores'] }),
      noise(2, { disturbed: true, otherCpuPercent: 120, reasons: ['other processes used 1.20 cores'] }),
      noise(3, { disturbed: true, reasons: ['b/a p50 2.00× is an outlier (median 1.00×)'] }),
    ]
    expect(noiseWords(rounds, false)).toBe(
      '2 of 3 rounds disturbed (kept in the figures): other processes used 1.20 cores',
    )
    expect(noiseWords(rounds, true)).toMatch(/^2 of 3 rounds disturbed \(repeated, left out of the figures\)/)
    expect(noiseWords(rounds.slice(0, 2), false)).toBeNull()
  })

  it('print a round in the cells every screen shows (CPU: 100 % = one core)', () => {
    expect(noiseCells({ ...judgeHost({ ...quiet, sendLagMs: 1.234 }) })).toEqual([
      '1.2 / 2',
      '10 %',
      '0.0 %',
      '40 %',
      '1.23 ms',
      '60 % of 100 %',
      'no',
    ])
    expect(noiseCells(null)).toEqual(['–', '–', '–', '–', '–', '–', '–'])
    expect(noiseCells({ ...judgeHost(quiet), disturbed: true, repeated: true }).at(-1)).toBe('repeated')
  })

  it('say plainly when the machine is busier than its cores before a run', () => {
    const m = {
      cores: 2,
      loadAverage: 5.2,
      busyPercent: 190,
      busy: true,
      top: [
        { name: 'node', cpuPercent: 130.4 },
        { name: 'postgres', cpuPercent: 40 },
        { name: 'idle', cpuPercent: 0.2 },
      ],
      sampledAt: '2026-01-01T00:00:00.000Z',
    }
    expect(machineWords(m)).toBe(
      'This machine is busier than its cores before the run: load average 5.2 on 2 cores, 1.90 cores busy (using the CPU: node 130 %, postgres 40 %). Its figures will carry that noise: rounds it disturbs are marked, and a quieter machine gives narrower intervals.',
    )
    expect(machineWords({ ...m, busy: false })).toBeNull()
  })
})

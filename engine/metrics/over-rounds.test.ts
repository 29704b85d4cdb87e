// A target over its rounds (over-rounds.ts) against the truth of its requests: a stored run of two
// targets × three rounds (engine/testing/fixtures.ts writes every request and the summaries that
// agree with them). Latency is that of every answered request of every round, recorded anew here
// from the samples table; counts are the rounds' sums; throughput the mean of the rounds'.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openDb, type Db } from '../db/db.ts'
import { HistoryStore } from '../store/history-store.ts'
import { insertFixtureRun } from '../testing/fixtures.ts'
import { figuresOf, roundsFigures } from './figures.ts'
import { latencyStats, newHistogram, record } from './hdr.ts'
import { overRounds } from './over-rounds.ts'

let db: Db
beforeEach(() => {
  db = openDb(':memory:')
})
afterEach(() => db.close())

describe('a target over its rounds', () => {
  it('is every request of every round: latency from them all, counts summed, throughput the rounds’ mean', () => {
    const { runId } = insertFixtureRun(db, {
      rounds: 3,
      samplesPerRound: 1500,
      roundNoise: 0.2,
      targets: [
        { name: 'fast', latencyUs: 1500 },
        { name: 'slow', latencyUs: 4000, errorRate: 0.01 },
      ],
    })
    const run = new HistoryStore(db).getRun(runId)
    expect(run.overRounds.map((o) => [o.target, o.rounds])).toEqual([
      ['fast', 3],
      ['slow', 3],
    ])
    run.config.targets.forEach((t, index) => {
      const over = run.overRounds.find((o) => o.target === t.name)!
      const rounds = run.results.filter((r) => r.target === t.name)
      // The truth: the samples themselves, recorded into a histogram of their own.
      const latencies = db
        .prepare('SELECT latency_us FROM samples WHERE run_id = ? AND target_index = ? AND latency_us >= 0')
        .pluck()
        .all(runId, index) as number[]
      const h = newHistogram()
      for (const us of latencies) record(h, us)
      const truth = latencyStats(h, { min: Math.min(...latencies), max: Math.max(...latencies) })
      h.destroy()
      expect(over.latency.count).toBe(latencies.length)
      for (const k of ['p50', 'p90', 'p95', 'p99', 'p999', 'min', 'max'] as const)
        expect(over.latency[k], `${t.name} ${k}`).toBe(truth[k])
      expect(over.latency.mean).toBeCloseTo(truth.mean, 6)
      const f = figuresOf(over)
      expect(f).toEqual(roundsFigures(rounds))
      expect(f.requests).toBe(rounds.reduce((s, r) => s + r.requests, 0))
      expect(f.throughput).toBeCloseTo(rounds.reduce((s, r) => s + r.throughput, 0) / 3, 9)
    })
  })

  it('of one round is that round, unchanged', () => {
    const { runId } = insertFixtureRun(db, { rounds: 1 })
    const run = new HistoryStore(db).getRun(runId)
    for (const r of run.results) {
      const over = overRounds([r])[0]!
      expect(over.latency).toEqual(r.latency)
      expect(figuresOf(over)).toEqual(figuresOf(r))
    }
  })
})

// The runner's parent's side of rounds (issue 27, items 2 and 3), against rounds and noise the test
// sets: each round's rows are written before it starts, with each segment's place; rounds until
// precise stop for the stated reason; a disturbed round is repeated with skipDisturbed and left out
// of the figures; the noise meter's arithmetic over the /proc readings it is handed.
import { describe, expect, it } from 'vitest'
import type { TargetRoundSummary } from '../api/types.ts'
import { parseRunConfig } from '../config/load.ts'
import { seedSchedule, roundOrder } from '../config/segments.ts'
import type { MeasuredNoise } from '../metrics/noise.ts'
import { openDb, type Db } from '../db/db.ts'
import { thisProcess } from '../store/owner.ts'
import { HistoryStore } from '../store/history-store.ts'
import { createRun } from '../store/runs.ts'
import { LedgerWriter } from '../store/ledger-writer.ts'
import { NoiseMeter, type ProcReader } from './noise-meter.ts'
import { RoundsJudge } from './rounds-judge.ts'
import { headlineBlock, QUIET } from '../testing/stats-block.ts'
import { pairInput } from '../testing/config.ts'

const ENV = { host: 'h', cpu: 'c', cores: 2, os: 'o', node: 'n', app: 'a', details: {} }

function summary(target: string, round: number, p50: number): TargetRoundSummary {
  return {
    ...headlineBlock(p50, p50 * 2, 1e6 / p50, 500),
    target,
    round,
    phases: [],
    connect: null,
    schedule: null,
    histogram: '',
    correctedHistogram: null,
    serverTimingInvalid: 0,
  }
}

const calm: MeasuredNoise = QUIET

interface Setup {
  db: Db
  runId: number
  judge: RoundsJudge
  config: ReturnType<typeof parseRunConfig>
}

function setup(rounds: unknown): Setup {
  const db = openDb(':memory:')
  const config = seedSchedule(parseRunConfig(pairInput('judge', { rounds })), 7)
  const { runId } = createRun(db, config, ['main'], ENV, { owner: thisProcess() })
  const judge = new RoundsJudge(db, runId, config)
  judge.started(Date.now())
  return { db, runId, judge, config }
}

/** A segment's summary as the runner's writer stores it, then told to the judge. */
function segment(t: Setup, s: TargetRoundSummary, noise: MeasuredNoise): void {
  new LedgerWriter(t.db, t.runId).writeSummary(s.target === 'a' ? 0 : 1, s)
  t.judge.segment(s, noise)
}

/** One round: both targets' summaries (b `ratio` × a, with a wobble), then the round's end. */
function round(t: Setup, r: number, ratio: number, noise: MeasuredNoise = calm, wobble = 0.01): boolean {
  const w = 1 + (r % 2 ? wobble : -wobble)
  segment(t, summary('a', r, 4000), noise)
  segment(t, summary('b', r, 4000 * ratio * w), noise)
  return t.judge.roundEnd(r)
}

const rows = (db: Db, runId: number) =>
  db
    .prepare('SELECT target, round, segment FROM run_targets WHERE run_id = ? ORDER BY segment')
    .all(runId) as { target: string; round: number; segment: number }[]

describe('rounds until precise, decided by the runner’s parent', () => {
  it('writes each round’s rows before it starts, in its seeded order, and stops when precise', () => {
    const t = setup({ min: 3, max: 10, precision: 5 })
    const { db, runId, judge, config } = t
    expect(rows(db, runId).map((r) => r.round)).toEqual([1, 1])
    let stopped = 0
    while (round(t, ++stopped, 1.2));
    // Three rounds at least, though a steady 1.2× is beyond ±5 % from the first: decided at 3.
    expect(stopped).toBe(3)
    expect(rows(db, runId)).toHaveLength(stopped * 2)
    for (const r of rows(db, runId)) {
      const order = roundOrder(config, r.round)
      expect(r.segment - (r.round - 1) * 2).toBe(order.indexOf(r.target === 'a' ? 0 : 1))
    }
    judge.finish('done')
    const run = new HistoryStore(db).getRun(runId)
    expect(run.rounds).toMatchObject({ reason: 'decided', round: stopped, kept: stopped, seed: 7 })
    expect(run.rounds.stop).toMatch(new RegExp(`^${stopped} rounds: stopped when every headline interval`))
    expect(run.results.every((r) => r.noise?.disturbed === false)).toBe(true)
  })

  it('stops at max, or before a round that would end past the budget', () => {
    const max = setup({ min: 3, max: 4, precision: 0.01 })
    expect([1, 2, 3, 4].map((r) => round(max, r, 1, calm, 0.05))).toEqual([true, true, true, false])
    max.judge.finish('done')
    expect(new HistoryStore(max.db).getRun(max.runId).rounds).toMatchObject({ reason: 'max', round: 4 })
    // A budget of 0.001 min: the first round's time already leaves no room for a second.
    const budget = setup({ min: 3, max: 40, precision: 0.01, budgetMinutes: 0.001 })
    budget.judge.started(Date.now() - 1000)
    expect(round(budget, 1, 1)).toBe(false)
    budget.judge.finish('done')
    const run = new HistoryStore(budget.db).getRun(budget.runId)
    expect(run.rounds).toMatchObject({ reason: 'budget', round: 1 })
    expect(run.rounds.stop).toMatch(
      /^1 round of at most 40: the next round would have ended past the 0\.001 min budget/,
    )
  })

  it('with skipDisturbed, repeats a disturbed round and leaves it out of the figures', () => {
    const t = setup({ min: 3, max: 3, precision: 0.01, skipDisturbed: true })
    const { db, runId, judge } = t
    const busy = { ...calm, otherCpuPercent: 150, loadAverage: 6 }
    expect(round(t, 1, 1.1)).toBe(true)
    expect(round(t, 2, 1.1, busy)).toBe(true) // disturbed: repeated, not one of the 3
    expect(round(t, 3, 1.1)).toBe(true)
    expect(round(t, 4, 1.1)).toBe(false) // the third kept round: max
    judge.finish('done')
    const run = new HistoryStore(db).getRun(runId)
    const second = run.results.filter((r) => r.round === 2)
    expect(second.map((r) => r.noise)).toEqual([
      expect.objectContaining({
        disturbed: true,
        repeated: true,
        reasons: ['other processes used 1.50 cores (load 6.0 on 2 cores)'],
      }),
      expect.objectContaining({ disturbed: true, repeated: true }),
    ])
    expect(run.rounds).toMatchObject({ reason: 'max', round: 4, kept: 3, disturbed: 1, repeated: 1 })
    expect(run.rounds.noise).toBe(
      '1 of 4 rounds disturbed (repeated, left out of the figures): other processes used 1.50 cores (load 6.0 on 2 cores)',
    )
    // The target's figure over its rounds leaves the repeated round out.
    expect(run.overRounds.map((o) => o.rounds)).toEqual([3, 3])
    expect(rows(db, runId).map((r) => r.round)).toEqual([1, 1, 2, 2, 3, 3, 4, 4])
  })

  it('a fixed number of rounds: robust outliers marked at the end, kept in the figures', () => {
    const t = setup(6)
    const { db, runId, judge } = t
    for (let r = 1; r <= 6; r++) {
      segment(t, summary('a', r, 4000), calm)
      segment(t, summary('b', r, r === 4 ? 12_000 : 4400 * (1 + (r % 3) * 0.004)), calm)
    }
    expect(judge.progress?.words).toMatch(/^round 6 of 6: /)
    judge.finish('done')
    const run = new HistoryStore(db).getRun(runId)
    expect(run.rounds).toMatchObject({ reason: 'fixed', round: 6, disturbed: 1, repeated: 0 })
    expect(run.results.filter((r) => r.noise?.disturbed).map((r) => r.round)).toEqual([4, 4])
    expect(run.overRounds.map((o) => o.rounds)).toEqual([6, 6])
  })
})

describe('the noise meter', () => {
  it('splits the host’s busy time into the runner, this process, the monitored targets and the rest', () => {
    // 2 cores over 1 s: 200 jiffies of host time. Busy 150 of them; the runner 40, this process
    // 10, a monitored target at 60 %: the rest is 150 − 40 − 10 − 60 = 40 %.
    const state = { host: { busy: 0, steal: 0, total: 0 }, runner: 0, self: 0, load: 3 }
    const proc: ProcReader = {
      hostCpu: () => ({ ...state.host }),
      loadAverage: () => state.load,
      ticks: (pid) => (pid === 'self' ? state.self : state.runner),
      cores: 2,
    }
    const meter = new NoiseMeter({
      runnerPid: 42,
      targets: ['a', 'b'],
      local: (s) => s.source === 'process',
      proc,
    })
    meter.start(0, 1, 1000)
    meter.tick()
    state.load = 5
    meter.tick()
    const sample = (target: string, cpu: number) => ({
      t: 2000,
      source: 'process' as const,
      target,
      instance: '1',
      cpuPercent: cpu,
      memoryBytes: null,
      memoryLimitBytes: null,
      cpuLimit: 1,
      state: 'running',
    })
    meter.resource(sample('a', 55))
    meter.resource(sample('a', 65))
    meter.resource({ ...sample('b', 99), source: 'cloudfoundry' }) // elsewhere: not this host's
    // The same process monitored as another target (one server under two names): counted once.
    meter.resource(sample('b', 60))
    state.host = { busy: 150, steal: 4, total: 200 }
    state.runner = 40
    state.self = 10
    const noise = meter.end(summary('a', 1, 4000))
    expect(noise).toEqual({
      targetIndex: 0,
      loadAverage: 4,
      cores: 2,
      stealPercent: 2,
      otherCpuPercent: 40,
      generatorCpuPercent: 40,
      sendLagMs: null,
      targetCpuPercent: 60,
      targetCpuLimitPercent: 100,
    })
    // Another segment's summary does not end this window.
    meter.start(1, 1, 3000)
    expect(meter.end(summary('a', 2, 4000))).toBeNull()
  })

  it('reads this machine’s /proc when it has one', () => {
    if (process.platform !== 'linux') {
      console.log('skipped: no /proc here (Linux only)')
      return
    }
    const meter = new NoiseMeter({ runnerPid: process.pid, targets: ['a'], local: () => true })
    meter.start(0, 1)
    meter.tick()
    const started = Date.now()
    while (Date.now() - started < 300) {
      // busy: this process's own time is the "generator" here
    }
    const noise = meter.end(summary('a', 1, 4000))!
    expect(noise.loadAverage).toBeGreaterThanOrEqual(0)
    expect(noise.generatorCpuPercent).toBeGreaterThan(0)
    expect(noise.generatorCpuPercent!).toBeLessThanOrEqual(noise.cores * 100 + 1)
    expect(noise.otherCpuPercent).toBeGreaterThanOrEqual(0)
  })
})

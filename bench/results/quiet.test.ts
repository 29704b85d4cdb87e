// What keeps a busy machine's figures out of docs/results.md as evidence (bench/results/quiet.ts):
// the wait for a load average below the cores, the judgement of a section from its rounds' noise,
// the retry and the mark, and the words the page says them in. Fake load averages, rounds and
// clocks only: nothing here loads the machine or waits for real.
import { describe, expect, it } from 'vitest'
import type { CompareMetric, RoundNoise } from '../../engine/api/types.ts'
import { parseFlags } from './flags.ts'
import type { Result } from './figures.ts'
import { busyMark, decisionWords } from './md.ts'
import {
  attemptQuietly,
  gateSentence,
  judgeSection,
  parseGate,
  QUIET_DEFAULTS,
  waitForQuiet,
  type Clock,
  type Gate,
  type JudgedRun,
  type Judgement,
  type QuietRule,
} from './quiet.ts'

/** A clock whose sleeps only move its time on. */
function fakeClock(): Clock & { sleeps: number[] } {
  let t = 1_000_000
  const sleeps: number[] = []
  return {
    sleeps,
    now: () => t,
    sleep: (ms) => {
      sleeps.push(ms)
      t += ms
      return Promise.resolve()
    },
  }
}

/** Load averages as the fake clock's time goes: `at(seconds since the start) → load`. */
function loadOver(clock: Clock, at: (seconds: number) => number | null): () => number | null {
  const t0 = clock.now()
  return () => at((clock.now() - t0) / 1000)
}

const noise = (n: Partial<RoundNoise> = {}): RoundNoise => ({
  loadAverage: 1.5,
  cores: 2,
  stealPercent: 0,
  otherCpuPercent: 10,
  generatorCpuPercent: 60,
  sendLagMs: null,
  targetCpuPercent: 90,
  targetCpuLimitPercent: 100,
  disturbed: false,
  reasons: [],
  repeated: false,
  ...n,
})

/** A run of two targets whose rounds have these noises (the same for both targets unless given). */
function run(runId: number, rounds: (RoundNoise | null | [RoundNoise, RoundNoise])[]): JudgedRun {
  return {
    runId,
    results: rounds.flatMap((n, i) => {
      const [a, b] = Array.isArray(n) ? n : [n, n]
      return [
        { target: 'a', round: i + 1, noise: a },
        { target: 'b', round: i + 1, noise: b },
      ]
    }),
  }
}

const BUSY = noise({ otherCpuPercent: 80, loadAverage: 4.2 })
const QUIET_GATE: Gate = { quiet: true, load: 0.8, cores: 2, waitedSeconds: 0 }
const BUSY_GATE: Gate = { quiet: false, load: 3.4, cores: 2, waitedSeconds: 1800 }
const rule = { maxDisturbedShare: 0.25 }

describe('waitForQuiet', () => {
  it('starts at once when the load average is already below the cores', async () => {
    const clock = fakeClock()
    const said: string[] = []
    const gate = await waitForQuiet({
      cores: 2,
      maxWaitMinutes: 30,
      load: () => 1.2,
      say: (l) => said.push(l),
      clock,
    })
    expect(gate).toEqual({ quiet: true, load: 1.2, cores: 2, waitedSeconds: 0 })
    expect(clock.sleeps).toEqual([])
    expect(said).toEqual([])
  })

  it('waits while the load average is at or above the cores, saying where it stands every 30 s', async () => {
    const clock = fakeClock()
    const said: string[] = []
    // 2.0 is not below 2 cores; it falls to 1.9 after 95 s.
    const load = loadOver(clock, (s) => (s < 95 ? (s < 40 ? 3.5 : 2.0) : 1.9))
    const gate = await waitForQuiet({ cores: 2, maxWaitMinutes: 30, load, say: (l) => said.push(l), clock })
    expect(gate.quiet).toBe(true)
    expect(gate.load).toBe(1.9)
    expect(gate.waitedSeconds).toBe(95)
    expect(clock.sleeps.every((ms) => ms === 5000)).toBe(true)
    expect(said[0]).toMatch(/load average 3\.50 on 2 cores: waiting up to 30 min/)
    const progress = said.filter((l) => l.startsWith('waiting for a quieter machine'))
    expect(progress).toHaveLength(3) // at 30, 60 and 90 s
    expect(progress[1]).toMatch(/load average 2\.00 on 2 cores, 60 s of at most 30 min/)
    expect(said.at(-1)).toMatch(/quiet: load average 1\.90 below 2 cores after 95 s/)
  })

  it('gives up after --max-wait-minutes, and the gate says the machine was busy', async () => {
    const clock = fakeClock()
    const said: string[] = []
    const gate = await waitForQuiet({
      cores: 2,
      maxWaitMinutes: 2,
      load: () => 5,
      say: (l) => said.push(l),
      clock,
    })
    expect(gate).toEqual({ quiet: false, load: 5, cores: 2, waitedSeconds: 120 })
    expect(clock.sleeps.reduce((a, b) => a + b, 0)).toBe(120_000)
    expect(said.at(-1)).toMatch(/still busier than its cores after 120 s .*starting anyway/)
  })

  it('with no wait allowed (--allow-busy) reads the load once and does not sleep', async () => {
    const clock = fakeClock()
    const gate = await waitForQuiet({ cores: 2, maxWaitMinutes: 0, load: () => 3, say: () => {}, clock })
    expect(gate).toMatchObject({ quiet: false, waitedSeconds: 0 })
    expect(clock.sleeps).toEqual([])
  })

  it('ends the wait on an interrupt', async () => {
    const clock = fakeClock()
    let polls = 0
    const gate = await waitForQuiet({
      cores: 2,
      maxWaitMinutes: 30,
      load: () => (polls++, 3),
      say: () => {},
      clock,
      stopped: () => polls > 2,
    })
    expect(gate.quiet).toBe(false)
    expect(gate.waitedSeconds).toBe(10)
  })

  it('counts a load average the platform does not give as quiet (the rounds still judge)', async () => {
    const gate = await waitForQuiet({
      cores: 2,
      maxWaitMinutes: 30,
      load: () => null,
      say: () => {},
      clock: fakeClock(),
    })
    expect(gate).toMatchObject({ quiet: true, load: null })
  })
})

describe('judgeSection', () => {
  it('a section whose rounds other work left alone, started below the cores, is not busy', () => {
    const j = judgeSection([run(1, [noise(), noise(), noise(), noise()])], QUIET_GATE, rule)
    expect(j).toMatchObject({
      busy: false,
      measured: true,
      rounds: 4,
      disturbed: 0,
      loads: [1.5, 1.5],
      cores: 2,
    })
    expect(j.words).toMatch(
      /^The machine was not busier than its cores while this was measured: 0 of 4 rounds/,
    )
    expect(j.words).not.toMatch(/not evidence/)
  })

  it('more than the stated share of rounds disturbed by other work makes it busy, and says why', () => {
    const j = judgeSection([run(1, [BUSY, noise(), BUSY, noise()])], QUIET_GATE, rule)
    expect(j).toMatchObject({ busy: true, rounds: 4, disturbed: 2, loads: [1.5, 4.2] })
    expect(j.reason).toMatch(/other processes used 0\.80 cores \(load 4\.2 on 2 cores\)/)
    expect(j.words).toMatch(/busier than its cores while this was measured: 2 of 4 rounds disturbed/)
    expect(j.words).toMatch(/are not evidence\.$/)
  })

  it('the share itself is allowed (1 of 4 at 25 %), and --max-disturbed moves the line', () => {
    const runs = [run(1, [BUSY, noise(), noise(), noise()])]
    expect(judgeSection(runs, QUIET_GATE, rule).busy).toBe(false)
    expect(judgeSection(runs, QUIET_GATE, { maxDisturbedShare: 0.2 }).busy).toBe(true)
  })

  it('a round is busy when either target’s segment in it was; a study’s runs count together', () => {
    const j = judgeSection(
      [run(1, [[noise(), BUSY], noise()]), run(2, [noise(), [BUSY, noise()]])],
      QUIET_GATE,
      rule,
    )
    expect(j).toMatchObject({ rounds: 4, disturbed: 2, busy: true })
  })

  it('steal counts; a round disturbed only as a robust outlier of the result does not', () => {
    const steal = noise({ stealPercent: 7.5 })
    const outlier = noise({ disturbed: true, reasons: ['b/a p50 1.80× is an outlier (median 1.00×)'] })
    expect(judgeSection([run(1, [steal, steal, noise()])], QUIET_GATE, rule)).toMatchObject({
      disturbed: 2,
      busy: true,
    })
    expect(judgeSection([run(1, [outlier, outlier, noise()])], QUIET_GATE, rule)).toMatchObject({
      disturbed: 0,
      busy: false,
    })
  })

  it('an experiment that started busier than its cores (the wait ran out) is busy, however its rounds went', () => {
    const j = judgeSection([run(1, [noise(), noise(), noise()])], BUSY_GATE, rule)
    expect(j.busy).toBe(true)
    expect(j.words).toMatch(/started with the load average at 3\.40 on 2 cores after waiting 1800 s/)
    expect(j.words).toMatch(/not evidence/)
  })

  it('runs recorded before the noise was measured are judged by the gate alone, and say so', () => {
    const j = judgeSection([run(1, [null, null, null])], null, rule)
    expect(j).toMatchObject({ busy: false, measured: false, rounds: 3, loads: null })
    expect(j.words).toMatch(/noise was not measured/)
    expect(judgeSection([run(1, [null])], BUSY_GATE, rule).busy).toBe(true)
  })
})

describe('the gate in a run’s note', () => {
  it.each([
    QUIET_GATE,
    BUSY_GATE,
    { quiet: true, load: 1.25, cores: 4, waitedSeconds: 95 },
    { ...QUIET_GATE, load: null },
  ])('reads back as written: %o', (gate) => {
    const note = `npm run results (java-vs-node, 30 s, attempt 2): load average 1.20 at the start, 2.40 at the end. Attempt 2 of at most 2. ${gateSentence(gate)}`
    expect(parseGate(note)).toEqual(gate)
  })

  it('a note from before the gate was kept has none', () => {
    expect(
      parseGate(
        'npm run results (pool-size, 3 rounds × 30 s): load average 2.5 at the start, 3.1 at the end.',
      ),
    ).toBeNull()
  })
})

describe('attemptQuietly', () => {
  const judged = (busy: boolean): Judgement => ({
    busy,
    measured: true,
    rounds: 4,
    disturbed: busy ? 3 : 0,
    loads: null,
    cores: 2,
    reason: null,
    words: busy ? 'busy, not evidence' : 'quiet',
  })

  /** An experiment whose attempts come out as `busy` says, in turn; records what it was asked. */
  function plan(busy: boolean[], r: Partial<QuietRule> = {}, failed = false) {
    const log: string[] = []
    const said: string[] = []
    const promise = attemptQuietly<number>({
      rule: { ...QUIET_DEFAULTS, ...r },
      wait: (minutes) => {
        log.push(`wait ${minutes}`)
        return Promise.resolve(QUIET_GATE)
      },
      run: (_gate, attempt, of) => {
        log.push(`run ${attempt}/${of}`)
        return Promise.resolve(attempt)
      },
      judge: (attempt) => judged(busy[attempt - 1] ?? false),
      failed: () => failed,
      say: (l) => said.push(l),
    })
    return { promise, log, said }
  }

  it('a quiet first attempt is published as it is, after waiting for the machine', async () => {
    const p = plan([false])
    const out = await p.promise
    expect(out.marked).toBe(false)
    expect(out.attempts).toHaveLength(1)
    expect(p.log).toEqual(['wait 30', 'run 1/2'])
  })

  it('a busy attempt is tried again after another wait, and the quiet retry is published', async () => {
    const p = plan([true, false])
    const out = await p.promise
    expect(out).toMatchObject({ marked: false, last: { outcome: 2, attempt: 2 } })
    expect(p.log).toEqual(['wait 30', 'run 1/2', 'wait 30', 'run 2/2'])
    expect(p.said[0]).toMatch(/trying again, attempt 2 of 2/)
  })

  it('still busy after its retries, the last attempt is published marked', async () => {
    const p = plan([true, true, true], { retries: 2, maxWaitMinutes: 5 })
    const out = await p.promise
    expect(out).toMatchObject({ marked: true, last: { attempt: 3 } })
    expect(p.log).toEqual(['wait 5', 'run 1/3', 'wait 5', 'run 2/3', 'wait 5', 'run 3/3'])
    expect(p.said.at(-1)).toMatch(/after 3 attempts: the section is published marked as not evidence/)
  })

  it('--allow-busy neither waits nor retries, but still marks', async () => {
    const p = plan([true, false], { allowBusy: true })
    const out = await p.promise
    expect(out.marked).toBe(true)
    expect(p.log).toEqual(['wait 0', 'run 1/1'])
  })

  it('--retries 0 marks a busy first attempt; an attempt that failed otherwise is not repeated for its noise', async () => {
    expect((await plan([true], { retries: 0 }).promise).attempts).toHaveLength(1)
    const failed = plan([true, false], {}, true)
    expect(await failed.promise).toMatchObject({ marked: true, attempts: [{ attempt: 1 }] })
  })
})

describe('the page’s words', () => {
  const metric = (m: Partial<CompareMetric>): CompareMetric => ({
    metric: 'throughput',
    baseline: 1000,
    other: 1200,
    change: 0.2,
    ci: [0.15, 0.25],
    excludesNoChange: true,
    verdict: 'higher',
    better: 'other',
    agree: { rounds: 9, of: 9 },
    sentence: '',
    ...m,
  })

  it('a comparison is decided, or below what this machine can resolve, with the rounds it took', () => {
    expect(decisionWords(metric({}), 5, 9)).toBe('decided in 9 rounds: more req/s')
    expect(decisionWords(metric({ metric: 'p50', verdict: 'lower', better: 'other' }), 5, 9)).toBe(
      'decided in 9 rounds: faster',
    )
    expect(decisionWords(metric({ change: 0.01, ci: [-0.02, 0.03], verdict: 'same' }), 5, 12)).toBe(
      'decided in 12 rounds: same (within ±5 %)',
    )
    expect(decisionWords(metric({ change: 0, ci: [-0.79, 3.83], verdict: 'inconclusive' }), 5, 14)).toMatch(
      /^below what this machine can resolve in 14 rounds \(interval ±\d+ %, a decision needs it narrower than the ±5 % margin\)$/,
    )
    expect(decisionWords(metric({ ci: null, verdict: 'too-few-rounds' }), 5, 1)).toBe(
      'below what this machine can resolve: no interval from 1 round',
    )
    // Narrow enough to decide, yet across the margin: a difference about the margin's own size.
    expect(decisionWords(metric({ change: 0.05, ci: [0.03, 0.07], verdict: 'inconclusive' }), 5, 20)).toMatch(
      /^not decided in 20 rounds: a difference about the size of the ±5 % margin/,
    )
  })

  it('a busy section carries the mark; a quiet one none', () => {
    const result = (j: Judgement) => ({ judgement: j }) as unknown as Result
    const busy = judgeSection([run(1, [BUSY, BUSY])], QUIET_GATE, rule)
    expect(busyMark(result(busy))).toMatch(
      /^> \*\*Not evidence: the machine was busier than its cores while this was measured\.\*\* .*2 of 2 rounds disturbed/,
    )
    expect(busyMark(result(judgeSection([run(1, [noise()])], QUIET_GATE, rule)))).toBe('')
  })
})

describe('the flags', () => {
  it('default to rounds until precise within a budget, a 30-minute wait, one retry, 25 %', () => {
    const f = parseFlags([])
    expect(f.length).toEqual({ seconds: 30, rounds: { min: 3, max: 40, precision: 2, budgetMinutes: 20 } })
    expect(f.quiet).toEqual(QUIET_DEFAULTS)
  })

  it('--rounds makes a fixed check; the quiet flags set the rule', () => {
    const f = parseFlags([
      '--rounds',
      '1',
      '--seconds',
      '2',
      '--max-wait-minutes',
      '0.5',
      '--retries',
      '0',
      '--max-disturbed',
      '10',
      '--allow-busy',
    ])
    expect(f.length).toEqual({ seconds: 2, rounds: 1 })
    expect(f.quiet).toEqual({ maxWaitMinutes: 0.5, retries: 0, maxDisturbedShare: 0.1, allowBusy: true })
  })

  it('refuse what is out of bounds, naming the flag', () => {
    expect(() => parseFlags(['--retries', '7'])).toThrow(/--retries: a whole number 0-5/)
    expect(() => parseFlags(['--max-disturbed', '150'])).toThrow(/--max-disturbed/)
    expect(() => parseFlags(['--budget-minutes', 'soon'])).toThrow(/--budget-minutes/)
  })
})

// A section of docs/results.md is evidence only when the machine was not busier than its cores
// while it was measured (issue 27, item 8). `npm run results` (main.ts) therefore, per experiment:
// 1. waits, up to --max-wait-minutes, for the 1-minute load average to fall below the core count
//    (a line every 30 s while it waits): the gate;
// 2. runs it, and judges it from what the engine measured per round (each target round's `noise`,
//    engine/metrics/noise.ts): a round counts as busy when its host figures break the engine's host
//    rule (other processes used ≥ 25 % of the cores, or steal ≥ 5 %); outlier rounds are the
//    result's business, not the machine's, and do not count;
// 3. calls the section busy when the gate ran out (the load average was still at or above the cores
//    when it started) or more than --max-disturbed % of its rounds were busy, and then runs it
//    again (--retries times, waiting again first); still busy, it is published MARKED: a line
//    saying the machine was busier than its cores and its figures are not evidence.
// The load average while a run goes on is not the rule: it counts the run's own generator, servers
// and databases, which keep a 2-core machine above 2 by themselves; the rounds' "other processes"
// figure leaves them out. Pure apart from the clock and the load reader handed in, so the tests
// drive it with fake load averages and rounds.
import type { RoundNoise } from '../../engine/api/types.ts'
import { hostReasons } from '../../engine/metrics/noise.ts'

export interface QuietRule {
  /** How long to wait before an attempt for the load average to fall below the cores. */
  maxWaitMinutes: number
  /** Attempts after the first when a section comes out busy. */
  retries: number
  /** The share of a section's rounds (0–1) that may be busy before the section is. */
  maxDisturbedShare: number
  /** Neither wait nor retry: run at once and mark what is busy (a check on a shared machine). */
  allowBusy: boolean
}

export const QUIET_DEFAULTS: QuietRule = {
  maxWaitMinutes: 30,
  retries: 1,
  maxDisturbedShare: 0.25,
  allowBusy: false,
}

/** The machine as an attempt started: whether the load average was below the cores, after how long. */
export interface Gate {
  quiet: boolean
  /** The 1-minute load average when the wait ended (null: not readable here). */
  load: number | null
  cores: number
  waitedSeconds: number
}

export interface Clock {
  now(): number
  sleep(ms: number): Promise<void>
}

export const REAL_CLOCK: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
}

const loadText = (load: number | null): string => (load === null ? 'unknown' : load.toFixed(2))

/**
 * Waits until the 1-minute load average is below `cores`, reading it every `pollSeconds` and
 * saying where it stands every `reportSeconds`, for at most `maxWaitMinutes` (0: one reading).
 * A load average this platform does not give (null) counts as quiet: the rounds' noise still judges.
 */
export async function waitForQuiet(o: {
  cores: number
  maxWaitMinutes: number
  load: () => number | null
  say: (line: string) => void
  clock?: Clock
  pollSeconds?: number
  reportSeconds?: number
  /** Ends the wait early (an interrupt): the gate then says how it stood. */
  stopped?: () => boolean
}): Promise<Gate> {
  const clock = o.clock ?? REAL_CLOCK
  const poll = (o.pollSeconds ?? 5) * 1000
  const every = (o.reportSeconds ?? 30) * 1000
  const limit = o.maxWaitMinutes * 60_000
  const t0 = clock.now()
  let reported = t0
  for (let first = true; ; first = false) {
    const load = o.load()
    const waited = clock.now() - t0
    const gate = (quiet: boolean): Gate => ({
      quiet,
      load,
      cores: o.cores,
      waitedSeconds: Math.round(waited / 1000),
    })
    if (load === null || load < o.cores) {
      if (!first)
        o.say(
          `quiet: load average ${loadText(load)} below ${o.cores} cores after ${Math.round(waited / 1000)} s`,
        )
      return gate(true)
    }
    if (waited >= limit || o.stopped?.()) {
      o.say(
        `still busier than its cores after ${Math.round(waited / 1000)} s (load average ${loadText(load)} on ${o.cores} cores, --max-wait-minutes ${o.maxWaitMinutes}): starting anyway, the section will be judged busy`,
      )
      return gate(false)
    }
    if (first)
      o.say(
        `load average ${loadText(load)} on ${o.cores} cores: waiting up to ${o.maxWaitMinutes} min for it to fall below ${o.cores}`,
      )
    else if (clock.now() - reported >= every) {
      reported = clock.now()
      o.say(
        `waiting for a quieter machine: load average ${loadText(load)} on ${o.cores} cores, ${Math.round(waited / 1000)} s of at most ${o.maxWaitMinutes} min`,
      )
    }
    await clock.sleep(Math.min(poll, limit - waited))
  }
}

/** The gate in the words a run's note keeps (parseGate reads it back for the doc). */
export function gateSentence(g: Gate): string {
  const waited = g.waitedSeconds > 0 ? ` after ${g.waitedSeconds} s of waiting` : ''
  return g.quiet
    ? `The machine was below its cores when this started: load average ${loadText(g.load)} on ${g.cores} cores${waited}.`
    : `The machine was busier than its cores when this started: load average ${loadText(g.load)} on ${g.cores} cores${waited}.`
}

const GATE_NOTE =
  /The machine was (below|busier than) its cores when this started: load average ([\d.]+|unknown) on (\d+) cores(?: after (\d+) s of waiting)?\./

/** A run's note's gate sentence, or null for a run recorded before it was kept. */
export function parseGate(note: string): Gate | null {
  const m = GATE_NOTE.exec(note)
  if (!m) return null
  return {
    quiet: m[1] === 'below',
    load: m[2] === 'unknown' ? null : Number(m[2]),
    cores: Number(m[3]),
    waitedSeconds: m[4] === undefined ? 0 : Number(m[4]),
  }
}

/** A run's target rounds as runs.get gives them: enough to judge the machine they ran on. */
export interface JudgedRun {
  runId: number
  results: readonly { target: string; round: number; noise?: RoundNoise | null }[]
}

export interface Judgement {
  busy: boolean
  /** Whether any round's noise was measured (runs recorded before it was are judged by the gate only). */
  measured: boolean
  /** Rounds (of every run: a run's round is all its targets' segments of that round). */
  rounds: number
  /** Rounds whose host figures broke the engine's host rule. */
  disturbed: number
  /** The rounds' load averages (they include the run's own work), lowest and highest. */
  loads: [number, number] | null
  cores: number | null
  /** The first busy round's reason in the engine's words. */
  reason: string | null
  /** One sentence: busy and not evidence, or quiet enough, and why. */
  words: string
}

const pct = (x: number): string => `${Math.round(x * 100)} %`

/** Judges a section from its runs' rounds and the gate its attempt started through. */
export function judgeSection(
  runs: readonly JudgedRun[],
  gate: Gate | null,
  rule: Pick<QuietRule, 'maxDisturbedShare'>,
): Judgement {
  const rounds = new Map<string, boolean>()
  const loads: number[] = []
  let measured = false
  let reason: string | null = null
  let cores: number | null = gate?.cores ?? null
  for (const run of runs)
    for (const r of run.results) {
      const key = `${run.runId}:${r.round}`
      const n = r.noise
      if (!n) {
        rounds.set(key, rounds.get(key) ?? false)
        continue
      }
      measured = true
      cores = n.cores
      if (n.loadAverage !== null) loads.push(n.loadAverage)
      const why = hostReasons(n)
      if (why.length) reason ??= why[0]!
      rounds.set(key, (rounds.get(key) ?? false) || why.length > 0)
    }
  const total = rounds.size
  const disturbed = [...rounds.values()].filter(Boolean).length
  const tooMany = total > 0 && disturbed / total > rule.maxDisturbedShare
  const gateBusy = gate !== null && !gate.quiet
  const busy = tooMany || gateBusy
  const roundsText = measured
    ? `${disturbed} of ${total} round${total === 1 ? '' : 's'} disturbed by other work (more than ${pct(rule.maxDisturbedShare)} makes a section busy)${reason ? `: ${reason}` : ''}`
    : 'the rounds’ noise was not measured (runs recorded before it was)'
  const gateText =
    gate === null
      ? ''
      : gateBusy
        ? `; it started with the load average at ${loadText(gate.load)} on ${gate.cores} cores after waiting ${gate.waitedSeconds} s`
        : `; it started with the load average at ${loadText(gate.load)}, below its ${gate.cores} cores`
  const words = busy
    ? `The machine was busier than its cores while this was measured: ${roundsText}${gateText}. Its figures are printed as measured and are not evidence.`
    : `The machine was not busier than its cores while this was measured: ${roundsText}${gateText}.`
  return {
    busy,
    measured,
    rounds: total,
    disturbed,
    loads: loads.length ? [Math.min(...loads), Math.max(...loads)] : null,
    cores,
    reason,
    words,
  }
}

export interface Attempted<T> {
  outcome: T
  gate: Gate
  judgement: Judgement
  /** 1 for the first. */
  attempt: number
}

/**
 * Runs an experiment until it comes out not busy, or its attempts are spent: before each attempt
 * the gate (`wait`), after it the judgement. `allowBusy` makes it one attempt, with a gate that does
 * not wait. The last attempt is the one the doc publishes (its runs are the experiment's newest),
 * `marked` when it is still busy.
 */
export async function attemptQuietly<T>(o: {
  rule: QuietRule
  wait: (maxWaitMinutes: number) => Promise<Gate>
  run: (gate: Gate, attempt: number, of: number) => Promise<T>
  judge: (outcome: T, gate: Gate) => Promise<Judgement> | Judgement
  say: (line: string) => void
  /** An interrupt: no further attempt starts. */
  stopped?: () => boolean
  /** An attempt that failed for other reasons (a run not done) is not repeated for its noise. */
  failed?: (outcome: T) => boolean
}): Promise<{ last: Attempted<T>; attempts: Attempted<T>[]; marked: boolean }> {
  const of = o.rule.allowBusy ? 1 : 1 + o.rule.retries
  const attempts: Attempted<T>[] = []
  for (let attempt = 1; ; attempt++) {
    const gate = await o.wait(o.rule.allowBusy ? 0 : o.rule.maxWaitMinutes)
    const outcome = await o.run(gate, attempt, of)
    const judgement = await o.judge(outcome, gate)
    const a = { outcome, gate, judgement, attempt }
    attempts.push(a)
    if (!judgement.busy) return { last: a, attempts, marked: false }
    const last = attempt >= of || o.stopped?.() === true || o.failed?.(outcome) === true
    o.say(
      last
        ? `busy (${judgement.words}) after ${attempt} attempt${attempt === 1 ? '' : 's'}: the section is published marked as not evidence`
        : `busy (${judgement.words}): trying again, attempt ${attempt + 1} of ${of}`,
    )
    if (last) return { last: a, attempts, marked: true }
  }
}

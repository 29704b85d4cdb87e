// One experiment through the engine host, as the app and the CLI start a config: `runs.start`
// (a sweep becomes a study; the stacks its targets name start by the engine's policy,
// engine/stacks/policy.ts), a line per run as it starts and ends, the machine's load average kept
// in each run's note (with the gate it started through: bench/results/quiet.ts), and a time limit
// after which the run going on is stopped.
import { loadavg } from 'node:os'
import type { RunSummary } from '../../engine/api/types.ts'
import type { RunConfig } from '../../engine/config/schema.ts'
import { roundsPlan } from '../../engine/config/rounds.ts'
import { figuresOf } from '../../engine/metrics/figures.ts'
import { msText } from '../../engine/metrics/units.ts'
import type { EngineHost } from '../../engine/host/index.ts'
import { roundSeconds, runsOf, type Experiment } from './experiments.ts'

export interface Outcome {
  runIds: number[]
  studyId: number | null
  /** Why it did not finish as planned (a run not `done`, the time limit), or null. */
  problem: string | null
  seconds: number
}

/**
 * Seconds the experiment should take at most: every run's rounds (a fixed number, or rounds until
 * precise up to their budget and one round past it) × its values, with a sweep's restart warm-ups.
 * A run whose stacks the engine had to start opens each segment with a warm-up: counted for all.
 */
export function plannedSeconds(config: RunConfig): number {
  const round = roundSeconds(config)
  const plan = roundsPlan(config)
  const rounds = round * plan.max
  const run = plan.budgetMinutes === null ? rounds : Math.min(rounds, plan.budgetMinutes * 60 + round)
  const restart = config.sweep?.warmupSeconds ?? 0
  return Math.round(runsOf(config) * (run + restart))
}

/** The 1-minute load average, two decimals. */
export const load1 = (): string => loadavg()[0]!.toFixed(2)

/** What a finished run measured, on one line: each target's rounds' throughput and p99. */
function endLine(run: RunSummary, seconds: number): string {
  const byTarget = new Map<string, string[]>()
  for (const r of run.results) {
    const f = figuresOf(r)
    const line = byTarget.get(r.target) ?? []
    line.push(
      `${f.throughput.toFixed(0)} req/s p99 ${msText(r.latency.p99)} ms${f.failed ? ` ${f.failed} failed` : ''}`,
    )
    byTarget.set(r.target, line)
  }
  const targets = [...byTarget].map(([t, rounds]) => `${t}: ${rounds.join(' | ')}`).join('; ')
  return `run ${run.runId} ${run.status} after ${seconds} s${run.error ? ` (${run.error})` : ''}: ${targets}`
}

interface Watch {
  runIds: number[]
  studyId: number | null
  /** The study's end, or the one run's (its note written). */
  over: Promise<void>
  /** A run that is no study's: follow it as the study events follow theirs. */
  follow(runId: number): void
  /** Stop the run going on, and any the study starts after it. */
  cut(): void
  off(): void
}

/** Follows the experiment's runs: a line as each starts and ends, and its load in the run's note. */
function watch(
  host: EngineHost,
  exp: Experiment,
  o: { lengthText: string; noteTail?: string; say: (l: string) => void },
): Watch {
  const { lengthText, say } = o
  const started = new Map<number, { at: number; load: string }>()
  const ended = new Map<number, Promise<void>>()
  let finish: () => void = () => {}
  let single: number | null = null
  let cutting = false
  const stop = (runId: number) => void host.runs.stop(runId).catch(() => {})
  const w: Watch = {
    runIds: [],
    studyId: null,
    over: new Promise<void>((r) => (finish = r)),
    follow: (runId) => {
      single = runId
      begin(runId, '')
      const done = ended.get(runId)
      if (done) void done.then(finish)
    },
    cut: () => {
      cutting = true
      void host.runs.active().then((ids) => ids.forEach(stop))
    },
    off: () => offs.forEach((off) => off()),
  }
  const begin = (runId: number, what: string) => {
    if (started.has(runId)) return
    w.runIds.push(runId)
    started.set(runId, { at: Date.now(), load: load1() })
    say(`${what}run ${runId} started (load average ${load1()})`)
    if (cutting) stop(runId)
  }
  /** The run's note says how loaded the machine was; then its line. */
  const end = async (runId: number) => {
    const s = started.get(runId) ?? { at: Date.now(), load: '?' }
    const seconds = Math.round((Date.now() - s.at) / 1000)
    const note = `npm run results (${exp.id}, ${lengthText}): load average ${s.load} at the start, ${load1()} at the end.${o.noteTail ? ` ${o.noteTail}` : ''}`
    await host.runs.note(runId, note)
    say(endLine(await host.runs.get(runId), seconds))
  }
  const offs = [
    host.local.onStudy((e) => {
      if (e.type === 'run') {
        w.studyId = e.studyId
        begin(e.runId, `${e.labels.join(', ')}: `)
      } else if (e.type === 'study-ended') {
        if (e.error) say(`study ${e.studyId} ended early: ${e.error}`)
        void Promise.allSettled([...ended.values()]).then(finish)
      } else if (e.type === 'restart') say(`restarting ${e.stack} with ${JSON.stringify(e.env)}`)
      else if (e.type === 'restore') say(`putting ${e.stack} back as the study found it`)
    }),
    host.runs.onEnded((e) => {
      const done = end(e.runId).catch((err: unknown) => say(`run ${e.runId}: ${String(err)}`))
      ended.set(e.runId, done)
      if (e.runId === single) void done.then(finish)
    }),
  ]
  return w
}

/**
 * Runs `config` and waits for its end (its study's, for a sweep). Past `limitSeconds` the run going
 * on is stopped (its samples kept, the study goes no further) and the outcome says so.
 */
export async function runExperiment(
  host: EngineHost,
  exp: Experiment,
  config: RunConfig,
  o: {
    limitSeconds: number
    lengthText: string
    /** Said after the load in each run's note: the gate it started through (quiet.ts gateSentence). */
    noteTail?: string
    say: (line: string) => void
  },
): Promise<Outcome> {
  const t0 = Date.now()
  const w = watch(host, exp, o)
  let problem: string | null = null
  const timer = setTimeout(() => {
    problem = `over its time limit of ${o.limitSeconds} s: the run going on was stopped`
    o.say(problem)
    w.cut()
  }, o.limitSeconds * 1000)
  try {
    const { runId, studyId } = await host.runs.start(config)
    if (studyId === undefined) w.follow(runId)
    await w.over
  } finally {
    clearTimeout(timer)
    w.off()
  }
  const runs = await Promise.all(w.runIds.map((id) => host.runs.get(id)))
  const bad = runs.filter((r) => r.status !== 'done')
  if (!problem && bad.length)
    problem = bad.map((r) => `run ${r.runId} ${r.status}: ${r.error ?? ''}`).join('; ')
  const total = config.sweep ? config.sweep.values.length * (config.sweep.by?.values.length ?? 1) : 1
  if (!problem && runs.length < total) problem = `${runs.length} of ${total} values ran`
  return { runIds: w.runIds, studyId: w.studyId, problem, seconds: Math.round((Date.now() - t0) / 1000) }
}

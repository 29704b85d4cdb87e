// The five seed studies' headline experiments (issue 22, item 5): which template each one runs,
// how a template is stretched to S seconds × R rounds, the tags that find its runs again in the
// results database, and where that database lives. Shared by `npm run results` (bench/results/
// main.ts) and the guide's screenshots (bench/results/guide.screens.ts), which draw the six from it.
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Api } from '../../engine/api/api.ts'
import { compilePlan } from '../../engine/config/compile.ts'
import type { RunConfig } from '../../engine/config/schema.ts'
import { DEFAULT_RESTART_WARMUP_SECONDS, hasWarmup } from '../../engine/config/sweep.ts'
import type { Template } from '../../engine/study/templates.ts'

export const ROOT = fileURLToPath(new URL('../../', import.meta.url))

export interface Experiment {
  /** What `--only` takes: `pool-size`. */
  id: string
  /** The template in resources/templates/ it runs. */
  template: string
  /** A heading for the doc: the experiment in the study's words. */
  title: string
}

/** In the order of the seed studies (000-004): the doc's order. */
export const EXPERIMENTS: readonly Experiment[] = [
  { id: 'java-vs-node', template: 'thesis-java-vs-node', title: 'Java vs Node.js throughput' },
  { id: 'pool-size', template: 'thesis-pool-size', title: 'Database connection pool size 30 / 60 / 90' },
  { id: 'phases-threads', template: 'phases-threads', title: 'Phased client at 32–256 threads' },
  { id: 'task-size', template: 'nodescala-task-size', title: 'Task size, split vs whole' },
  { id: 'big-bang', template: 'soa-big-bang', title: 'Tomcat big bang at 5 / 15 / 30 clients' },
  { id: 'pooling', template: 'marketplace-pooling', title: 'Connection pooling on and off' },
]

/**
 * The order they run in: each stack is needed by consecutive experiments only, so it starts once
 * and goes down when the last one that needs it is over (at most two app stacks up at a time).
 */
export const RUN_ORDER: readonly string[] = [
  'phases-threads',
  'java-vs-node',
  'pool-size',
  'big-bang',
  'pooling',
  'task-size',
]

/**
 * Rounds until precise for a whole experiment (issue 27): at least `min` rounds, at most `max`, until
 * every headline interval of a run is within ±`precision` % (or decided), and no more than
 * `budgetMinutes` of rounds for the experiment: a sweep's runs share it (each run's
 * `rounds.budgetMinutes` is its share, but never less than its `min` rounds need).
 */
export interface RoundsGoal {
  min: number
  max: number
  precision: number
  budgetMinutes: number
}

/** What the full run uses: the engine's defaults (ROUNDS_DEFAULTS) but 20 minutes an experiment. */
export const FULL_GOAL: RoundsGoal = { min: 3, max: 40, precision: 2, budgetMinutes: 20 }

/** 30 s rounds, rounds until precise. Any other length goes to a check folder. */
export const FULL: Length = { seconds: 30, rounds: FULL_GOAL }

export interface Length {
  seconds: number
  /** Exactly that many rounds (a check), or rounds until precise. */
  rounds: number | RoundsGoal
}

const sameGoal = (a: RoundsGoal, b: RoundsGoal) =>
  a.min === b.min && a.max === b.max && a.precision === b.precision && a.budgetMinutes === b.budgetMinutes

export const isFull = (l: Length): boolean =>
  l.seconds === FULL.seconds && typeof l.rounds !== 'number' && sameGoal(l.rounds, FULL_GOAL)

/** "3 rounds", "rounds until ±2 % (3–40, 20 min an experiment)". */
export function lengthText(l: Length): string {
  const r = l.rounds
  const rounds =
    typeof r === 'number'
      ? `${r} round${r === 1 ? '' : 's'}`
      : `rounds until ±${r.precision} % (${r.min}–${r.max}, ${r.budgetMinutes} min an experiment)`
  return `${rounds} × ${l.seconds} s`
}

/**
 * The data folder of a length: artifacts/results/ for the full length (its cannonade.db is the
 * results database docs/results.md and the guide's screenshots are drawn from), a folder of its
 * own for a shortened check, so a check never overwrites the full run's figures.
 */
export function dataDirOf(l: Length): string {
  if (isFull(l)) return join(ROOT, 'artifacts', 'results')
  const r = l.rounds
  const rounds = typeof r === 'number' ? `${r}r` : `p${r.precision}-${r.min}-${r.max}r-${r.budgetMinutes}min`
  return join(ROOT, 'artifacts', `results-check-${l.seconds}s-${rounds}`)
}

export const RESULTS_DIR = dataDirOf(FULL)
export const dbPathOf = (dataDir: string): string => join(dataDir, 'cannonade.db')

/** Tags every run of an experiment carries: `results` and `results-<id>`. */
export const tagOf = (id: string): string => `results-${id}`

export function experimentOf(templateOrId: string): Experiment | undefined {
  return EXPERIMENTS.find((e) => e.id === templateOrId || e.template === templateOrId)
}

/** How long a profile runs (its window, or its phases' durations added up). */
function profileSeconds(c: RunConfig): number {
  const p = c.load.profile
  if (p.kind === 'phases') return p.phases.reduce((s, ph) => s + (ph.duration ?? 0), 0)
  if (c.load.duration === undefined) throw new Error(`${c.name}: no load.duration to stretch`)
  return c.load.duration
}

/**
 * The template at `seconds` per round and `rounds` rounds (a number, or rounds until precise within
 * the experiment's budget: roundsOf), several targets in a random order each round: the window (or the phases) scaled to
 * `seconds`, every time of the profile with it so its shape is kept (a pool-size ramp's steps, the
 * phases' shares of the time), warm-ups and cooldowns as the template has them, and the tags.
 */
export function atLength(t: Template, exp: Experiment, l: Length): RunConfig {
  const c = t.config
  const k = l.seconds / profileSeconds(c)
  const p = c.load.profile
  const scale = (x: number) => Math.round(x * k * 1000) / 1000
  const maybe = (x: number | undefined) => (x === undefined ? undefined : scale(x))
  const profile =
    p.kind === 'phases'
      ? { ...p, phases: p.phases.map((ph) => ({ ...ph, duration: maybe(ph.duration) })) }
      : p.kind === 'ramp'
        ? {
            ...p,
            rampSeconds: maybe(p.rampSeconds),
            stepSeconds: maybe(p.stepSeconds),
            holdSeconds: scale(p.holdSeconds),
            pauseSeconds: scale(p.pauseSeconds),
          }
        : p.kind === 'burst'
          ? { ...p, burstSeconds: scale(p.burstSeconds), idleSeconds: scale(p.idleSeconds) }
          : p
  const out: RunConfig = {
    ...c,
    load: { ...c.load, profile, ...(p.kind === 'phases' ? {} : { duration: l.seconds }) },
    rounds: 1,
    tags: [...c.tags, 'results', tagOf(exp.id)],
  }
  // Several targets: each round in a fresh seeded random order (config/segments.ts).
  const stretched: RunConfig = {
    ...out,
    ...(c.targets.length > 1 ? { schedule: 'randomized' as const } : {}),
  }
  return { ...stretched, rounds: roundsOf(stretched, l.rounds) }
}

/** How many runs an experiment makes: its sweep's values (× its second setting's), or 1. */
export const runsOf = (c: RunConfig): number =>
  c.sweep ? c.sweep.values.length * (c.sweep.by?.values.length ?? 1) : 1

/**
 * Seconds one round of a run takes: each target's segment (its window, with the warm-up a run
 * whose stacks the engine started opens it with) and the cooldowns between them.
 */
export function roundSeconds(config: RunConfig): number {
  const window = compilePlan(config.load).seconds ?? 0
  const warmup = hasWarmup(config) ? 0 : DEFAULT_RESTART_WARMUP_SECONDS
  return config.targets.length * (window + warmup + config.cooldownSeconds)
}

/**
 * A run's rounds for a goal: the experiment's budget split over its runs, but at least what its
 * `min` rounds need with a quarter to spare (a round's segments start stacks, warm up, cool down).
 * Rounds until precise compare a run's targets with each other; a one-target experiment compares
 * its runs instead (a sweep's values), which the engine's rule cannot look at while a run goes on,
 * so each of its runs makes as many rounds as its share of the budget holds (`min` to `max`).
 */
export function roundsOf(config: RunConfig, r: number | RoundsGoal): RunConfig['rounds'] {
  if (typeof r === 'number') return r
  const round = roundSeconds(config)
  const need = (r.min * round * 1.25) / 60
  const share = r.budgetMinutes / runsOf(config)
  if (config.targets.length < 2)
    return Math.max(r.min, Math.min(r.max, Math.floor((share * 60) / (round * 1.25))))
  const budgetMinutes = Math.ceil(Math.max(share, need) * 10) / 10
  return { min: r.min, max: r.max, precision: r.precision, budgetMinutes, skipDisturbed: false }
}

/** An experiment's newest result in a database: its study, or its run when it sweeps nothing. */
export interface Found {
  runIds: number[]
  studyId: number | null
}

export async function findResult(api: Api, exp: Experiment): Promise<Found | null> {
  const { items } = await api.runs.list({ tags: [tagOf(exp.id)], limit: 1000 })
  if (items.length === 0) return null
  const newest = items.reduce((a, b) => (b.runId > a.runId ? b : a))
  const study = (await api.studies.list()).find((s) => s.runIds.includes(newest.runId))
  return study ? { runIds: study.runIds, studyId: study.studyId } : { runIds: [newest.runId], studyId: null }
}

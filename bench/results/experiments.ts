// The five seed studies' headline experiments (issue 22, item 5): which template each one runs,
// how a template is stretched to S seconds × R rounds, the tags that find its runs again in the
// results database, and where that database lives. Shared by `npm run results` (bench/results/
// main.ts) and the guide's screenshots (bench/results/guide.screens.ts), which draw the six from it.
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Api } from '../../engine/api/api.ts'
import type { RunConfig } from '../../engine/config/schema.ts'
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

/** The length the issue asks for: 3 rounds × 30 s. Any other goes to a check folder. */
export const FULL = { seconds: 30, rounds: 3 } as const

export interface Length {
  seconds: number
  rounds: number
}

export const isFull = (l: Length): boolean => l.seconds === FULL.seconds && l.rounds === FULL.rounds

/**
 * The data folder of a length: artifacts/results/ for the full length (its cannonade.db is the
 * results database docs/results.md and the guide's screenshots are drawn from), a folder of its
 * own for a shortened check, so a check never overwrites the full run's figures.
 */
export function dataDirOf(l: Length): string {
  return isFull(l)
    ? join(ROOT, 'artifacts', 'results')
    : join(ROOT, 'artifacts', `results-check-${l.seconds}s-${l.rounds}r`)
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
 * The template at `seconds` per round and `rounds` rounds: the window (or the phases) scaled to
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
  return {
    ...c,
    load: { ...c.load, profile, ...(p.kind === 'phases' ? {} : { duration: l.seconds }) },
    rounds: l.rounds,
    tags: [...c.tags, 'results', tagOf(exp.id)],
  }
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

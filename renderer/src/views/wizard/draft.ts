// The wizard's editable model. Form fields hold what the user typed (numbers may be undefined or
// NaN while typing); `toConfigInput` turns the draft into a RunConfig document and `validate`
// runs the same zod schema the CLI uses, keyed by field path ("targets.0.url") for inline messages.
import {
  DEFAULT_CORRELATION_HEADER,
  ROUNDS_DEFAULTS,
  isLatencyMetric,
  RunConfigV1Schema,
  type ProfileKind,
  type RunConfig,
  type RunConfigInput,
  type ThresholdMetric,
} from '#engine/config/schema.ts'
import { issuesOf } from '#engine/config/issue-words.ts'
import { parseTags } from '../../lib/tags.ts'
import { clean, type Num } from './clean.ts'
import { emptyTarget, targetInput, type TargetDraft } from './targetDraft.ts'
import { emptySweep, sweepInput, sweepIssues, type SweepDraft } from './sweepDraft.ts'
import { agentsInput, emptyAgents, type AgentsDraft } from './agentsDraft.ts'

export { emptyMonitor, monitorSpec, type MonitorDraft, type MonitorKind } from './monitorDraft.ts'
export type { Num } from './clean.ts'
export { chooseProtocol, emptyTarget, type StackDraft, type TargetDraft } from './targetDraft.ts'

export type { ProfileKind }

/** How a wizard step changes the draft: it edits a copy in place, and the wizard keeps the copy. */
export type Patch = (change: (d: Draft) => void) => void

export interface PhaseDraft {
  name: string
  share: Num
  by: 'duration' | 'requests'
  duration: Num
  requests: Num
  /** Recorded and shown, left out of the summary, thresholds and comparisons. */
  warmup: boolean
}

export interface Draft {
  name: string
  tags: string
  targets: TargetDraft[]
  load: {
    connections: Num
    mode: 'duration' | 'requests'
    duration: Num
    requests: Num
    profile: {
      kind: ProfileKind
      ramp: {
        from: Num
        to: Num
        rampSeconds: Num
        holdSeconds: Num
        stepped: boolean
        stepSize: Num
        stepSeconds: Num
        pauseSeconds: Num
      }
      burst: { burstSeconds: Num; idleSeconds: Num; connections: Num }
      phases: PhaseDraft[]
      stages: { duration: Num; connections: Num }[]
    }
    keepAlive: boolean
    pipelining: Num
    timeoutMs: Num
    rateLimited: boolean
    rate: Num
    /** Seconds of warm-up before the profile (0 = none). */
    warmupSeconds: Num
    /** load.warmup: auto: each segment's warm-up found when it ends (a constant profile only). */
    warmupAuto: boolean
    /** Seeds random think times. */
    seed: Num
  }
  schedule: RunConfig['schedule']
  /** A fixed number of rounds, or rounds until every headline interval is precise (`precise`). */
  roundsMode: 'fixed' | 'precise'
  rounds: Num
  precise: PreciseDraft
  cooldownSeconds: Num
  correlationHeader: string
  thresholds: ThresholdDraft[]
  sweep: SweepDraft
  /** Who generates the load: this machine, or N load agents and their launcher. */
  agents: AgentsDraft
}

/** `rounds: { min, max, precision, budgetMinutes, skipDisturbed }` (engine/config/rounds.ts). */
export interface PreciseDraft {
  min: Num
  max: Num
  /** ± % */
  precision: Num
  budgetMinutes: Num
  skipDisturbed: boolean
}

export interface ThresholdDraft {
  metric: ThresholdMetric
  target: string
  bound: 'max' | 'min'
  /** Latencies in milliseconds here (the config keeps microseconds), throughput req/s, errorRate %. */
  value: Num
}

export function defaultDraft(): Draft {
  return {
    name: 'New run',
    tags: '',
    targets: [emptyTarget('target-1', '')],
    load: {
      connections: 16,
      mode: 'duration',
      duration: 30,
      requests: undefined,
      profile: {
        kind: 'constant',
        ramp: {
          from: 1,
          to: undefined,
          rampSeconds: 10,
          holdSeconds: 0,
          stepped: false,
          stepSize: 4,
          stepSeconds: 5,
          pauseSeconds: 0,
        },
        burst: { burstSeconds: 5, idleSeconds: 5, connections: undefined },
        phases: [
          { name: 'warmup', share: 0.1, by: 'duration', duration: 10, requests: undefined, warmup: true },
          { name: 'load', share: 0.5, by: 'duration', duration: 30, requests: undefined, warmup: false },
          { name: 'peak', share: 1, by: 'duration', duration: 20, requests: undefined, warmup: false },
          { name: 'cooldown', share: 0.25, by: 'duration', duration: 10, requests: undefined, warmup: false },
        ],
        stages: [
          { duration: 10, connections: 8 },
          { duration: 20, connections: 16 },
          { duration: 10, connections: 0 },
        ],
      },
      keepAlive: true,
      pipelining: 1,
      timeoutMs: 10_000,
      rateLimited: false,
      rate: 100,
      warmupSeconds: 0,
      warmupAuto: false,
      seed: 1,
    },
    // A comparison needs 3 rounds per target for its interval (engine/metrics/compare-metric.ts);
    // rounds in a random order are paired round by round, which cancels drift over time, and no
    // target always runs first.
    schedule: 'randomized',
    roundsMode: 'fixed',
    rounds: 3,
    precise: { ...ROUNDS_DEFAULTS, skipDisturbed: false },
    cooldownSeconds: 5,
    correlationHeader: DEFAULT_CORRELATION_HEADER,
    thresholds: [],
    sweep: emptySweep(),
    agents: emptyAgents(),
  }
}

/** Display units → config units: ms → µs for latencies, % → fraction for the error rate. */
function thresholdValue(t: ThresholdDraft): number | undefined {
  if (t.value === undefined) return undefined
  if (isLatencyMetric(t.metric)) return Math.round(t.value * 1000)
  if (t.metric === 'errorRate') return t.value / 100
  return t.value
}

function profileInput(p: Draft['load']['profile']): Record<string, unknown> {
  switch (p.kind) {
    case 'constant':
      return { kind: 'constant' }
    case 'ramp': {
      const r = p.ramp
      return r.stepped
        ? clean({
            kind: 'ramp',
            from: r.from,
            to: r.to,
            stepSize: r.stepSize,
            stepSeconds: r.stepSeconds,
            pauseSeconds: r.pauseSeconds,
            holdSeconds: r.holdSeconds,
          })
        : clean({
            kind: 'ramp',
            from: r.from,
            to: r.to,
            rampSeconds: r.rampSeconds,
            holdSeconds: r.holdSeconds,
          })
    }
    case 'burst':
      return clean({
        kind: 'burst',
        burstSeconds: p.burst.burstSeconds,
        idleSeconds: p.burst.idleSeconds,
        connections: p.burst.connections,
      })
    case 'phases':
      return {
        kind: 'phases',
        phases: p.phases.map((ph) =>
          clean({
            name: ph.name,
            share: ph.share,
            duration: ph.by === 'duration' ? ph.duration : undefined,
            requests: ph.by === 'requests' ? ph.requests : undefined,
            warmup: ph.warmup || undefined,
          }),
        ),
      }
    case 'stages':
      return {
        kind: 'stages',
        stages: p.stages.map((s) => ({ duration: s.duration, connections: s.connections })),
      }
  }
}

export function loadInput(l: Draft['load']): Record<string, unknown> {
  const ownWindow = l.profile.kind === 'phases' || l.profile.kind === 'stages'
  const auto = l.warmupAuto && l.profile.kind === 'constant'
  return clean({
    connections: l.connections,
    duration: !ownWindow && l.mode === 'duration' ? l.duration : undefined,
    requests: !ownWindow && l.mode === 'requests' ? l.requests : undefined,
    profile: profileInput(l.profile),
    keepAlive: l.keepAlive,
    pipelining: l.pipelining,
    timeoutMs: l.timeoutMs,
    rate: l.rateLimited ? l.rate : null,
    warmup: auto ? 'auto' : undefined,
    warmupSeconds: l.profile.kind === 'phases' || auto || l.warmupSeconds === 0 ? undefined : l.warmupSeconds,
    seed: l.seed === 1 ? undefined : l.seed,
  })
}

export function toConfigInput(d: Draft): RunConfigInput {
  const doc = {
    version: 1,
    name: d.name,
    targets: d.targets.map(targetInput),
    load: loadInput(d.load),
    schedule: d.schedule,
    rounds:
      d.roundsMode === 'precise'
        ? {
            min: d.precise.min,
            max: d.precise.max,
            precision: d.precise.precision,
            budgetMinutes: d.precise.budgetMinutes,
            ...(d.precise.skipDisturbed ? { skipDisturbed: true } : {}),
          }
        : d.rounds,
    cooldownSeconds: d.cooldownSeconds,
    correlationHeader: d.correlationHeader,
    thresholds: d.thresholds.length
      ? d.thresholds.map((t) => ({ metric: t.metric, target: t.target, [t.bound]: thresholdValue(t) }))
      : undefined,
    tags: parseTags(d.tags),
    sweep: sweepInput(d.sweep),
    agents: agentsInput(d.agents),
  }
  // The schema decides what is valid; the input type only describes a well-formed document.
  return clean(doc) as RunConfigInput
}

export type Issues = ReadonlyMap<string, string>

export interface Validation {
  config: RunConfig | null
  issues: Issues
  /** Messages no field on screen shows (cross-field rules), in order. */
  list: { field: string; message: string }[]
}

function byField(list: { field: string; message: string }[]): Validation {
  const issues = new Map<string, string>()
  for (const { field, message } of list) if (!issues.has(field)) issues.set(field, message)
  return { config: null, issues, list }
}

export function validate(d: Draft): Validation {
  const result = RunConfigV1Schema.safeParse(toConfigInput(d))
  if (result.success) {
    // What the schema cannot see: whether the swept path is a setting here and each value fits.
    const more = sweepIssues(result.data)
    return more.length ? byField(more) : { config: result.data, issues: new Map(), list: [] }
  }
  // The same words as the CLI and the Api (engine/config/issue-words.ts), never schema text.
  return byField(issuesOf(result.error))
}

/** Whether the document holds something at `field` ("targets.0.url"): empty text counts as nothing. */
export function hasValue(doc: unknown, field: string): boolean {
  let node: unknown = doc
  for (const key of field.split('.')) {
    if (typeof node !== 'object' || node === null) return false
    node = (node as Record<string, unknown>)[key]
  }
  return node !== undefined && node !== ''
}

export type StepId = 'targets' | 'load' | 'monitoring' | 'review'

export function stepOf(field: string): StepId {
  if (/^targets\.\d+\.monitor/.test(field)) return 'monitoring'
  if (field.startsWith('targets')) return 'targets'
  if (
    field.startsWith('load') ||
    field.startsWith('sweep') ||
    field.startsWith('agents') ||
    field.startsWith('rounds') ||
    ['schedule', 'scheduleSeed', 'cooldownSeconds'].includes(field)
  )
    return 'load'
  return 'review'
}

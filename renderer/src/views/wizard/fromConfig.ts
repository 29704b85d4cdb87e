// From a stored RunConfig back to the wizard's draft: "Run again…" and loaded templates.
import { isLatencyMetric, type RunConfig, type ThresholdMetric } from '#engine/config/schema.ts'
import { defaultDraft, emptyTarget, type Draft, type TargetDraft, type ThresholdDraft } from './draft.ts'
import { expectText } from './expectDraft.ts'
import { monitorFromSpec } from './monitorDraft.ts'
import { stepFromConfig, thinkFromConfig } from './scenarioDraft.ts'
import { sweepDraftOf } from './sweepDraft.ts'
import { agentsFromConfig } from './agentsDraft.ts'

/** Config units → display units: µs → ms for latencies, fraction → % for the error rate. */
function thresholdDisplay(metric: ThresholdMetric, v: number): number {
  if (isLatencyMetric(metric)) return v / 1000
  if (metric === 'errorRate') return v * 100
  return v
}

type TargetConfig = RunConfig['targets'][number]

/** A config's target as the wizard edits it (an imported scenario's targets come in this way too). */
export function targetFromConfig(t: TargetConfig): TargetDraft {
  const td = emptyTarget(t.name, t.url)
  td.method = t.method
  td.headers = Object.entries(t.headers).map(([name, value]) => ({ name, value }))
  if (t.body !== null && typeof t.body === 'object') td.generated = { ...t.body }
  else td.body = t.body ?? ''
  td.insecure = t.insecure
  td.tlsResume = t.tls?.resume ?? false
  td.expect = expectText(t.expect)
  td.protocol = t.protocol
  td.streams = t.streams
  td.steps = t.steps ? t.steps.map(stepFromConfig) : null
  td.think = thinkFromConfig(t.think)
  td.stack = t.stack
    ? { name: t.stack.name, native: t.stack.native, env: { ...t.stack.env }, replicas: t.stack.replicas }
    : null
  td.series = t.series ? { ...t.series } : null
  td.secrets = t.secrets ? { ...t.secrets } : null
  // The wizard edits a target's first monitor; any more are kept as they are.
  const all = t.monitor === undefined ? [] : Array.isArray(t.monitor) ? t.monitor : [t.monitor]
  td.monitor.more = all.slice(1)
  if (all[0] !== undefined) monitorFromSpec(td.monitor, all[0])
  return td
}

/** The profile into the draft's fields of its kind (the draft keeps every kind's fields). */
function profileFromConfig(profile: Draft['load']['profile'], p: RunConfig['load']['profile']): void {
  profile.kind = p.kind
  if (p.kind === 'ramp') {
    profile.ramp = {
      ...profile.ramp,
      from: p.from,
      to: p.to,
      rampSeconds: p.rampSeconds,
      holdSeconds: p.holdSeconds,
      stepped: p.stepSize !== undefined,
      stepSize: p.stepSize,
      stepSeconds: p.stepSeconds,
      pauseSeconds: p.pauseSeconds,
    }
  } else if (p.kind === 'burst') {
    profile.burst = { burstSeconds: p.burstSeconds, idleSeconds: p.idleSeconds, connections: p.connections }
  } else if (p.kind === 'phases') {
    profile.phases = p.phases.map((ph) => ({
      name: ph.name,
      share: ph.share,
      by: ph.requests !== undefined ? 'requests' : 'duration',
      duration: ph.duration,
      requests: ph.requests,
      warmup: ph.warmup,
    }))
  } else if (p.kind === 'stages') {
    profile.stages = p.stages.map((s) => ({ duration: s.duration, connections: s.connections }))
  } else {
    // Only a kind without fields of its own gets here: a new kind is a compile error until it has a branch.
    const _fieldless: 'constant' = p.kind
  }
}

function loadFromConfig(load: Draft['load'], l: RunConfig['load']): void {
  load.connections = l.connections
  load.mode = l.requests !== undefined ? 'requests' : 'duration'
  load.duration = l.duration
  load.requests = l.requests
  load.keepAlive = l.keepAlive
  load.pipelining = l.pipelining
  load.timeoutMs = l.timeoutMs
  load.rateLimited = l.rate !== null
  load.rate = l.rate ?? load.rate
  load.warmupSeconds = l.warmupSeconds
  load.warmupAuto = l.warmup === 'auto'
  load.seed = l.seed
  profileFromConfig(load.profile, l.profile)
}

function thresholdFromConfig(t: RunConfig['thresholds'][number]): ThresholdDraft {
  const raw = t.max ?? t.min
  return {
    metric: t.metric,
    target: t.target,
    bound: t.max !== undefined ? 'max' : 'min',
    value: raw === undefined ? undefined : thresholdDisplay(t.metric, raw),
  }
}

/** Prefill from a stored run's config ("run again") or a loaded template. */
export function fromConfig(c: RunConfig): Draft {
  const d = defaultDraft()
  d.name = c.name
  d.tags = c.tags.join(', ')
  d.targets = c.targets.map(targetFromConfig)
  loadFromConfig(d.load, c.load)
  d.schedule = c.schedule
  // A run again draws a new order: its seed (scheduleSeed) stays with the stored run.
  if (typeof c.rounds === 'number') {
    d.roundsMode = 'fixed'
    d.rounds = c.rounds
  } else {
    d.roundsMode = 'precise'
    d.precise = { ...c.rounds }
    d.rounds = c.rounds.min
  }
  d.cooldownSeconds = c.cooldownSeconds
  d.correlationHeader = c.correlationHeader
  d.sweep = c.sweep ? sweepDraftOf(c.sweep) : { ...d.sweep, enabled: false }
  d.agents = agentsFromConfig(c.agents)
  d.thresholds = c.thresholds.map(thresholdFromConfig)
  return d
}

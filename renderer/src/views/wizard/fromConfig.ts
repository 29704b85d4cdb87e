// From a stored RunConfig back to the wizard's draft: "Run again…" and loaded templates.
import { isLatencyMetric, type RunConfig, type ThresholdMetric } from '../../../../engine/config/schema.ts'
import { defaultDraft, emptyTarget, type Draft } from './draft.ts'
import { prometheusFromConfig } from './monitorDraft.ts'
import { stepFromConfig, thinkFromConfig } from './scenarioDraft.ts'
import { sweepDraftOf } from './sweepDraft.ts'
import { agentsFromConfig } from './agentsDraft.ts'

/** Config units → display units: µs → ms for latencies, fraction → % for the error rate. */
function thresholdDisplay(metric: ThresholdMetric, v: number): number {
  if (isLatencyMetric(metric)) return v / 1000
  if (metric === 'errorRate') return v * 100
  return v
}

/** Prefill from a stored run's config ("run again") or a loaded template. */
export function fromConfig(c: RunConfig): Draft {
  const d = defaultDraft()
  d.name = c.name
  d.tags = c.tags.join(', ')
  d.targets = c.targets.map((t) => {
    const td = emptyTarget(t.name, t.url)
    td.method = t.method
    td.headers = Object.entries(t.headers).map(([name, value]) => ({ name, value }))
    if (t.body !== null && typeof t.body === 'object') td.generated = { ...t.body }
    else td.body = t.body ?? ''
    td.insecure = t.insecure
    td.steps = t.steps ? t.steps.map(stepFromConfig) : null
    td.think = thinkFromConfig(t.think)
    td.stack = t.stack
      ? { name: t.stack.name, native: t.stack.native, env: { ...t.stack.env }, replicas: t.stack.replicas }
      : null
    td.series = t.series ? { ...t.series } : null
    // The wizard edits a target's first monitor; any more are kept as they are.
    const all = t.monitor === undefined ? [] : Array.isArray(t.monitor) ? t.monitor : [t.monitor]
    const m = all[0]
    td.monitor.more = all.slice(1)
    if (m?.kind === 'docker') {
      td.monitor.kind = 'docker'
      const blank = {
        container: '',
        project: '',
        stack: '',
        service: m.service ?? '',
        processes: m.processes ?? false,
      }
      td.monitor.docker =
        m.container !== undefined
          ? { ...blank, by: 'container', container: m.container, service: '' }
          : m.stack !== undefined
            ? { ...blank, by: 'stack', stack: m.stack }
            : { ...blank, by: 'project', project: m.project ?? '' }
    } else if (m?.kind === 'process') {
      td.monitor.kind = 'process'
      td.monitor.process =
        m.pid !== undefined
          ? { by: 'pid', pid: m.pid, port: undefined }
          : { by: 'port', pid: undefined, port: m.port }
    } else if (m?.kind === 'postgres') {
      td.monitor.kind = 'postgres'
      td.monitor.postgres =
        m.stack !== undefined
          ? { ...td.monitor.postgres, by: 'stack', stack: m.stack }
          : { ...td.monitor.postgres, by: 'url', url: m.url ?? '', passwordEnv: m.passwordEnv ?? '' }
    } else if (m?.kind === 'cloudfoundry') {
      td.monitor.kind = 'cloudfoundry'
      const a = m.auth
      td.monitor.cf = {
        ...td.monitor.cf,
        api: m.api,
        app: m.app,
        space: m.space ?? '',
        skipTlsVerify: m.skipTlsVerify ?? false,
        grant: a.grant,
        username: a.grant === 'password' ? a.username : '',
        passwordEnv: a.grant === 'password' ? (a.passwordEnv ?? '') : td.monitor.cf.passwordEnv,
        refreshTokenEnv: a.grant === 'refresh' ? (a.refreshTokenEnv ?? '') : td.monitor.cf.refreshTokenEnv,
        tokenEnv: a.grant === 'token' ? (a.tokenEnv ?? '') : td.monitor.cf.tokenEnv,
      }
    } else if (m?.kind === 'prometheus') {
      td.monitor.kind = 'prometheus'
      td.monitor.prometheus = prometheusFromConfig(td.monitor.prometheus, m)
    } else if (m?.kind === 'kubernetes') {
      td.monitor.kind = 'kubernetes'
      td.monitor.kubernetes = { namespace: m.namespace ?? '', selector: m.selector }
    } else if (m !== undefined) {
      // Every monitor kind above: a new one is a compile error here until the draft reads it.
      const _unread: never = m
    }
    return td
  })
  const l = c.load
  d.load.connections = l.connections
  d.load.mode = l.requests !== undefined ? 'requests' : 'duration'
  d.load.duration = l.duration
  d.load.requests = l.requests
  d.load.keepAlive = l.keepAlive
  d.load.pipelining = l.pipelining
  d.load.timeoutMs = l.timeoutMs
  d.load.rateLimited = l.rate !== null
  d.load.rate = l.rate ?? d.load.rate
  d.load.warmupSeconds = l.warmupSeconds
  d.load.seed = l.seed
  const p = l.profile
  d.load.profile.kind = p.kind
  if (p.kind === 'ramp') {
    const stepped = p.stepSize !== undefined
    d.load.profile.ramp = {
      ...d.load.profile.ramp,
      from: p.from,
      to: p.to,
      rampSeconds: p.rampSeconds,
      holdSeconds: p.holdSeconds,
      stepped,
      stepSize: p.stepSize,
      stepSeconds: p.stepSeconds,
      pauseSeconds: p.pauseSeconds,
    }
  } else if (p.kind === 'burst') {
    d.load.profile.burst = {
      burstSeconds: p.burstSeconds,
      idleSeconds: p.idleSeconds,
      connections: p.connections,
    }
  } else if (p.kind === 'phases') {
    d.load.profile.phases = p.phases.map((ph) => ({
      name: ph.name,
      share: ph.share,
      by: ph.requests !== undefined ? 'requests' : 'duration',
      duration: ph.duration,
      requests: ph.requests,
      warmup: ph.warmup,
    }))
  } else if (p.kind === 'stages') {
    d.load.profile.stages = p.stages.map((s) => ({ duration: s.duration, connections: s.connections }))
  } else {
    // Only a kind without fields of its own gets here: a new kind is a compile error until it has a branch.
    const _fieldless: 'constant' = p.kind
  }
  d.schedule = c.schedule
  d.rounds = c.rounds
  d.cooldownSeconds = c.cooldownSeconds
  d.correlationHeader = c.correlationHeader
  d.sweep = c.sweep ? sweepDraftOf(c.sweep) : { ...d.sweep, enabled: false }
  d.agents = agentsFromConfig(c.agents)
  d.thresholds = c.thresholds.map((t) => {
    const bound = t.max !== undefined ? 'max' : 'min'
    const raw = t.max ?? t.min
    return {
      metric: t.metric,
      target: t.target,
      bound,
      value: raw === undefined ? undefined : thresholdDisplay(t.metric, raw),
    }
  })
  return d
}

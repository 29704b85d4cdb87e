// The wizard's editable model. Form fields hold what the user typed (numbers may be undefined or
// NaN while typing); `toConfigInput` turns the draft into a RunConfig document and `validate`
// runs the same zod schema the CLI uses, keyed by field path ("targets.0.url") for inline messages.
import {
  RunConfigV1Schema,
  type RunConfig,
  type RunConfigInput,
  type ThresholdMetric,
} from '../../../../engine/config/schema.ts'

export type ProfileKind = 'constant' | 'ramp' | 'burst' | 'phases' | 'stages'
export type MonitorKind = 'none' | 'docker' | 'process' | 'cloudfoundry'
type Num = number | undefined

export interface MonitorDraft {
  kind: MonitorKind
  docker: { by: 'container' | 'project'; container: string; project: string; service: string }
  process: { by: 'pid' | 'port'; pid: Num; port: Num }
  cf: {
    api: string
    app: string
    space: string
    grant: 'password' | 'refresh' | 'token'
    username: string
    passwordEnv: string
    refreshTokenEnv: string
    tokenEnv: string
    skipTlsVerify: boolean
  }
}

export interface TargetDraft {
  name: string
  url: string
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS'
  headers: { name: string; value: string }[]
  body: string
  insecure: boolean
  monitor: MonitorDraft
}

export interface PhaseDraft {
  name: string
  share: Num
  by: 'duration' | 'requests'
  duration: Num
  requests: Num
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
  }
  schedule: 'sequential' | 'interleaved'
  rounds: Num
  cooldownSeconds: Num
  correlationHeader: string
  thresholds: ThresholdDraft[]
}

export interface ThresholdDraft {
  metric: ThresholdMetric
  target: string
  bound: 'max' | 'min'
  /** Latencies in milliseconds here (the config keeps microseconds), throughput req/s, errorRate %. */
  value: Num
}

export const LATENCY_METRICS: readonly ThresholdMetric[] = [
  'mean',
  'p50',
  'p90',
  'p95',
  'p99',
  'p99.9',
  'max',
]

export function emptyMonitor(): MonitorDraft {
  return {
    kind: 'none',
    docker: { by: 'container', container: '', project: '', service: '' },
    process: { by: 'port', pid: undefined, port: undefined },
    cf: {
      api: '',
      app: '',
      space: '',
      grant: 'password',
      username: '',
      passwordEnv: 'CF_PASSWORD',
      refreshTokenEnv: 'CF_REFRESH_TOKEN',
      tokenEnv: 'CF_TOKEN',
      skipTlsVerify: false,
    },
  }
}

export function emptyTarget(name = '', url = ''): TargetDraft {
  return { name, url, method: 'GET', headers: [], body: '', insecure: false, monitor: emptyMonitor() }
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
          { name: 'warmup', share: 0.1, by: 'duration', duration: 10, requests: undefined },
          { name: 'load', share: 0.5, by: 'duration', duration: 30, requests: undefined },
          { name: 'peak', share: 1, by: 'duration', duration: 20, requests: undefined },
          { name: 'cooldown', share: 0.25, by: 'duration', duration: 10, requests: undefined },
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
    },
    schedule: 'sequential',
    rounds: 1,
    cooldownSeconds: 5,
    correlationHeader: 'x-correlation-id',
    thresholds: [],
  }
}

/** Display units → config units: ms → µs for latencies, % → fraction for the error rate. */
function thresholdValue(t: ThresholdDraft): number | undefined {
  if (t.value === undefined) return undefined
  if (LATENCY_METRICS.includes(t.metric)) return Math.round(t.value * 1000)
  if (t.metric === 'errorRate') return t.value / 100
  return t.value
}

/** Drop undefined so the document reads like a hand-written config (and YAML shows no nulls). */
function clean<T extends Record<string, unknown>>(obj: T): Partial<T> {
  const out: Partial<T> = {}
  for (const [k, v] of Object.entries(obj)) if (v !== undefined) (out as Record<string, unknown>)[k] = v
  return out
}

function monitorInput(m: MonitorDraft): Record<string, unknown> | undefined {
  switch (m.kind) {
    case 'none':
      return undefined
    case 'docker':
      return m.docker.by === 'container'
        ? { kind: 'docker', container: m.docker.container }
        : clean({ kind: 'docker', project: m.docker.project, service: m.docker.service.trim() || undefined })
    case 'process':
      return m.process.by === 'pid'
        ? { kind: 'process', pid: m.process.pid }
        : { kind: 'process', port: m.process.port }
    case 'cloudfoundry': {
      const c = m.cf
      const auth =
        c.grant === 'password'
          ? clean({ grant: 'password', username: c.username, passwordEnv: c.passwordEnv.trim() || undefined })
          : c.grant === 'refresh'
            ? clean({ grant: 'refresh', refreshTokenEnv: c.refreshTokenEnv.trim() || undefined })
            : clean({ grant: 'token', tokenEnv: c.tokenEnv.trim() || undefined })
      return clean({
        kind: 'cloudfoundry',
        api: c.api,
        app: c.app,
        space: c.space.trim() || undefined,
        skipTlsVerify: c.skipTlsVerify || undefined,
        auth,
      })
    }
  }
}

export function monitorSpec(m: MonitorDraft): unknown {
  return monitorInput(m)
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
  return clean({
    connections: l.connections,
    duration: !ownWindow && l.mode === 'duration' ? l.duration : undefined,
    requests: !ownWindow && l.mode === 'requests' ? l.requests : undefined,
    profile: profileInput(l.profile),
    keepAlive: l.keepAlive,
    pipelining: l.pipelining,
    timeoutMs: l.timeoutMs,
    rate: l.rateLimited ? l.rate : null,
  })
}

export function parseTagList(text: string): string[] {
  return [
    ...new Set(
      text
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean),
    ),
  ]
}

export function toConfigInput(d: Draft): RunConfigInput {
  const doc = {
    version: 1,
    name: d.name,
    targets: d.targets.map((t) =>
      clean({
        name: t.name,
        url: t.url.trim(),
        method: t.method,
        headers: t.headers.length
          ? Object.fromEntries(t.headers.filter((h) => h.name !== '').map((h) => [h.name, h.value]))
          : undefined,
        body: t.body === '' ? undefined : t.body,
        insecure: t.insecure || undefined,
        monitor: monitorInput(t.monitor),
      }),
    ),
    load: loadInput(d.load),
    schedule: d.schedule,
    rounds: d.rounds,
    cooldownSeconds: d.cooldownSeconds,
    correlationHeader: d.correlationHeader,
    thresholds: d.thresholds.length
      ? d.thresholds.map((t) => ({ metric: t.metric, target: t.target, [t.bound]: thresholdValue(t) }))
      : undefined,
    tags: parseTagList(d.tags),
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

export function validate(d: Draft): Validation {
  const result = RunConfigV1Schema.safeParse(toConfigInput(d))
  if (result.success) return { config: result.data, issues: new Map(), list: [] }
  const issues = new Map<string, string>()
  const list: { field: string; message: string }[] = []
  for (const issue of result.error.issues) {
    const field = issue.path.map(String).join('.')
    const message =
      issue.code === 'invalid_type' && /received (undefined|NaN)/.test(issue.message)
        ? issue.message.includes('NaN')
          ? 'must be a number'
          : 'is required'
        : issue.message
    if (!issues.has(field)) issues.set(field, message)
    list.push({ field, message })
  }
  return { config: null, issues, list }
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
  if (field.startsWith('load') || ['schedule', 'rounds', 'cooldownSeconds'].includes(field)) return 'load'
  return 'review'
}

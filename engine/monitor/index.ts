import { CloudFoundryMonitor } from './cloudfoundry.ts'
import { DockerMonitor } from './docker.ts'
import { GeneratorMonitor } from './generator.ts'
import { KubernetesMonitor } from './kubernetes.ts'
import { assertInterval } from './loop.ts'
import { PostgresMonitor } from './postgres.ts'
import { ProcessMonitor } from './process.ts'
import { stoppable } from './stoppable.ts'
import { PrometheusMonitor } from './prometheus.ts'
import { MonitorSpecSchema, formatSpecIssues } from '../config/schema-monitor.ts'
import { formatSeriesValue } from '../metrics/units.ts'
import type { MonitorSpec } from '../config/schema-monitor.ts'
import { MonitorError, toMonitorError } from './types.ts'
import type { Monitor, MonitorErrorCode, ResourceSample, StackLocator } from './types.ts'

export { MonitorSpecSchema, formatSpecIssues } from '../config/schema-monitor.ts'
export type { MonitorSpec } from '../config/schema-monitor.ts'
export { MonitorError } from './types.ts'
export type {
  ErrorHandler,
  Monitor,
  MonitorErrorCode,
  ResourceSample,
  SampleHandler,
  SampleSource,
  StackLocator,
} from './types.ts'

export type MonitorOptions = {
  /** Secrets (Cloud Foundry, Prometheus): `password`, `refreshToken`, `token`, or keyed by the env var name. */
  secrets?: Record<string, string>
  /** Sampling period; 1000 (1 Hz) by default. */
  intervalMs?: number
  /** Resolves `stack:` in docker and postgres specs (the stacks of this data folder). */
  stacks?: StackLocator
  /** The Docker host setting (./docker-host.ts): where docker monitors find the engine. */
  dockerHost?: string
  /** The folder of files a spec may name as secrets (settings.secretsDir, ../config/files.ts). */
  secretsDir?: string
}

/**
 * A monitor for a target's `monitor` spec; nothing happens until `start`. A `stop` while `start`
 * is still waiting for its first answer ends it once that answer comes (./stoppable.ts): no
 * monitor samples a run that is over.
 */
export function createMonitor(spec: MonitorSpec, target: string, opts: MonitorOptions = {}): Monitor {
  return stoppable(monitorOf(spec, target, opts))
}

function monitorOf(spec: MonitorSpec, target: string, opts: MonitorOptions): Monitor {
  const intervalMs = assertInterval(opts.intervalMs ?? 1000)
  switch (spec.kind) {
    case 'docker': {
      if (spec.stack === undefined) return new DockerMonitor(spec, target, intervalMs, opts.dockerHost)
      if (!opts.stacks)
        throw new MonitorError('config', `monitor.stack needs the stacks launcher (stack ${spec.stack})`)
      const { stack, ...rest } = spec
      const project = opts.stacks.project(stack)
      return new DockerMonitor(
        { ...rest, project, service: spec.service ?? opts.stacks.appService(stack) },
        target,
        intervalMs,
        opts.dockerHost,
      )
    }
    case 'process':
      return new ProcessMonitor(spec, target, intervalMs)
    case 'cloudfoundry':
      return new CloudFoundryMonitor(spec, target, opts.secrets ?? {}, intervalMs)
    case 'postgres':
      return new PostgresMonitor(spec, target, intervalMs, opts)
    case 'prometheus':
      return new PrometheusMonitor(spec, target, intervalMs, opts.secrets ?? {}, opts.secretsDir)
    case 'kubernetes':
      return new KubernetesMonitor(spec, target, intervalMs)
  }
}

/** The load generator's own CPU and memory; create it in the process that sends the load. */
export function createGeneratorMonitor(target = 'generator', opts: { intervalMs?: number } = {}): Monitor {
  return new GeneratorMonitor(target, assertInterval(opts.intervalMs ?? 1000))
}

export type MonitorTestResult = {
  ok: boolean
  /** One line for the UI: what was found, or what is wrong and what to do. */
  message: string
  /** Instances found (containers, process trees, app instances, pods, a query's series). */
  instances: number
  /** The first sample of each instance. */
  samples: ResourceSample[]
  code?: MonitorErrorCode
}

/**
 * The wizard's "Test" button: validates the spec, starts the monitor, waits for its first tick
 * (every monitor emits all of a tick's instances together) and stops it. Never throws.
 */
export async function testMonitor(
  spec: unknown,
  opts: MonitorOptions & { timeoutMs?: number } = {},
): Promise<MonitorTestResult> {
  const parsed = MonitorSpecSchema.safeParse(spec)
  if (!parsed.success) return failed(new MonitorError('config', formatSpecIssues(parsed.error)))
  const timeoutMs = opts.timeoutMs ?? 10_000
  let monitor: Monitor | undefined
  let timer: NodeJS.Timeout | undefined
  try {
    monitor = createMonitor(parsed.data, 'test', opts)
    const samples: ResourceSample[] = []
    const firstTick = new Promise<ResourceSample[]>((resolve, reject) => {
      timer = setTimeout(
        () => reject(new MonitorError('unreachable', `no sample within ${timeoutMs / 1000} s`)),
        timeoutMs,
      )
      void monitor
        ?.start((s) => {
          // The rest of this tick's instances arrive synchronously after the first.
          if (samples.push(s) === 1) setImmediate(() => resolve(samples))
        }, reject)
        .catch(reject)
    })
    const tick = await firstTick
    const instances = new Set(tick.map((s) => s.instance)).size
    return { ok: true, message: describe(parsed.data, tick), instances, samples: tick }
  } catch (error) {
    return failed(toMonitorError(error, 'unreachable', 'monitor test'))
  } finally {
    clearTimeout(timer)
    await monitor?.stop().catch(() => {})
  }
}

function failed(error: MonitorError): MonitorTestResult {
  return { ok: false, message: error.message, instances: 0, samples: [], code: error.code }
}

function describe(spec: MonitorSpec, tick: ResourceSample[]): string {
  const noun = {
    cloudfoundry: 'instance',
    docker: 'container',
    process: spec.kind === 'process' && spec.tree ? 'process' : 'process tree',
    postgres: 'connection state',
    prometheus: 'series',
    kubernetes: 'pod',
  }[spec.kind]
  // A prometheus instance's named series are samples of their own: one entry per instance.
  const byInstance = new Map<string, string[]>()
  for (const s of tick) {
    const parts = byInstance.get(s.instance) ?? (s.metric ? [] : [s.state ?? 'unknown state'])
    if (s.cpuPercent !== null) parts.push(`${s.cpuPercent.toFixed(1)} % CPU`)
    if (s.memoryBytes !== null) parts.push(`${(s.memoryBytes / 2 ** 20).toFixed(1)} MiB`)
    if (s.connections !== undefined && s.connections !== null) parts.push(`${s.connections} connections`)
    if (s.metric)
      parts.push(
        `${s.metric} ${s.value === null || s.value === undefined ? 'none' : formatSeriesValue(s.metric, s.value)}`,
      )
    byInstance.set(s.instance, parts)
  }
  const list = [...byInstance].map(([instance, parts]) => `${instance} (${parts.join(', ')})`)
  const n = byInstance.size
  const app = spec.kind === 'cloudfoundry' ? `app ${spec.app}: ` : ''
  const plural = noun === 'series' ? noun : `${noun}${n === 1 ? '' : 's'}`
  return `${app}${n} ${plural}: ${list.join('; ')}`
}

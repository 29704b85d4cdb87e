import { KubeApiError, KubeClient } from '../kubernetes/kubernetes-client.ts'
import type { KubernetesMonitorSpec } from '../config/schema-monitor.ts'
import { errorReporter, startLoop, type Loop } from './loop.ts'
import { MonitorError, toMonitorError } from './types.ts'
import type { ErrorHandler, Monitor, ResourceSample, SampleHandler } from './types.ts'

/** Decimal suffixes as powers of ten (parsed exactly, as `12345e-9`), binary ones as powers of two. */
const DECIMAL: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 }
const BINARY: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 }

/** A Kubernetes quantity ("250m", "1.5", "12345n", "64Mi", "1e3") as a finite number; null if it is none. */
export function parseQuantity(q: unknown): number | null {
  if (typeof q !== 'string') return null
  const m = /^([+-]?(?:\d+\.?\d*|\.\d+))(?:[eE]([+-]?\d+)|(n|u|m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei)?)$/.exec(
    q.trim(),
  )
  if (!m) return null
  const suffix = m[3] ?? ''
  const v =
    suffix in BINARY
      ? Number(m[1]) * 2 ** BINARY[suffix]!
      : Number(`${m[1]}e${Number(m[2] ?? 0) + DECIMAL[suffix]!}`)
  // "1e400" is Infinity as a number: no reading.
  return Number.isFinite(v) ? v : null
}

type Fields = Record<string, unknown>
const obj = (x: unknown): Fields => (x && typeof x === 'object' ? (x as Fields) : {})
const list = (x: unknown): Fields[] => (Array.isArray(x) ? x.map(obj) : [])
const text = (x: unknown, fallback: string): string => (typeof x === 'string' ? x : fallback)

interface Pod {
  name: string
  phase: string
  /** Summed over the pod's containers, when every one of them has a limit. */
  cpuLimit: number | null
  memoryLimit: number | null
}

/** A pod's containers' limits summed, or null when one of them has none (the pod is unbounded). */
function limit(containers: Fields[], key: 'cpu' | 'memory'): number | null {
  let sum = 0
  for (const c of containers) {
    const v = parseQuantity(obj(obj(obj(c.resources).limits))[key])
    if (v === null) return null
    sum += v
  }
  return containers.length ? sum : null
}

function podOf(item: Fields): Pod {
  const containers = list(obj(item.spec).containers)
  return {
    name: text(obj(item.metadata).name, ''),
    phase: text(obj(item.status).phase, 'Unknown'),
    cpuLimit: limit(containers, 'cpu'),
    memoryLimit: limit(containers, 'memory'),
  }
}

/** CPU (cores) and memory (bytes) of each pod the metrics API reports, its containers summed. */
function usageOf(items: Fields[]): Map<string, { cpu: number | null; memory: number | null }> {
  const out = new Map<string, { cpu: number | null; memory: number | null }>()
  for (const item of items) {
    let cpu: number | null = 0
    let memory: number | null = 0
    for (const c of list(item.containers)) {
      const usage = obj(c.usage)
      const [u, mem] = [parseQuantity(usage.cpu), parseQuantity(usage.memory)]
      cpu = cpu === null || u === null ? null : cpu + u
      memory = memory === null || mem === null ? null : memory + mem
    }
    out.set(text(obj(item.metadata).name, ''), { cpu, memory })
  }
  return out
}

/**
 * CPU and memory of a Kubernetes workload's pods, from the metrics API (metrics.k8s.io, served by
 * metrics-server): the pods of a namespace that match a label selector, one sample per pod and tick
 * (instance = the pod's name; every view sums a target's instances), its containers summed. The
 * pods are listed each tick too: their phase, and their containers' limits. The kubeconfig is read
 * as the agents' Kubernetes launcher reads it (KUBECONFIG, else ~/.kube/config; its current
 * context's server, credentials and namespace). metrics-server refreshes every 15 s or so:
 * repeated values at 1 Hz are its own.
 */
export class KubernetesMonitor implements Monitor {
  readonly #spec: KubernetesMonitorSpec
  readonly #target: string
  readonly #intervalMs: number
  readonly #client: (() => KubeClient) | KubeClient
  #loop: Loop | undefined

  constructor(
    spec: KubernetesMonitorSpec,
    target: string,
    intervalMs = 1000,
    /** A client of its own (tests); otherwise the user's kubeconfig, read at start. */
    client: KubeClient | (() => KubeClient) = () =>
      KubeClient.fromKubeconfig(process.env, { timeoutMs: 10_000 }),
  ) {
    this.#spec = spec
    this.#target = target
    this.#intervalMs = intervalMs
    this.#client = client
  }

  async start(onSample: SampleHandler, onError: ErrorHandler): Promise<void> {
    if (this.#loop) throw new MonitorError('config', 'kubernetes monitor already started')
    let client: KubeClient
    try {
      client = typeof this.#client === 'function' ? this.#client() : this.#client
    } catch (error) {
      throw toMonitorError(error, 'config', 'kubernetes monitor')
    }
    const namespace = this.#spec.namespace ?? client.creds.namespace
    const where = `kubernetes monitor (pods ${this.#spec.selector} in namespace ${namespace}, ${client.creds.source})`
    const read = () => this.#read(client, namespace, where)
    const first = await read()
    if (first.length === 0) throw new MonitorError('not-found', `${where}: no pod matches the selector`)
    first.forEach(onSample)
    const errors = errorReporter(onError)
    this.#loop = startLoop(
      this.#intervalMs,
      async () => {
        for (const s of await read()) onSample(s)
        errors.ok()
      },
      (error) => errors.report(toMonitorError(error, 'unreachable', where)),
    )
  }

  async #read(client: KubeClient, namespace: string, where: string): Promise<ResourceSample[]> {
    const query = `?labelSelector=${encodeURIComponent(this.#spec.selector)}`
    const ns = encodeURIComponent(namespace)
    const t = Date.now()
    let answers: [unknown, unknown]
    try {
      answers = await Promise.all([
        client.request('GET', `/api/v1/namespaces/${ns}/pods${query}`),
        client.request('GET', `/apis/metrics.k8s.io/v1beta1/namespaces/${ns}/pods${query}`),
      ])
    } catch (error) {
      throw this.#explain(error, where)
    }
    const usage = usageOf(list(obj(answers[1]).items))
    return list(obj(answers[0]).items)
      .map(podOf)
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((pod) => {
        const u = usage.get(pod.name)
        return {
          t,
          source: 'kubernetes',
          target: this.#target,
          instance: pod.name,
          // No metrics yet (a pod just started, or not running): no reading, not 0.
          cpuPercent: u?.cpu == null ? null : u.cpu * 100,
          memoryBytes: u?.memory == null ? null : Math.round(u.memory),
          memoryLimitBytes: pod.memoryLimit === null ? null : Math.round(pod.memoryLimit),
          cpuLimit: pod.cpuLimit,
          state: pod.phase,
        }
      })
  }

  #explain(error: unknown, where: string): MonitorError {
    if (error instanceof KubeApiError) {
      if (error.status === 401 || error.status === 403)
        return new MonitorError('auth', `${where}: ${error.message}`, { cause: error })
      if (error.status === 404 && error.message.includes('metrics.k8s.io'))
        return new MonitorError(
          'unsupported',
          `${where}: the cluster serves no metrics API (metrics.k8s.io): install metrics-server (${error.message})`,
          { cause: error },
        )
      if (error.status === 400)
        return new MonitorError('config', `${where}: ${error.message}`, { cause: error })
      return new MonitorError('bad-response', `${where}: ${error.message}`, { cause: error })
    }
    return toMonitorError(error, 'unreachable', where)
  }

  async stop(): Promise<void> {
    await this.#loop?.stop()
    this.#loop = undefined
  }
}

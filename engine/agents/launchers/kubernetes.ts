// `--on kubernetes`: the run's agents as an Indexed Job (kubernetes-manifest.ts) in the cluster
// of the user's kubeconfig. It creates the store's Secret and the Job, follows the Job's pods
// (each one's log while it runs, then its exit), and deletes both at the end. The agents reach
// the PostgreSQL store themselves; nothing else of the run goes through the cluster.
import { ENV } from '../env.ts'
import { KubeApiError, KubeClient } from '../../kubernetes/kubernetes-client.ts'
import { AGENT_CONTAINER, kubernetesAgents, RUN_LABEL, type KubeObject } from './kubernetes-manifest.ts'
import { FollowedLauncher, type Launcher } from './launcher.ts'

export interface KubernetesLauncherOptions {
  /** The PostgreSQL store as the agents reach it; it goes into the run's Secret only. */
  storeUrl: string
  image?: string
  /** Default: the kubeconfig context's namespace. */
  namespace?: string
  cpu?: string
  memory?: string
  /** Default: one from the kubeconfig (KUBECONFIG, else ~/.kube/config). */
  client?: KubeClient
  /** How often the pods are listed. */
  pollMs?: number
  /** How long stop() waits for the agents to end by themselves before deleting the Job. */
  graceMs?: number
}

/** The API path of an object's collection. */
function collection(o: KubeObject): string {
  const base = o.apiVersion === 'v1' ? '/api/v1' : `/apis/${o.apiVersion}`
  return `${base}/namespaces/${o.metadata.namespace}/${o.kind.toLowerCase()}s`
}

interface PodView {
  name: string
  index: number | null
  started: boolean
  /** Set once its agent's container (or the pod) ended. */
  ended: { code: number | null; reason: string | null } | null
  waiting: string | null
}

type Fields = Record<string, unknown>
const obj = (v: unknown): Fields => (v && typeof v === 'object' ? (v as Fields) : {})

/** What the launcher needs of a pod in a PodList. */
export function podView(item: unknown): PodView {
  const meta = obj(obj(item).metadata)
  const status = obj(obj(item).status)
  const index = obj(meta.annotations)['batch.kubernetes.io/job-completion-index']
  const container = (Array.isArray(status.containerStatuses) ? status.containerStatuses : [])
    .map(obj)
    .find((c) => c.name === AGENT_CONTAINER)
  const state = obj(container?.state)
  const terminated = state.terminated ? obj(state.terminated) : null
  const waiting = state.waiting ? obj(state.waiting) : null
  const phase = status.phase
  const reason = (v: unknown) => (typeof v === 'string' ? v : null)
  return {
    name: String(meta.name),
    index: typeof index === 'string' && /^\d+$/.test(index) ? Number(index) : null,
    started: Boolean(state.running || terminated),
    ended: terminated
      ? {
          code: typeof terminated.exitCode === 'number' ? terminated.exitCode : null,
          reason: reason(terminated.reason),
        }
      : phase === 'Failed' || phase === 'Succeeded'
        ? { code: phase === 'Succeeded' ? 0 : null, reason: reason(status.reason) ?? String(phase) }
        : null,
    waiting: waiting
      ? `${reason(waiting.reason) ?? 'waiting'}${typeof waiting.message === 'string' ? `: ${waiting.message}` : ''}`
      : null,
  }
}

export class KubernetesLauncher extends FollowedLauncher implements Launcher {
  readonly kind = 'kubernetes'
  readonly store = 'postgres' as const
  private readonly o: KubernetesLauncherOptions
  private readonly client: KubeClient
  private readonly namespace: string
  /** What start() created, deleted in reverse order by stop(). */
  private readonly created: KubeObject[] = []
  private podsPath = ''
  private count = 0
  private timer: NodeJS.Timeout | undefined
  private polling: Promise<void> = Promise.resolve()
  private stopped = false
  private killed = false
  private stopping: Promise<void> | null = null
  private readonly aborts = new AbortController()
  private readonly logs = new Map<string, Promise<void>>()
  private readonly exited = new Set<string>()
  private readonly exitedIndexes = new Set<number>()
  private readonly said = new Set<string>()

  constructor(o: KubernetesLauncherOptions) {
    super()
    this.o = o
    this.client = o.client ?? KubeClient.fromKubeconfig()
    this.namespace = o.namespace ?? this.client.creds.namespace
  }

  /** A line of the platform's (or about one agent), said once however often a poll finds it. */
  private sayOnce(index: number | null, line: string): void {
    if (this.said.has(`${index}:${line}`)) return
    this.said.add(`${index}:${line}`)
    this.emit({ type: 'log', index, line })
  }

  async start(env: Readonly<Record<string, string>>, count: number): Promise<void> {
    const runKey = env[ENV.run] ?? ''
    const objects = kubernetesAgents({
      runKey,
      count,
      namespace: this.namespace,
      store: { url: this.o.storeUrl },
      ...(this.o.image ? { image: this.o.image } : {}),
      ...(this.o.cpu ? { cpu: this.o.cpu } : {}),
      ...(this.o.memory ? { memory: this.o.memory } : {}),
    })
    for (const o of objects) {
      await this.client.request('POST', collection(o), o)
      this.created.push(o)
    }
    this.count = count
    const job = objects.find((o) => o.kind === 'Job')!
    this.sayOnce(null, `kubernetes: job ${job.metadata.name} created in namespace ${this.namespace}`)
    this.podsPath = `/api/v1/namespaces/${this.namespace}/pods?labelSelector=${encodeURIComponent(`${RUN_LABEL}=${runKey}`)}`
    this.schedule(0)
  }

  private schedule(ms: number): void {
    if (this.stopped) return
    this.timer = setTimeout(() => {
      this.polling = this.poll().finally(() => this.schedule(this.o.pollMs ?? 1000))
    }, ms)
  }

  private async poll(): Promise<void> {
    let items: unknown[]
    try {
      items = (obj(await this.client.request('GET', this.podsPath)).items as unknown[]) ?? []
    } catch (err) {
      // The agents go on without us: their heartbeats tell the coordinator whether they live.
      this.sayOnce(null, `kubernetes: ${err instanceof Error ? err.message : String(err)}`)
      return
    }
    for (const pod of items.map(podView)) {
      if (this.stopped) return
      if (pod.waiting && !/^(ContainerCreating|PodInitializing)\b/.test(pod.waiting))
        this.sayOnce(pod.index, `pod ${pod.name}: ${pod.waiting}`)
      if ((pod.started || pod.ended) && !this.logs.has(pod.name)) this.logs.set(pod.name, this.followLog(pod))
      if (pod.ended && !this.exited.has(pod.name)) {
        this.exited.add(pod.name)
        const ended = pod.ended
        // Its last words before its exit: the coordinator fails a run with them.
        void this.logs.get(pod.name)!.then(() => {
          if (ended.reason && !/^(Completed|Error|Succeeded)$/.test(ended.reason))
            this.emit({ type: 'log', index: pod.index, line: `pod ${pod.name}: ${ended.reason}` })
          if (pod.index !== null) this.exitedIndexes.add(pod.index)
          this.emit({ type: 'exit', index: pod.index, code: ended.code, signal: null })
        })
      }
    }
  }

  /** The agent's output until its container ends (or we stop): follow=true streams it. */
  private async followLog(pod: PodView): Promise<void> {
    const path = `/api/v1/namespaces/${this.namespace}/pods/${pod.name}/log?container=${AGENT_CONTAINER}&follow=true`
    try {
      await this.client.lines(
        path,
        (line) => this.emit({ type: 'log', index: pod.index, line }),
        this.aborts.signal,
      )
    } catch (err) {
      this.sayOnce(pod.index, `pod ${pod.name}: no log (${err instanceof Error ? err.message : String(err)})`)
    }
  }

  private allExited(): boolean {
    return this.exitedIndexes.size >= this.count
  }

  /**
   * One removal however often it is asked for; a kill while a stop waits for the agents cuts the
   * wait short, and both return once the Job and the Secret are deleted.
   */
  stop(opts: { kill?: boolean } = {}): Promise<void> {
    if (opts.kill) this.killed = true
    this.stopping ??= this.remove()
    return this.stopping
  }

  private async remove(): Promise<void> {
    const until = Date.now() + (this.o.graceMs ?? 10_000)
    while (this.created.length && !this.allExited() && !this.killed && Date.now() < until)
      await new Promise((r) => setTimeout(r, Math.min(200, this.o.pollMs ?? 1000)))
    const kill = this.killed
    this.stopped = true
    clearTimeout(this.timer)
    await this.polling
    this.aborts.abort()
    await Promise.all(this.logs.values())
    // The Job first (its pods go with it, in the background), then the Secret they mounted.
    for (const o of this.created.reverse()) {
      const query =
        o.kind === 'Job' ? `?propagationPolicy=Background${kill ? '&gracePeriodSeconds=0' : ''}` : ''
      try {
        await this.client.request('DELETE', `${collection(o)}/${o.metadata.name}${query}`)
      } catch (err) {
        if (err instanceof KubeApiError && err.status === 404) continue
        this.emit({
          type: 'log',
          index: null,
          line: `kubernetes: could not delete ${o.kind.toLowerCase()} ${o.metadata.name} (kubectl -n ${o.metadata.namespace} delete ${o.kind.toLowerCase()} ${o.metadata.name}): ${err instanceof Error ? err.message : String(err)}`,
        })
      }
    }
    this.created.length = 0
  }
}

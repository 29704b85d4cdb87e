// A stand-in for the Kubernetes API server (tests only), over HTTPS with a self-signed certificate
// its kubeconfig trusts, and a bearer token it checks: it records every request, keeps Secrets and
// Jobs, and plays each Job's pods, one per completion index (with the index annotation the Job
// controller sets). A pod either follows a script (lines, then an exit code; or stuck waiting)
// or, as a kubelet would, runs the Job's container as a real `cannonade agent` process with the
// pod's environment: its variables, JOB_COMPLETION_INDEX and the Secret's key as a mounted file.
import { spawn, type ChildProcess } from 'node:child_process'
import { EventEmitter } from 'node:events'
import type { ServerResponse } from 'node:http'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { selfSigned } from './tls.ts'

const BIN = fileURLToPath(new URL('../../bin/cannonade.mjs', import.meta.url))

export interface PodScript {
  lines?: string[]
  exitCode?: number
  reason?: string
  /** The container never starts (ErrImagePull…): the pod stays Pending with this reason. */
  waiting?: { reason: string; message: string }
}

interface FakePod {
  name: string
  index: number
  phase: 'Pending' | 'Running' | 'Succeeded' | 'Failed'
  waiting?: { reason: string; message: string }
  ended: { exitCode: number; reason: string } | null
  logs: string[]
  events: EventEmitter
  process?: ChildProcess
}

interface JsonObject {
  metadata: { name: string; namespace: string; labels?: Record<string, string> }
  [k: string]: unknown
}
type Container = {
  env: { name: string; value?: string }[]
  volumeMounts: { name: string; mountPath: string }[]
}
type JobSpec = {
  completions: number
  template: {
    spec: { containers: Container[]; volumes: { name: string; secret?: { secretName: string } }[] }
  }
}

export interface RecordedRequest {
  method: string
  path: string
  body: unknown
}

export interface FakeKubernetesOptions {
  /** How each index's pod behaves; default `kubelet`: a real agent process. */
  script?: (index: number) => PodScript | 'kubelet'
  /** Requests whose "METHOD path" matches are refused with 403 Forbidden. */
  forbid?: RegExp
  /** false: a cluster without metrics-server (metrics.k8s.io answers 404). */
  metricsApi?: boolean
}

/**
 * A pod of a workload the test sets up (not a Job's), for the kubernetes monitor: listed by
 * namespace and label selector, with its containers' limits, and their usage through the metrics
 * API (metrics.k8s.io) while `usage` is set on every container (a pod just started has none yet).
 */
export interface WorkloadPod {
  name: string
  namespace: string
  labels: Record<string, string>
  phase?: string
  containers: {
    name: string
    limits?: { cpu?: string; memory?: string }
    usage?: { cpu: string; memory: string }
  }[]
}

/** A label selector as the API server reads one: k=v, k==v, k!=v, k in (…), k notin (…), k, !k. */
export function matchesSelector(labels: Record<string, string>, selector: string): boolean {
  const requirements = selector
    .split(/,(?![^(]*\))/)
    .map((r) => r.trim())
    .filter(Boolean)
  return requirements.every((r) => {
    let m: RegExpExecArray | null
    if ((m = /^([\w./-]+)\s*(==|=|!=)\s*([\w.-]*)$/.exec(r)))
      return m[2] === '!=' ? labels[m[1]!] !== m[3] : labels[m[1]!] === m[3]
    if ((m = /^([\w./-]+)\s+(in|notin)\s*\(([^)]*)\)$/.exec(r))) {
      const values = m[3]!.split(',').map((v) => v.trim())
      const has = m[1]! in labels && values.includes(labels[m[1]!]!)
      return m[2] === 'in' ? has : !has
    }
    if ((m = /^(!?)([\w./-]+)$/.exec(r))) return m[2]! in labels !== (m[1] === '!')
    throw new Error(`unable to parse requirement: ${r}`)
  })
}

export class FakeKubernetes {
  readonly requests: RecordedRequest[] = []
  private readonly waiting: (() => void)[] = []
  token = 'fake-token-' + Math.random().toString(16).slice(2)
  /** Requests refused for their token (401). */
  unauthorized = 0
  private readonly o: FakeKubernetesOptions
  private readonly dir = mkdtempSync(join(tmpdir(), 'cannonade-k8s-fake-'))
  private server: Server | null = null
  private cert = ''
  private readonly secrets = new Map<string, JsonObject>()
  private readonly pods: FakePod[] = []
  /** The workload's pods the kubernetes monitor watches; a test changes them between ticks. */
  workload: WorkloadPod[] = []
  port = 0

  constructor(o: FakeKubernetesOptions = {}) {
    this.o = o
  }

  async start(): Promise<void> {
    const { key, cert } = selfSigned()
    this.cert = cert
    this.server = createServer({ key, cert }, (req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8')
        const body: unknown = text ? JSON.parse(text) : undefined
        const method = req.method ?? 'GET'
        const path = req.url ?? '/'
        this.requests.push({ method, path, body })
        for (const wake of this.waiting.splice(0)) wake()
        const send = (status: number, json: unknown) => {
          res.writeHead(status, { 'content-type': 'application/json' })
          res.end(JSON.stringify(json))
        }
        const status = (code: number, reason: string, message: string) =>
          send(code, { kind: 'Status', apiVersion: 'v1', status: 'Failure', message, reason, code })
        if (req.headers.authorization !== `Bearer ${this.token}`) {
          this.unauthorized++
          return status(401, 'Unauthorized', 'Unauthorized')
        }
        if (this.o.forbid?.test(`${method} ${path}`))
          return status(
            403,
            'Forbidden',
            `${path} is forbidden: User "dev" cannot ${method.toLowerCase()} it`,
          )
        this.route(method, path, body, send, status, res)
      })
    })
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r))
    this.port = (this.server.address() as AddressInfo).port
  }

  /** Resolves once the next request has arrived (it is in `requests` then). */
  nextRequest(): Promise<void> {
    return new Promise((resolve) => this.waiting.push(resolve))
  }

  /** The Secrets it holds (deleted ones are gone). */
  get secretNames(): string[] {
    return [...this.secrets.keys()]
  }

  /** The server's certificate (self-signed: it is its own CA). */
  get caPem(): string {
    return this.cert
  }

  /** A kubeconfig for this server; `o` spoils it for the failure tests. */
  kubeconfig(o: { server?: string; trust?: boolean; namespace?: string } = {}): string {
    const file = join(this.dir, `kubeconfig-${Math.random().toString(16).slice(2)}`)
    const ca =
      o.trust === false
        ? ''
        : `    certificate-authority-data: ${Buffer.from(this.cert).toString('base64')}\n`
    writeFileSync(
      file,
      `apiVersion: v1
kind: Config
current-context: fake
clusters:
- name: fake
  cluster:
    server: ${o.server ?? `https://127.0.0.1:${this.port}`}
${ca}contexts:
- name: fake
  context: { cluster: fake, user: dev, namespace: ${o.namespace ?? 'load'} }
users:
- name: dev
  user: { token: ${this.token} }
`,
    )
    return file
  }

  private route(
    method: string,
    path: string,
    body: unknown,
    send: (status: number, json: unknown) => void,
    status: (code: number, reason: string, message: string) => void,
    res: ServerResponse,
  ): void {
    const url = new URL(path, 'https://fake')
    let m: RegExpMatchArray | null
    if (method === 'POST' && /^\/api\/v1\/namespaces\/[^/]+\/secrets$/.test(url.pathname)) {
      const secret = body as JsonObject
      this.secrets.set(secret.metadata.name, secret)
      return send(201, secret)
    }
    if (method === 'POST' && /^\/apis\/batch\/v1\/namespaces\/[^/]+\/jobs$/.test(url.pathname)) {
      const job = body as JsonObject & { spec: JobSpec }
      for (let index = 0; index < job.spec.completions; index++) this.createPod(job, index)
      return send(201, job)
    }
    if (method === 'GET' && (m = /^\/api\/v1\/namespaces\/([^/]+)\/pods$/.exec(url.pathname))) {
      const items = [...this.pods.map((p) => this.podJson(p)), ...this.workloadJson(m[1]!, url, false)]
      // Pods advance between lists, as a scheduler and a kubelet would make them.
      for (const p of this.pods) this.advance(p)
      return send(200, { kind: 'PodList', apiVersion: 'v1', items })
    }
    if (
      method === 'GET' &&
      (m = /^\/apis\/metrics\.k8s\.io\/v1beta1\/namespaces\/([^/]+)\/pods$/.exec(url.pathname))
    ) {
      if (this.o.metricsApi === false)
        return status(404, 'NotFound', 'the server could not find the requested resource')
      return send(200, {
        kind: 'PodMetricsList',
        apiVersion: 'metrics.k8s.io/v1beta1',
        items: this.workloadJson(m[1]!, url, true),
      })
    }
    if (method === 'GET' && (m = /^\/api\/v1\/namespaces\/[^/]+\/pods\/([^/]+)\/log$/.exec(url.pathname))) {
      const pod = this.pods.find((p) => p.name === m![1])
      if (!pod) return status(404, 'NotFound', `pods "${m[1]}" not found`)
      res.writeHead(200, { 'content-type': 'text/plain' })
      for (const line of pod.logs) res.write(line + '\n')
      if (pod.ended || url.searchParams.get('follow') !== 'true') return void res.end()
      const onLine = (line: string) => res.write(line + '\n')
      pod.events.on('line', onLine)
      pod.events.once('end', () => {
        pod.events.off('line', onLine)
        res.end()
      })
      res.on('close', () => pod.events.off('line', onLine))
      return
    }
    if (
      method === 'DELETE' &&
      (m = /^\/apis\/batch\/v1\/namespaces\/[^/]+\/jobs\/([^/]+)$/.exec(url.pathname))
    ) {
      for (const p of this.pods.splice(0)) p.process?.kill('SIGKILL')
      return send(200, { kind: 'Status', status: 'Success' })
    }
    if (method === 'DELETE' && (m = /^\/api\/v1\/namespaces\/[^/]+\/secrets\/([^/]+)$/.exec(url.pathname))) {
      if (!this.secrets.delete(m[1]!)) return status(404, 'NotFound', `secrets "${m[1]}" not found`)
      return send(200, { kind: 'Status', status: 'Success' })
    }
    status(404, 'NotFound', `the fake has no ${method} ${url.pathname}`)
  }

  /** The workload's pods of a namespace that match the request's labelSelector: as pods, or their metrics. */
  private workloadJson(namespace: string, url: URL, metrics: boolean): unknown[] {
    const selector = url.searchParams.get('labelSelector') ?? ''
    const pods = this.workload.filter((p) => p.namespace === namespace && matchesSelector(p.labels, selector))
    if (!metrics)
      return pods.map((p) => ({
        metadata: { name: p.name, namespace: p.namespace, labels: p.labels },
        spec: {
          containers: p.containers.map((c) => ({
            name: c.name,
            resources: c.limits ? { limits: c.limits } : {},
          })),
        },
        status: { phase: p.phase ?? 'Running' },
      }))
    return pods
      .filter((p) => p.containers.every((c) => c.usage))
      .map((p) => ({
        metadata: { name: p.name, namespace: p.namespace, labels: p.labels },
        timestamp: new Date().toISOString(),
        window: '15s',
        containers: p.containers.map((c) => ({ name: c.name, usage: c.usage })),
      }))
  }

  private createPod(job: JsonObject & { spec: JobSpec }, index: number): void {
    const pod: FakePod = {
      name: `${job.metadata.name}-${index}-x${index}z`,
      index,
      phase: 'Pending',
      ended: null,
      logs: [],
      events: new EventEmitter(),
    }
    this.pods.push(pod)
    const script = this.o.script?.(index) ?? 'kubelet'
    if (script === 'kubelet') return this.kubelet(job, pod)
    if (script.waiting) return void (pod.waiting = script.waiting)
    // A scripted pod runs once it has been seen Pending: its lines, then its end.
    pod.events.once('run', () => {
      pod.phase = 'Running'
      setTimeout(() => {
        for (const line of script.lines ?? []) this.line(pod, line)
        this.end(
          pod,
          script.exitCode ?? 0,
          script.reason ?? ((script.exitCode ?? 0) === 0 ? 'Completed' : 'Error'),
        )
      }, 5)
    })
  }

  private advance(pod: FakePod): void {
    if (pod.phase === 'Pending') pod.events.emit('run')
  }

  private line(pod: FakePod, line: string): void {
    pod.logs.push(line)
    pod.events.emit('line', line)
  }

  private end(pod: FakePod, exitCode: number, reason: string): void {
    pod.ended = { exitCode, reason }
    pod.phase = exitCode === 0 ? 'Succeeded' : 'Failed'
    pod.events.emit('end')
  }

  /** The Job's container as a process here: the pod's environment, the Secret as a file. */
  private kubelet(job: JsonObject & { spec: JobSpec }, pod: FakePod): void {
    const spec = job.spec.template.spec
    const container = spec.containers[0]!
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, JOB_COMPLETION_INDEX: String(pod.index) }
    for (const e of container.env) env[e.name] = e.value ?? pod.name
    const secretName = spec.volumes.find((v) => v.secret)?.secret?.secretName ?? ''
    const secret = this.secrets.get(secretName) as { stringData?: Record<string, string> } | undefined
    const url = join(this.dir, `${pod.name}-url`)
    writeFileSync(url, secret?.stringData?.url ?? '')
    env.CANNONADE_STORE_URL_FILE = url
    env.CANNONADE_AGENT_DATA = mkdtempSync(join(this.dir, `${pod.name}-data-`))
    pod.phase = 'Running'
    const child = spawn(process.execPath, [BIN, 'agent'], { env, stdio: ['ignore', 'pipe', 'pipe'] })
    pod.process = child
    let open = 2
    let code: number | null = null
    const finish = () => {
      if (--open === -1)
        this.end(pod, code ?? 137, code === null ? 'Killed' : code === 0 ? 'Completed' : 'Error')
    }
    for (const s of [child.stdout, child.stderr]) {
      const rl = createInterface({ input: s })
      rl.on('line', (l) => this.line(pod, l))
      rl.on('close', finish)
    }
    child.on('exit', (c) => {
      code = c
      finish()
    })
  }

  private podJson(p: FakePod): unknown {
    const state = p.ended
      ? { terminated: { exitCode: p.ended.exitCode, reason: p.ended.reason } }
      : p.waiting
        ? { waiting: p.waiting }
        : p.phase === 'Running'
          ? { running: { startedAt: new Date().toISOString() } }
          : { waiting: { reason: 'ContainerCreating' } }
    return {
      metadata: {
        name: p.name,
        annotations: { 'batch.kubernetes.io/job-completion-index': String(p.index) },
      },
      status: { phase: p.phase, containerStatuses: [{ name: 'agent', state }] },
    }
  }

  async close(): Promise<void> {
    for (const p of this.pods) p.process?.kill('SIGKILL')
    this.server?.closeAllConnections()
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()))
  }
}

// The little of the Kubernetes API the launcher needs, over node:https with the user's kubeconfig
// (KUBECONFIG, else ~/.kube/config): its current context's server, CA, and client certificate,
// token, basic auth or exec plugin (the way EKS, GKE and AKS hand out tokens). No client library:
// five calls do not justify one, and its dependencies would ship in the app.
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { request as httpsRequest, type RequestOptions } from 'node:https'
import { homedir } from 'node:os'
import { delimiter, dirname, isAbsolute, join } from 'node:path'
import { createInterface } from 'node:readline'
import { parse } from 'yaml'

export interface KubeCredentials {
  server: string
  /** The context's namespace, or `default`. */
  namespace: string
  ca?: Buffer
  cert?: Buffer
  key?: Buffer
  /** Sent as a bearer token; never in a message. */
  token?: string
  basic?: { username: string; password: string }
  insecure: boolean
  servername?: string
  /** Where it came from, for messages: file and context. */
  source: string
}

interface Named<T> {
  name: string
  [key: string]: unknown
  value?: T
}
type Fields = Record<string, unknown>

function str(o: Fields | undefined, k: string): string | undefined {
  const v = o?.[k]
  return typeof v === 'string' && v !== '' ? v : undefined
}

/** A PEM given inline (base64 `…-data`) or as a path relative to its kubeconfig. */
function pem(o: Fields, field: string, dir: string): Buffer | undefined {
  const data = str(o, `${field}-data`)
  if (data) return Buffer.from(data, 'base64')
  const file = str(o, field)
  return file ? readFileSync(isAbsolute(file) ? file : join(dir, file)) : undefined
}

/** An exec credential plugin's ExecCredential (client.authentication.k8s.io). */
function execCredential(exec: Fields, dir: string): { token?: string; cert?: Buffer; key?: Buffer } {
  const command = str(exec, 'command')
  if (!command) throw new Error('its exec plugin names no command')
  const args = Array.isArray(exec.args) ? exec.args.map(String) : []
  const env: NodeJS.ProcessEnv = { ...process.env }
  for (const e of Array.isArray(exec.env) ? (exec.env as Fields[]) : []) env[String(e.name)] = String(e.value)
  const apiVersion = str(exec, 'apiVersion') ?? 'client.authentication.k8s.io/v1'
  env.KUBERNETES_EXEC_INFO = JSON.stringify({
    apiVersion,
    kind: 'ExecCredential',
    spec: { interactive: false },
  })
  const r = spawnSync(command, args, { env, cwd: dir, encoding: 'utf8', timeout: 30_000 })
  if (r.status !== 0) {
    const why = r.error ? r.error.message : `exit ${r.status}: ${r.stderr.trim().split('\n').pop() ?? ''}`
    throw new Error(`its exec plugin ${command} failed (${why})`)
  }
  const status = (JSON.parse(r.stdout) as { status?: Fields }).status ?? {}
  const cert = str(status, 'clientCertificateData')
  const key = str(status, 'clientKeyData')
  return {
    ...(str(status, 'token') ? { token: str(status, 'token') } : {}),
    ...(cert && key ? { cert: Buffer.from(cert), key: Buffer.from(key) } : {}),
  }
}

/** The kubeconfig files in the order kubectl reads them. */
export function kubeconfigFiles(env: NodeJS.ProcessEnv = process.env): string[] {
  const list = (env.KUBECONFIG ?? '').split(delimiter).filter(Boolean)
  return list.length ? list : [join(homedir(), '.kube', 'config')]
}

/**
 * The current context's credentials. Files merge as kubectl merges them: the first file that
 * sets current-context, or defines a cluster, user or context of a name, wins.
 */
export function loadKubeconfig(env: NodeJS.ProcessEnv = process.env): KubeCredentials {
  const files = kubeconfigFiles(env)
  let current: string | undefined
  const clusters = new Map<string, { v: Fields; dir: string }>()
  const users = new Map<string, { v: Fields; dir: string }>()
  const contexts = new Map<string, Fields>()
  let read = 0
  for (const file of files) {
    let doc: Fields
    try {
      doc = (parse(readFileSync(file, 'utf8')) as Fields | null) ?? {}
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code
      if (code === 'ENOENT' && files.length > 1) continue
      throw new Error(
        `kubeconfig ${file}: ${code === 'ENOENT' ? 'does not exist (set KUBECONFIG)' : String(err)}`,
      )
    }
    read++
    const dir = dirname(file)
    current ??= str(doc, 'current-context')
    const each = (key: string, into: (n: Named<Fields>) => void) => {
      for (const n of Array.isArray(doc[key]) ? (doc[key] as Named<Fields>[]) : []) into(n)
    }
    each('clusters', (n) => !clusters.has(n.name) && clusters.set(n.name, { v: n.cluster as Fields, dir }))
    each('users', (n) => !users.has(n.name) && users.set(n.name, { v: (n.user as Fields) ?? {}, dir }))
    each('contexts', (n) => !contexts.has(n.name) && contexts.set(n.name, n.context as Fields))
  }
  const where = files.join(delimiter)
  if (!read) throw new Error(`kubeconfig ${where}: none of these files exists`)
  if (!current) throw new Error(`kubeconfig ${where}: no current-context (kubectl config use-context NAME)`)
  const context = contexts.get(current)
  if (!context) throw new Error(`kubeconfig ${where}: context ${current} is not defined`)
  const clusterName = str(context, 'cluster') ?? ''
  const cluster = clusters.get(clusterName)
  const server = str(cluster?.v, 'server')
  if (!cluster || !server)
    throw new Error(`kubeconfig ${where}: context ${current}'s cluster ${clusterName} has no server`)
  if (!server.startsWith('https://'))
    throw new Error(`kubeconfig ${where}: cluster ${clusterName}'s server ${server} is not https://`)
  const user = users.get(str(context, 'user') ?? '') ?? { v: {}, dir: cluster.dir }
  const source = `kubeconfig ${where}, context ${current}`
  if (user.v['auth-provider'])
    throw new Error(`${source}: auth-provider users are not supported; use an exec plugin or a token`)
  let fromExec: ReturnType<typeof execCredential> = {}
  if (user.v.exec) {
    try {
      fromExec = execCredential(user.v.exec as Fields, user.dir)
    } catch (err) {
      throw new Error(`${source}: ${err instanceof Error ? err.message : String(err)}`)
    }
  }
  const tokenFile = str(user.v, 'tokenFile')
  const token =
    fromExec.token ??
    str(user.v, 'token') ??
    (tokenFile
      ? readFileSync(isAbsolute(tokenFile) ? tokenFile : join(user.dir, tokenFile), 'utf8').trim()
      : undefined)
  const username = str(user.v, 'username')
  const password = str(user.v, 'password')
  const ca = pem(cluster.v, 'certificate-authority', cluster.dir)
  const cert = fromExec.cert ?? pem(user.v, 'client-certificate', user.dir)
  const key = fromExec.key ?? pem(user.v, 'client-key', user.dir)
  const servername = str(cluster.v, 'tls-server-name')
  return {
    server: server.replace(/\/+$/, ''),
    namespace: str(context, 'namespace') ?? 'default',
    ...(ca ? { ca } : {}),
    ...(cert && key ? { cert, key } : {}),
    ...(token ? { token } : {}),
    ...(!token && username && password ? { basic: { username, password } } : {}),
    insecure: cluster.v['insecure-skip-tls-verify'] === true,
    ...(servername ? { servername } : {}),
    source,
  }
}

/** An answer of the API other than 2xx, with the Status message the server gave. */
export class KubeApiError extends Error {
  readonly status: number
  constructor(status: number, message: string) {
    super(message)
    this.name = 'KubeApiError'
    this.status = status
  }
}

export interface KubeClientOptions {
  timeoutMs?: number
  /**
   * Read the credentials again after a 401: an exec plugin's token expires (EKS: 15 minutes),
   * and a run, then its deletes, may last longer.
   */
  reload?: () => KubeCredentials
}

export class KubeClient {
  creds: KubeCredentials
  private readonly timeoutMs: number
  private readonly reload: (() => KubeCredentials) | undefined

  constructor(creds: KubeCredentials, opts: KubeClientOptions = {}) {
    this.creds = creds
    this.timeoutMs = opts.timeoutMs ?? 15_000
    this.reload = opts.reload
  }

  /** The user's kubeconfig (KUBECONFIG, else ~/.kube/config), read again when a token expires. */
  static fromKubeconfig(env: NodeJS.ProcessEnv = process.env, opts: { timeoutMs?: number } = {}): KubeClient {
    return new KubeClient(loadKubeconfig(env), { ...opts, reload: () => loadKubeconfig(env) })
  }

  /** One call; its JSON answer, or a KubeApiError naming the call and the server's message. */
  async request(method: string, path: string, body?: unknown): Promise<unknown> {
    try {
      return await this.once(method, path, body)
    } catch (err) {
      if (!(err instanceof KubeApiError && err.status === 401 && this.reload)) throw err
      this.creds = this.reload()
      return this.once(method, path, body)
    }
  }

  private options(method: string, path: string): RequestOptions {
    const c = this.creds
    const url = new URL(path, c.server + '/')
    const headers: Record<string, string> = { accept: 'application/json' }
    if (c.token) headers.authorization = `Bearer ${c.token}`
    else if (c.basic)
      headers.authorization = `Basic ${Buffer.from(`${c.basic.username}:${c.basic.password}`).toString('base64')}`
    return {
      method,
      protocol: url.protocol,
      hostname: url.hostname.replace(/^\[|\]$/g, ''),
      port: url.port || 443,
      path: url.pathname + url.search,
      headers,
      ...(c.ca ? { ca: c.ca } : {}),
      ...(c.cert && c.key ? { cert: c.cert, key: c.key } : {}),
      ...(c.servername ? { servername: c.servername } : {}),
      rejectUnauthorized: !c.insecure,
      agent: false,
    }
  }

  private unreachable(method: string, path: string, err: Error): Error {
    const code = (err as NodeJS.ErrnoException).code
    return new Error(
      `${method} ${path}: cannot reach the Kubernetes API at ${this.creds.server} (${code ?? err.message}; ${this.creds.source})`,
    )
  }

  private once(method: string, path: string, body?: unknown): Promise<unknown> {
    const opts = this.options(method, path)
    const payload = body === undefined ? undefined : JSON.stringify(body)
    if (payload) (opts.headers as Record<string, string>)['content-type'] = 'application/json'
    return new Promise((resolve, reject) => {
      const req = httpsRequest(opts, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('error', (err) => reject(this.unreachable(method, path, err)))
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8')
          let json: unknown = null
          try {
            json = text ? JSON.parse(text) : null
          } catch {
            json = null
          }
          const status = res.statusCode ?? 0
          if (status >= 200 && status < 300) return resolve(json)
          const message = (json as { message?: unknown } | null)?.message
          reject(
            new KubeApiError(
              status,
              `${method} ${path}: ${status} ${res.statusMessage ?? ''}${typeof message === 'string' ? `: ${message}` : ''}`,
            ),
          )
        })
      })
      req.setTimeout(this.timeoutMs, () => req.destroy(new Error(`no answer in ${this.timeoutMs / 1000} s`)))
      req.on('error', (err) => reject(this.unreachable(method, path, err)))
      req.end(payload)
    })
  }

  /**
   * A streamed answer (a pod's log with follow=true), line by line, until the server ends it or
   * `signal` aborts it. Resolves when it ended; rejects on a non-2xx answer or a broken connection.
   */
  lines(path: string, onLine: (line: string) => void, signal: AbortSignal): Promise<void> {
    const opts = { ...this.options('GET', path), signal }
    return new Promise((resolve, reject) => {
      const req = httpsRequest(opts, (res) => {
        const status = res.statusCode ?? 0
        if (status < 200 || status >= 300) {
          res.resume()
          return reject(new KubeApiError(status, `GET ${path}: ${status} ${res.statusMessage ?? ''}`))
        }
        const rl = createInterface({ input: res })
        rl.on('line', onLine)
        rl.on('close', () => resolve())
        res.on('error', () => resolve())
      })
      req.on('error', (err) => (signal.aborted ? resolve() : reject(this.unreachable('GET', path, err))))
      req.end()
    })
  }
}

// The little of the Kubernetes API the agents' launcher (engine/agents/launchers/kubernetes.ts) and the
// Kubernetes monitor (engine/monitor/kubernetes.ts) need, over node:https with the user's kubeconfig
// (KUBECONFIG, else ~/.kube/config): its current context's server, CA, and client certificate,
// token, basic auth or exec plugin (the way EKS, GKE and AKS hand out tokens). No client library:
// five calls do not justify one, and its dependencies would ship in the app.
// Everything read from outside is bounded: the kubeconfig and the files it names are regular
// files of bounded size, opened without blocking (../config/files.ts: a FIFO or /dev/zero is
// refused, not read for ever); an answer is at most 64 MB and whole within the deadline, not only
// never idle for it (../http-body.ts); an exec plugin runs as a child process the event loop
// does not wait for, its output bounded, its credential kept until it expires (./kube-exec.ts).
import { request as httpsRequest, type RequestOptions } from 'node:https'
import { homedir } from 'node:os'
import { delimiter, dirname, isAbsolute, join } from 'node:path'
import { parse } from 'yaml'
import { FileRefused, readRegularFile } from '../config/files.ts'
import { BodyTooLarge, collectBody, lineSplitter } from '../http-body.ts'
import { execCredential, forgetCredential, type ExecSpec } from './kube-exec.ts'

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
  /** An exec plugin that hands out the token or certificate, run when a call first needs it. */
  exec?: ExecSpec
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

/** The most bytes of a kubeconfig, and of a certificate, key or token file it names. */
const MAX_KUBECONFIG_BYTES = 16 * 1024 * 1024
const MAX_PEM_BYTES = 1024 * 1024
const MAX_TOKEN_BYTES = 64 * 1024
/** The most bytes of one API answer (a namespace's pods listed with their specs). */
export const MAX_ANSWER_BYTES = 64 * 1024 * 1024

/** A file a kubeconfig names (relative to it), bounded; its problem named with the field. */
function named(file: string, dir: string, field: string, maxBytes: number): Buffer {
  const path = isAbsolute(file) ? file : join(dir, file)
  try {
    return readRegularFile(path, maxBytes)
  } catch (err) {
    if (err instanceof FileRefused) throw new Error(`its ${field} ${err.message}`)
    throw err
  }
}

/** A PEM given inline (base64 `…-data`) or as a path relative to its kubeconfig. */
function pem(o: Fields, field: string, dir: string): Buffer | undefined {
  const data = str(o, `${field}-data`)
  if (data) return Buffer.from(data, 'base64')
  const file = str(o, field)
  return file ? named(file, dir, field, MAX_PEM_BYTES) : undefined
}

/** An exec credential plugin's spec (client.authentication.k8s.io), run later, asynchronously. */
function execSpec(exec: Fields, dir: string): ExecSpec {
  const command = str(exec, 'command')
  if (!command) throw new Error('its exec plugin names no command')
  return {
    command,
    args: Array.isArray(exec.args) ? exec.args.map(String) : [],
    env: (Array.isArray(exec.env) ? (exec.env as Fields[]) : []).map((e) => [
      String(e.name),
      String(e.value),
    ]),
    apiVersion: str(exec, 'apiVersion') ?? 'client.authentication.k8s.io/v1',
    dir,
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
      doc =
        (parse(readRegularFile(file, MAX_KUBECONFIG_BYTES).toString('utf8'), {
          maxAliasCount: 100,
        }) as Fields | null) ?? {}
    } catch (err) {
      const missing = err instanceof FileRefused && err.reason === 'missing'
      if (missing && files.length > 1) continue
      throw new Error(
        `kubeconfig ${file}: ${missing ? 'does not exist (set KUBECONFIG)' : err instanceof FileRefused ? err.message.slice(file.length + 1) : String(err)}`,
      )
    }
    if (typeof doc !== 'object' || Array.isArray(doc)) doc = {}
    read++
    const dir = dirname(file)
    current ??= str(doc, 'current-context')
    const each = (key: string, into: (n: Named<Fields>) => void) => {
      for (const n of Array.isArray(doc[key]) ? (doc[key] as unknown[]) : [])
        if (n && typeof n === 'object' && typeof (n as Named<Fields>).name === 'string')
          into(n as Named<Fields>)
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
  let exec: ExecSpec | undefined
  let token: string | undefined
  let ca: Buffer | undefined
  let cert: Buffer | undefined
  let key: Buffer | undefined
  try {
    if (user.v.exec) exec = execSpec(user.v.exec as Fields, user.dir)
    const tokenFile = str(user.v, 'tokenFile')
    token =
      str(user.v, 'token') ??
      (tokenFile
        ? named(tokenFile, user.dir, 'tokenFile', MAX_TOKEN_BYTES).toString('utf8').trim()
        : undefined)
    ca = pem(cluster.v, 'certificate-authority', cluster.dir)
    cert = pem(user.v, 'client-certificate', user.dir)
    key = pem(user.v, 'client-key', user.dir)
  } catch (err) {
    throw new Error(`${source}: ${err instanceof Error ? err.message : String(err)}`)
  }
  const username = str(user.v, 'username')
  const password = str(user.v, 'password')
  const servername = str(cluster.v, 'tls-server-name')
  return {
    server: server.replace(/\/+$/, ''),
    namespace: str(context, 'namespace') ?? 'default',
    ...(ca ? { ca } : {}),
    ...(cert && key ? { cert, key } : {}),
    ...(token ? { token } : {}),
    ...(!token && !exec && username && password ? { basic: { username, password } } : {}),
    ...(exec ? { exec } : {}),
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
  /** The whole exchange, answer included (not only an idle socket). */
  timeoutMs?: number
  /** The most bytes of one answer (default MAX_ANSWER_BYTES). */
  maxBytes?: number
  /**
   * Read the credentials again after a 401: an exec plugin's token expires (EKS: 15 minutes),
   * and a run, then its deletes, may last longer.
   */
  reload?: () => KubeCredentials
}

/** What a call sends: the kubeconfig's credentials, with what its exec plugin handed out. */
type Sent = Pick<KubeCredentials, 'token' | 'basic' | 'cert' | 'key'>

export class KubeClient {
  creds: KubeCredentials
  private readonly timeoutMs: number
  private readonly maxBytes: number
  private readonly reload: (() => KubeCredentials) | undefined

  constructor(creds: KubeCredentials, opts: KubeClientOptions = {}) {
    this.creds = creds
    this.timeoutMs = opts.timeoutMs ?? 15_000
    this.maxBytes = opts.maxBytes ?? MAX_ANSWER_BYTES
    this.reload = opts.reload
  }

  /** The user's kubeconfig (KUBECONFIG, else ~/.kube/config), read again when a token expires. */
  static fromKubeconfig(
    env: NodeJS.ProcessEnv = process.env,
    opts: { timeoutMs?: number; maxBytes?: number } = {},
  ): KubeClient {
    return new KubeClient(loadKubeconfig(env), { ...opts, reload: () => loadKubeconfig(env) })
  }

  /** One call; its JSON answer, or a KubeApiError naming the call and the server's message. */
  async request(method: string, path: string, body?: unknown): Promise<unknown> {
    try {
      return await this.once(method, path, await this.sent(method, path), body)
    } catch (err) {
      if (!(err instanceof KubeApiError && err.status === 401)) throw err
      const exec = this.creds.exec
      const renewed = exec ? forgetCredential(exec) : true
      if (!this.reload || !renewed) throw err
      this.creds = this.reload()
      return this.once(method, path, await this.sent(method, path), body)
    }
  }

  /** The credentials a call sends; an exec plugin's, fetched (without blocking) when needed. */
  private async sent(method: string, path: string): Promise<Sent> {
    const c = this.creds
    if (!c.exec) return c
    try {
      const got = await execCredential(c.exec)
      return {
        ...(got.token ? { token: got.token } : c.token ? { token: c.token } : {}),
        ...(got.cert && got.key
          ? { cert: got.cert, key: got.key }
          : c.cert && c.key
            ? { cert: c.cert, key: c.key }
            : {}),
      }
    } catch (err) {
      throw new Error(`${method} ${path}: ${c.source}: ${err instanceof Error ? err.message : String(err)}`)
    }
  }

  private options(method: string, path: string, sent: Sent): RequestOptions {
    const c = this.creds
    const url = new URL(path, c.server + '/')
    const headers: Record<string, string> = { accept: 'application/json' }
    if (sent.token) headers.authorization = `Bearer ${sent.token}`
    else if (sent.basic)
      headers.authorization = `Basic ${Buffer.from(`${sent.basic.username}:${sent.basic.password}`).toString('base64')}`
    return {
      method,
      protocol: url.protocol,
      hostname: url.hostname.replace(/^\[|\]$/g, ''),
      port: url.port || 443,
      path: url.pathname + url.search,
      headers,
      ...(c.ca ? { ca: c.ca } : {}),
      ...(sent.cert && sent.key ? { cert: sent.cert, key: sent.key } : {}),
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

  private once(method: string, path: string, sent: Sent, body?: unknown): Promise<unknown> {
    const opts = this.options(method, path, sent)
    const payload = body === undefined ? undefined : JSON.stringify(body)
    if (payload) (opts.headers as Record<string, string>)['content-type'] = 'application/json'
    return new Promise((resolve, reject) => {
      // The whole exchange within the deadline: a server that trickles its answer is cut off too.
      const deadline = setTimeout(
        () => req.destroy(new Error(`no whole answer within ${this.timeoutMs / 1000} s`)),
        this.timeoutMs,
      )
      const fail = (err: Error) => {
        clearTimeout(deadline)
        reject(
          err instanceof BodyTooLarge
            ? new Error(`${method} ${path}: the Kubernetes API at ${this.creds.server}: ${err.message}`)
            : this.unreachable(method, path, err),
        )
      }
      const req = httpsRequest(opts, (res) => {
        collectBody(res, this.maxBytes).then((buf) => {
          clearTimeout(deadline)
          const status = res.statusCode ?? 0
          const json = parseJson(buf)
          if (status >= 200 && status < 300) return resolve(json)
          const message = (json as { message?: unknown } | null)?.message
          reject(
            new KubeApiError(
              status,
              `${method} ${path}: ${status} ${res.statusMessage ?? ''}${typeof message === 'string' ? `: ${message.slice(0, 500)}` : ''}`,
            ),
          )
        }, fail)
      })
      req.setTimeout(this.timeoutMs, () => req.destroy(new Error(`no answer in ${this.timeoutMs / 1000} s`)))
      req.on('error', fail)
      req.end(payload)
    })
  }

  /**
   * A streamed answer (a pod's log with follow=true), line by line (none held longer than 64 KB),
   * until the server ends it or `signal` aborts it. Resolves when it ended; rejects on a non-2xx
   * answer or a broken connection.
   */
  async lines(path: string, onLine: (line: string) => void, signal: AbortSignal): Promise<void> {
    const opts = { ...this.options('GET', path, await this.sent('GET', path)), signal }
    return new Promise((resolve, reject) => {
      const req = httpsRequest(opts, (res) => {
        const status = res.statusCode ?? 0
        if (status < 200 || status >= 300) {
          res.resume()
          return reject(new KubeApiError(status, `GET ${path}: ${status} ${res.statusMessage ?? ''}`))
        }
        const split = lineSplitter(onLine)
        res.on('data', (c: Buffer) => split.push(c))
        res.on('end', () => {
          split.end()
          resolve()
        })
        res.on('close', () => resolve())
        res.on('error', () => resolve())
      })
      req.on('error', (err) => (signal.aborted ? resolve() : reject(this.unreachable('GET', path, err))))
      req.end()
    })
  }
}

/** An answer's JSON; null when it is none (its status then speaks). */
function parseJson(buf: Buffer): unknown {
  if (buf.length === 0) return null
  try {
    return JSON.parse(buf.toString('utf8'))
  } catch {
    return null
  }
}

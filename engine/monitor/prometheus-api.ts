// The little of Prometheus' HTTP API the monitor needs: range queries (POST /api/v1/query_range, a
// form body, so a long query never meets a URL length limit), with a bearer token when the spec
// names one, under a deadline. Errors are MonitorErrors naming the server and what it said; the
// token never appears in one.
import { FileRefused, readSecretFile } from '../config/files.ts'
import { httpRequest } from './cf-http.ts'
import { BEARER_TOKEN, isCannonadeSecretName, type PrometheusMonitorSpec } from '../config/schema-monitor.ts'
import { MonitorError } from './types.ts'

/** One series of a range query: its labels and its points (epoch seconds, value; NaN kept as NaN). */
export interface RangeSeries {
  labels: Record<string, string>
  points: [number, number][]
}

export interface RangeQuery {
  query: string
  /** Epoch seconds. */
  start: number
  end: number
  step: number
}

const MAX_TOKEN_BYTES = 16 * 1024

type Matrix = { metric?: Record<string, string>; values?: [number, string][] }[]

/**
 * The bearer token a spec names (a variable named for Cannonade, or a file in the secrets folder
 * the user set: `secretsDir`, ../config/files.ts), or none.
 */
export function prometheusToken(
  spec: PrometheusMonitorSpec,
  secrets: Readonly<Record<string, string>>,
  secretsDir?: string,
): string | undefined {
  if (spec.tokenEnv !== undefined) {
    // The schema allows only variables named for Cannonade; a spec built in code is held to it too.
    if (!isCannonadeSecretName(spec.tokenEnv))
      throw new MonitorError('config', `${spec.tokenEnv} is not a variable named for Cannonade (CANNONADE_…)`)
    const value = (secrets[spec.tokenEnv] ?? secrets['token'] ?? process.env[spec.tokenEnv])?.trim()
    if (!value) throw new MonitorError('auth', `no token: set ${spec.tokenEnv} (monitor.tokenEnv)`)
    return value.replace(/^bearer\s+/i, '')
  }
  if (spec.tokenFile === undefined) return undefined
  let text: string
  try {
    // A regular file in the secrets folder, of at most a token's size, opened without blocking:
    // /dev/zero, a FIFO or ~/.vault-token named by a shared config is never read.
    text = readSecretFile(spec.tokenFile, secretsDir, MAX_TOKEN_BYTES + 2, 'monitor.tokenFile').toString(
      'utf8',
    )
  } catch (error) {
    if (!(error instanceof FileRefused)) throw error
    const words =
      error.reason === 'too-large'
        ? `${spec.tokenFile} is larger than a bearer token (at most 16 KiB); nothing of it was sent`
        : error.message
    throw new MonitorError('config', `monitor.tokenFile ${words}`)
  }
  const token = text.trim()
  // Only a token is ever sent: a config that names another file (a key, a credentials file) to a
  // server of its choosing is refused without a word of what the file holds.
  if (Buffer.byteLength(token) > MAX_TOKEN_BYTES || !BEARER_TOKEN.test(token))
    throw new MonitorError(
      'config',
      `monitor.tokenFile ${spec.tokenFile} does not hold a bearer token (one line of token characters, at most 16 KiB); nothing of it was sent`,
    )
  return token
}

export class PrometheusApi {
  readonly #base: string
  readonly #spec: PrometheusMonitorSpec
  readonly #secrets: Readonly<Record<string, string>>
  readonly #secretsDir: string | undefined
  #token: string | undefined

  constructor(spec: PrometheusMonitorSpec, secrets: Readonly<Record<string, string>>, secretsDir?: string) {
    this.#spec = spec
    this.#secrets = secrets
    this.#secretsDir = secretsDir
    this.#base = spec.url.replace(/\/+$/, '')
    this.#token = prometheusToken(spec, secrets, secretsDir)
  }

  /** The server, for messages. */
  get where(): string {
    const u = new URL(this.#base)
    return `Prometheus at ${u.origin}${u.pathname === '/' ? '' : u.pathname}`
  }

  /** One range query, its whole answer within `timeoutMs` and at most `maxBytes` (default 32 MB). */
  async range(q: RangeQuery, timeoutMs = 10_000, maxBytes?: number): Promise<RangeSeries[]> {
    try {
      return await this.#once(q, timeoutMs, maxBytes)
    } catch (error) {
      // A token file is re-read once when refused: a service account's token rotates.
      if (!(error instanceof MonitorError && error.code === 'auth' && this.#spec.tokenFile)) throw error
      this.#token = prometheusToken(this.#spec, this.#secrets, this.#secretsDir)
      return this.#once(q, timeoutMs, maxBytes)
    }
  }

  async #once(q: RangeQuery, timeoutMs: number, maxBytes: number | undefined): Promise<RangeSeries[]> {
    const body = new URLSearchParams({
      query: q.query,
      start: String(q.start),
      end: String(q.end),
      step: String(q.step),
    }).toString()
    const res = await httpRequest(`${this.#base}/api/v1/query_range`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
        ...(this.#token ? { authorization: `Bearer ${this.#token}` } : {}),
      },
      body,
      timeoutMs,
      ...(maxBytes ? { maxBytes } : {}),
      insecure: this.#spec.skipTlsVerify === true,
    })
    const json = res.json as
      { status?: string; error?: string; errorType?: string; data?: unknown } | undefined
    if (res.status === 401 || res.status === 403)
      throw new MonitorError(
        'auth',
        `${this.where} refused the query (${res.status}): ${(this.#spec.tokenEnv ?? this.#spec.tokenFile) ? 'check the token' : 'it wants a token (tokenEnv or tokenFile)'}`,
      )
    if (json?.status === 'error') {
      // bad_data: the PromQL itself (a typo, an unknown function); say so with Prometheus' words.
      const code = json.errorType === 'bad_data' ? 'config' : 'bad-response'
      throw new MonitorError(
        code,
        `${this.where}: ${json.errorType ?? 'error'}: ${json.error ?? 'no message'} (query ${q.query})`,
      )
    }
    const data = json?.data as { resultType?: string; result?: unknown } | undefined
    if (
      res.status !== 200 ||
      json?.status !== 'success' ||
      data?.resultType !== 'matrix' ||
      !Array.isArray(data.result)
    )
      throw new MonitorError(
        'bad-response',
        `${this.where}: unexpected answer to query_range (${res.status}${data?.resultType ? `, ${data.resultType}` : ''}): ${res.text.slice(0, 200)}`,
      )
    return (data.result as Matrix).map((s) => ({
      labels: s.metric ?? {},
      points: (s.values ?? []).map(([t, v]) => [Number(t), Number(v)] as [number, number]),
    }))
  }
}

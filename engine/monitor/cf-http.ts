import { Agent, request as httpsRequest } from 'node:https'
import { MonitorError } from './types.ts'

export type HttpOptions = {
  method?: 'GET' | 'POST'
  headers?: Record<string, string>
  body?: string
  /** Accept any TLS certificate (a lab Cloud Foundry with a self-signed one). */
  insecure?: boolean
  timeoutMs?: number
}

export type HttpResult = { status: number; json: unknown; text: string }

const TLS_CODES = /CERT|SELF_SIGNED|UNABLE_TO_(VERIFY|GET_ISSUER)|ERR_TLS/

/*
 * Built-in fetch for everything, except when TLS verification is off: Node's fetch (undici)
 * takes a `dispatcher` for that, but Node does not export undici's Agent, and undici is not a
 * dependency. node:https with `rejectUnauthorized: false` does the same for that one case,
 * without touching the process-wide NODE_TLS_REJECT_UNAUTHORIZED.
 */
let insecureAgent: Agent | undefined

export async function httpRequest(url: string, opts: HttpOptions = {}): Promise<HttpResult> {
  const timeoutMs = opts.timeoutMs ?? 10_000
  let status: number
  let text: string
  try {
    if (opts.insecure && url.startsWith('https:')) {
      ;({ status, text } = await insecureRequest(url, opts, timeoutMs))
    } else {
      const res = await fetch(url, {
        method: opts.method ?? 'GET',
        headers: opts.headers,
        body: opts.body,
        signal: AbortSignal.timeout(timeoutMs),
      })
      status = res.status
      text = await res.text()
    }
  } catch (error) {
    throw networkError(url, error, timeoutMs)
  }
  let json: unknown = undefined
  try {
    json = text ? JSON.parse(text) : undefined
  } catch {
    // not JSON (a proxy's HTML error page): callers look at the status and text
  }
  return { status, json, text }
}

function insecureRequest(url: string, opts: HttpOptions, timeoutMs: number) {
  insecureAgent ??= new Agent({ keepAlive: true, rejectUnauthorized: false })
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const timedOut = () => req.destroy(Object.assign(new Error('timed out'), { name: 'TimeoutError' }))
    // The whole exchange, not just an idle socket: a server trickling bytes is cut off too.
    const deadline = setTimeout(timedOut, timeoutMs)
    const req = httpsRequest(
      url,
      { method: opts.method ?? 'GET', headers: opts.headers, agent: insecureAgent, timeout: timeoutMs },
      (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => (text += chunk))
        res.on('end', () => {
          clearTimeout(deadline)
          resolve({ status: res.statusCode ?? 0, text })
        })
        res.on('error', reject)
      },
    )
    req.on('timeout', timedOut)
    req.on('error', (err) => {
      clearTimeout(deadline)
      reject(err)
    })
    req.end(opts.body)
  })
}

/** fetch hides the reason in `cause`; name it, and say what to do about a certificate. */
function networkError(url: string, error: unknown, timeoutMs: number): MonitorError {
  const origin = new URL(url).origin
  const e = error as {
    name?: string
    message?: string
    code?: string
    cause?: { code?: string; message?: string }
  }
  if (e.name === 'TimeoutError' || e.name === 'AbortError') {
    return new MonitorError('unreachable', `${origin} did not answer within ${timeoutMs} ms`, {
      cause: error,
    })
  }
  const code = e.cause?.code ?? e.code ?? e.cause?.message ?? e.message ?? 'unknown error'
  const hint = TLS_CODES.test(code)
    ? ': its TLS certificate is not trusted (set skipTlsVerify: true for a lab with a self-signed certificate)'
    : ''
  return new MonitorError('unreachable', `cannot reach ${origin} (${code})${hint}`, { cause: error })
}

// HTTP for the monitors that speak it (Cloud Foundry, Prometheus): one request, its answer read
// within bounds (../http-body.ts: at most `maxBytes`, decompressed bytes counted, under a deadline
// on the whole exchange), and never sent on to where a redirect points: a monitor talks only to
// the server its config names, and a 3xx is an error naming where it pointed.
import { Agent, request as httpsRequest } from 'node:https'
import { BodyTooLarge, collectBody, MAX_BODY_BYTES, responseText } from '../http-body.ts'
import { MonitorError } from './types.ts'

export type HttpOptions = {
  method?: 'GET' | 'POST'
  headers?: Record<string, string>
  body?: string
  /** Accept any TLS certificate (a lab Cloud Foundry with a self-signed one). */
  insecure?: boolean
  timeoutMs?: number
  /** The most bytes of the answer read (default ../http-body.ts MAX_BODY_BYTES). */
  maxBytes?: number
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
  const maxBytes = opts.maxBytes ?? MAX_BODY_BYTES
  let status: number
  let text: string
  let location: string | null
  try {
    if (opts.insecure && url.startsWith('https:')) {
      ;({ status, text, location } = await insecureRequest(url, opts, timeoutMs, maxBytes))
    } else {
      // The deadline covers the body too: fetch's signal aborts its reading.
      const res = await fetch(url, {
        method: opts.method ?? 'GET',
        headers: opts.headers,
        body: opts.body,
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      })
      status = res.status
      location = res.headers.get('location')
      text = await responseText(res, maxBytes)
    }
  } catch (error) {
    throw networkError(url, error, timeoutMs)
  }
  if (status >= 300 && status < 400) throw redirected(url, status, location)
  let json: unknown = undefined
  try {
    json = text ? JSON.parse(text) : undefined
  } catch {
    // not JSON (a proxy's HTML error page): callers look at the status and text
  }
  return { status, json, text }
}

/** A 3xx: not followed (it could send the request, its token and body, to another server). */
function redirected(url: string, status: number, location: string | null): MonitorError {
  let to = 'no Location'
  try {
    if (location) {
      const u = new URL(location, url)
      to = `${u.origin}${u.pathname}`.slice(0, 200)
    }
  } catch {
    to = 'a Location that is no URL'
  }
  return new MonitorError(
    'bad-response',
    `${new URL(url).origin} answered ${status}, a redirect to ${to}: not followed (a monitor sends its requests only to the server its config names); give that URL in the config if it is the right one`,
  )
}

function insecureRequest(url: string, opts: HttpOptions, timeoutMs: number, maxBytes: number) {
  insecureAgent ??= new Agent({ keepAlive: true, rejectUnauthorized: false })
  return new Promise<{ status: number; text: string; location: string | null }>((resolve, reject) => {
    const timedOut = () => req.destroy(Object.assign(new Error('timed out'), { name: 'TimeoutError' }))
    // The whole exchange, not just an idle socket: a server trickling bytes is cut off too.
    const deadline = setTimeout(timedOut, timeoutMs)
    const req = httpsRequest(
      url,
      { method: opts.method ?? 'GET', headers: opts.headers, agent: insecureAgent, timeout: timeoutMs },
      (res) => {
        collectBody(res, maxBytes).then(
          (body) => {
            clearTimeout(deadline)
            const location = res.headers.location
            resolve({ status: res.statusCode ?? 0, text: body.toString('utf8'), location: location ?? null })
          },
          (err: Error) => {
            clearTimeout(deadline)
            reject(err)
          },
        )
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
  if (error instanceof BodyTooLarge)
    return new MonitorError('bad-response', `${origin}: ${error.message}`, { cause: error })
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

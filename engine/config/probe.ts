// The wizard's "check it answers": one GET to the target, its status and time, or why not.
import http from 'node:http'
import https from 'node:https'
import { issueMessage } from './issue-words.ts'
import { TargetUrlSchema } from './schema.ts'

/** What the wizard's target probe found: an answer's status and time, or why none came. */
export interface ProbeResult {
  ok: boolean
  status: number | null
  latencyMs: number | null
  /** Why it did not answer, in words (refused, DNS, TLS, time-out). */
  error: string | null
}

export function probeTarget(
  url: string,
  opts: { insecure?: boolean; timeoutMs?: number } = {},
): Promise<ProbeResult> {
  const parsed = TargetUrlSchema.safeParse(url)
  if (!parsed.success)
    return Promise.resolve({
      ok: false,
      status: null,
      latencyMs: null,
      error: `the URL ${parsed.error.issues[0] ? issueMessage(parsed.error.issues[0]) : 'is invalid'}`,
    })
  const u = new URL(url)
  const timeoutMs = opts.timeoutMs ?? 5000
  const started = performance.now()
  return new Promise((resolve) => {
    let settled = false
    const finish = (r: ProbeResult) => {
      if (settled) return
      settled = true
      clearTimeout(deadline)
      resolve(r)
    }
    const lib = u.protocol === 'https:' ? https : http
    const req = lib.get(
      u,
      {
        timeout: timeoutMs,
        rejectUnauthorized: !opts.insecure,
        headers: { 'user-agent': 'cannonade-probe' },
      },
      (res) => {
        res.resume()
        res.on('end', () => {
          const status = res.statusCode ?? 0
          finish({
            ok: status >= 200 && status < 400,
            status,
            latencyMs: Math.round((performance.now() - started) * 10) / 10,
            error: null,
          })
        })
        res.on('error', (err) => req.destroy(err))
      },
    )
    // The whole exchange has a deadline (a server that accepts and never answers, or trickles its
    // response), not only an idle socket.
    const timedOut = () =>
      req.destroy(
        Object.assign(new Error(`${u.origin} did not answer within ${timeoutMs} ms`), { code: 'ETIMEDOUT' }),
      )
    const deadline = setTimeout(timedOut, timeoutMs)
    req.on('timeout', timedOut)
    req.on('error', (err: NodeJS.ErrnoException) => {
      const why =
        err.code === 'ECONNREFUSED'
          ? `nothing listens on ${u.host} (connection refused)`
          : err.code === 'ENOTFOUND'
            ? `host ${u.hostname} cannot be resolved`
            : /CERT|SELF_SIGNED|UNABLE_TO_VERIFY/.test(err.code ?? '')
              ? `its TLS certificate is not trusted (${err.code}); tick "accept a self-signed certificate" if that is expected`
              : err.message
      finish({ ok: false, status: null, latencyMs: null, error: why })
    })
  })
}

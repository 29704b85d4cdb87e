// The wizard's "check it answers": one GET to the target, its status and time, or why not.
import http from 'node:http'
import https from 'node:https'
import type { ProbeResult } from '../api/types.ts'
import { TargetUrlSchema } from './schema.ts'

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
      error: `the URL ${parsed.error.issues[0]?.message ?? 'is invalid'}`,
    })
  const u = new URL(url)
  const started = performance.now()
  return new Promise((resolve) => {
    const lib = u.protocol === 'https:' ? https : http
    const req = lib.get(
      u,
      {
        timeout: opts.timeoutMs ?? 5000,
        rejectUnauthorized: !opts.insecure,
        headers: { 'user-agent': 'cannonade-probe' },
      },
      (res) => {
        res.resume()
        res.on('end', () => {
          const status = res.statusCode ?? 0
          resolve({
            ok: status >= 200 && status < 400,
            status,
            latencyMs: Math.round((performance.now() - started) * 10) / 10,
            error: null,
          })
        })
      },
    )
    req.on('timeout', () =>
      req.destroy(
        Object.assign(new Error(`no answer within ${opts.timeoutMs ?? 5000} ms`), { code: 'ETIMEDOUT' }),
      ),
    )
    req.on('error', (err: NodeJS.ErrnoException) => {
      const why =
        err.code === 'ECONNREFUSED'
          ? `nothing listens on ${u.host} (connection refused)`
          : err.code === 'ENOTFOUND'
            ? `host ${u.hostname} cannot be resolved`
            : /CERT|SELF_SIGNED|UNABLE_TO_VERIFY/.test(err.code ?? '')
              ? `its TLS certificate is not trusted (${err.code}); tick "accept a self-signed certificate" if that is expected`
              : err.message
      resolve({ ok: false, status: null, latencyMs: null, error: why })
    })
  })
}

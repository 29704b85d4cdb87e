// Before a run writes anything: every target's host must resolve and accept a connection.
// A target that goes away during the run is different: its errors are counted by kind.
import { lookup } from 'node:dns/promises'
import net from 'node:net'
import type { RunConfig } from './schema.ts'
import { ConfigError } from './errors.ts'

function tryConnect(host: string, port: number, timeoutMs: number): Promise<string | null> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port })
    const done = (result: string | null) => {
      socket.removeAllListeners()
      socket.destroy()
      resolve(result)
    }
    socket.setTimeout(timeoutMs, () => done(`no answer within ${timeoutMs} ms`))
    socket.once('connect', () => done(null))
    socket.once('error', (err: NodeJS.ErrnoException) => done(err.code ?? err.message))
  })
}

/** Why a URL's host cannot be reached (unresolvable, refused, silent), or null when it accepts a connection. */
export async function connectProblem(target: string, timeoutMs = 3000): Promise<string | null> {
  const url = new URL(target)
  const host = url.hostname.replace(/^\[|\]$/g, '')
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80))
  try {
    await lookup(host)
  } catch {
    return `host "${host}" cannot be resolved`
  }
  const problem = await tryConnect(host, port, timeoutMs)
  return problem ? `cannot connect to ${host}:${port} (${problem})` : null
}

export async function preflight(config: Pick<RunConfig, 'targets'>, timeoutMs = 3000): Promise<void> {
  const issues: { field: string; message: string }[] = []
  await Promise.all(
    config.targets.map(async (t, i) => {
      const problem = await connectProblem(t.url, timeoutMs)
      if (problem) issues.push({ field: `targets.${i}.url`, message: problem })
    }),
  )
  if (issues.length) throw new ConfigError(issues)
}

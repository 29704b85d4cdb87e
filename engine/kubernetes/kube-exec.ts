// A kubeconfig's exec credential plugin (the way EKS, GKE and AKS hand out tokens), run as a child
// process the caller's event loop never waits on (a plugin that hangs held `cannonade serve` for
// 30 s when it ran synchronously), under a deadline, its output bounded. What it hands out is kept
// for this process until its expirationTimestamp, as kubectl keeps it, so a run's monitor, its
// launcher and the wizard's Test button share one run of the plugin; a 401 forgets it, at most
// once in 10 s (a server refusing every token is not sent a new one each second).
import { captureCommand } from '../command.ts'

export interface ExecSpec {
  command: string
  args: string[]
  env: [string, string][]
  apiVersion: string
  /** The kubeconfig's folder: the plugin runs there. */
  dir: string
}

export interface ExecCredential {
  token?: string
  cert?: Buffer
  key?: Buffer
  /** Epoch ms when it must be fetched again (none: until the server refuses it). */
  expiresAt: number | null
}

const TIMEOUT_MS = 30_000
/** An ExecCredential is a few KB; a plugin writing more is not one. */
const MAX_OUTPUT_BYTES = 1024 * 1024
/** A refusal fetches a credential again at most once in this long. */
const MIN_REFRESH_MS = 10_000

const cache = new Map<string, Promise<ExecCredential>>()
/** When a refusal last made a credential be fetched again, per plugin. */
const forgotten = new Map<string, number>()
const keyOf = (spec: ExecSpec) => JSON.stringify(spec)

async function run(spec: ExecSpec): Promise<ExecCredential> {
  // The whole environment, as kubectl gives it: a cloud's plugin reads its own variables.
  const env: NodeJS.ProcessEnv = { ...process.env }
  for (const [name, value] of spec.env) env[name] = value
  env.KUBERNETES_EXEC_INFO = JSON.stringify({
    apiVersion: spec.apiVersion,
    kind: 'ExecCredential',
    spec: { interactive: false },
  })
  const r = await captureCommand(spec.command, spec.args, {
    env,
    cwd: spec.dir,
    timeoutMs: TIMEOUT_MS,
    maxBytes: MAX_OUTPUT_BYTES,
  })
  const fail = (why: string) => new Error(`its exec plugin ${spec.command} failed (${why})`)
  if (r.timedOut) throw fail(`no answer within ${TIMEOUT_MS / 1000} s; it was stopped`)
  if (r.tooLarge)
    throw fail(`it wrote more than ${MAX_OUTPUT_BYTES / 1024 / 1024} MB, which is no credential`)
  if (r.code !== 0) throw fail(`exit ${r.code}: ${r.stderr.trim().split('\n').pop()?.slice(0, 300) ?? ''}`)
  let status: Record<string, unknown>
  try {
    const parsed = JSON.parse(r.stdout) as { status?: unknown }
    status =
      parsed.status && typeof parsed.status === 'object' ? (parsed.status as Record<string, unknown>) : {}
  } catch {
    throw fail('its output is not an ExecCredential (JSON)')
  }
  const text = (k: string): string | undefined => {
    const v = status[k]
    return typeof v === 'string' && v !== '' ? v : undefined
  }
  const cert = text('clientCertificateData')
  const key = text('clientKeyData')
  const expires = Date.parse(text('expirationTimestamp') ?? '')
  const token = text('token')
  return {
    ...(token ? { token } : {}),
    ...(cert && key ? { cert: Buffer.from(cert), key: Buffer.from(key) } : {}),
    expiresAt: Number.isFinite(expires) ? expires : null,
  }
}

/** The plugin's credential: the one kept while it is valid, else a new one (one run at a time). */
export async function execCredential(spec: ExecSpec): Promise<ExecCredential> {
  const key = keyOf(spec)
  const held = cache.get(key)
  if (held) {
    const c = await held.catch(() => null)
    if (c && (c.expiresAt === null || c.expiresAt - Date.now() > 10_000)) return c
    if (cache.get(key) !== held) return execCredential(spec)
  }
  const fresh = run(spec)
  cache.set(key, fresh)
  // A failure is not kept: the next call tries again.
  fresh.catch(() => cache.get(key) === fresh && cache.delete(key))
  return fresh
}

/**
 * The server refused it (401): the next call fetches a new one, unless a refusal already did so
 * within the last 10 s (a server that refuses every token is not sent a new one each second).
 */
export function forgetCredential(spec: ExecSpec): boolean {
  const key = keyOf(spec)
  const last = forgotten.get(key)
  if (last !== undefined && Date.now() - last < MIN_REFRESH_MS) return false
  forgotten.set(key, Date.now())
  cache.delete(key)
  return true
}

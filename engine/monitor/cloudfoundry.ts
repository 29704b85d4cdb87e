import { CfAuth } from './cf-auth.ts'
import type { Secrets } from './cf-auth.ts'
import { httpRequest } from './cf-http.ts'
import { errorReporter, startLoop } from './loop.ts'
import type { Loop } from './loop.ts'
import type { CloudFoundryMonitorSpec } from '../config/schema-monitor.ts'
import { MonitorError, toMonitorError } from './types.ts'
import type { ErrorHandler, Monitor, ResourceSample, SampleHandler } from './types.ts'

type Json = Record<string, unknown>
const obj = (v: unknown): Json => (v !== null && typeof v === 'object' ? (v as Json) : {})
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null)
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
/** Instances in these states have no meaningful usage, whatever the stats say. */
const NO_USAGE_STATES = new Set(['CRASHED', 'DOWN'])

/** The per-instance entries of a `/v3/processes/{guid}/stats` answer, as samples. */
export function samplesFromStats(stats: unknown, target: string, t: number): ResourceSample[] {
  const resources = obj(stats).resources
  if (!Array.isArray(resources)) {
    throw new MonitorError('bad-response', 'process stats without a resources array')
  }
  return resources.map((raw): ResourceSample => {
    const r = obj(raw)
    const state = typeof r.state === 'string' ? r.state : null
    const usage = state !== null && NO_USAGE_STATES.has(state) ? {} : obj(r.usage)
    const cpu = num(usage.cpu)
    return {
      t,
      source: 'cloudfoundry',
      target,
      instance: String(num(r.index) ?? '?'),
      // usage.cpu is a fraction of one core.
      cpuPercent: cpu === null ? null : cpu * 100,
      memoryBytes: num(usage.mem),
      memoryLimitBytes: num(r.mem_quota),
      cpuLimit: null, // CF shares CPU by memory weight; the stats carry no core limit
      state,
    }
  })
}

/**
 * Per-instance CPU and memory of a Cloud Foundry app's web process from the Cloud Controller v3
 * API, polled (CF refreshes its stats every few seconds; repeated values are CF's, not ours).
 */
export class CloudFoundryMonitor implements Monitor {
  readonly #spec: CloudFoundryMonitorSpec
  readonly #target: string
  readonly #intervalMs: number
  readonly #api: string
  readonly #auth: CfAuth
  #processGuid: string | undefined
  #loop: Loop | undefined

  constructor(spec: CloudFoundryMonitorSpec, target: string, secrets: Secrets = {}, intervalMs = 1000) {
    this.#spec = spec
    this.#target = target
    this.#intervalMs = intervalMs
    this.#api = spec.api.replace(/\/+$/, '')
    let uaa: Promise<string> | undefined
    const discover = (): Promise<string> =>
      (uaa ??= this.#discoverUaa().catch((error: unknown) => {
        uaa = undefined // try again next time
        throw error
      }))
    this.#auth = new CfAuth(spec.auth, secrets, spec.skipTlsVerify === true, discover)
  }

  async start(onSample: SampleHandler, onError: ErrorHandler): Promise<void> {
    if (this.#loop) throw new MonitorError('config', 'cloudfoundry monitor already started')
    await this.#auth.bearer() // bad credentials fail here, with UAA's reason
    this.#processGuid = await this.#resolveProcess()
    for (const s of await this.#poll()) onSample(s)
    const errors = errorReporter(onError)
    this.#loop = startLoop(
      this.#intervalMs,
      async () => {
        const samples = await this.#poll()
        errors.ok()
        for (const s of samples) onSample(s)
      },
      (error) => {
        const e = toMonitorError(error, 'unreachable', `Cloud Foundry app ${this.#spec.app}`)
        // Re-pushed or deleted: look the app up again next tick.
        if (e.code === 'not-found') this.#processGuid = undefined
        errors.report(e)
      },
    )
  }

  async stop(): Promise<void> {
    await this.#loop?.stop()
    this.#loop = undefined
  }

  async #poll(): Promise<ResourceSample[]> {
    this.#processGuid ??= await this.#resolveProcess()
    const stats = await this.#get(`/v3/processes/${this.#processGuid}/stats`)
    return samplesFromStats(stats, this.#target, Date.now())
  }

  /** `GET {api}/` names the UAA (links.login, as the cf CLI uses for tokens, else links.uaa). */
  async #discoverUaa(): Promise<string> {
    const res = await httpRequest(`${this.#api}/`, { insecure: this.#spec.skipTlsVerify === true })
    const links = obj(obj(res.json).links)
    const href = obj(links.login).href ?? obj(links.uaa).href
    if (res.status !== 200 || typeof href !== 'string') {
      throw new MonitorError(
        'bad-response',
        `${this.#api}/ does not look like a Cloud Foundry API (HTTP ${res.status}, no links.login or links.uaa): check api, or set auth.uaa`,
      )
    }
    return href
  }

  async #resolveProcess(): Promise<string> {
    const { app, space } = this.#spec
    const query = new URLSearchParams({ names: app })
    if (space !== undefined) query.set('space_guids', await this.#resolveSpace(space))
    const apps = this.#resources(await this.#get(`/v3/apps?${query.toString()}`))
    const where = space !== undefined ? ` in space ${space}` : ''
    if (apps.length === 0) {
      throw new MonitorError(
        'not-found',
        `no app named "${app}"${where} visible to this user (check with \`cf apps\`)`,
      )
    }
    if (apps.length > 1) {
      throw new MonitorError(
        'ambiguous',
        `${apps.length} apps are named "${app}" in different spaces: set space`,
      )
    }
    const appGuid = String(apps[0]?.guid)
    const processes = this.#resources(await this.#get(`/v3/apps/${appGuid}/processes?types=web`))
    const web = processes.find((p) => p.type === 'web')
    if (!web || typeof web.guid !== 'string') {
      throw new MonitorError('not-found', `app "${app}" has no web process`)
    }
    return web.guid
  }

  /** A space guid as is; a space name looked up (names are unique within an org only). */
  async #resolveSpace(space: string): Promise<string> {
    if (GUID.test(space)) return space
    const spaces = this.#resources(await this.#get(`/v3/spaces?names=${encodeURIComponent(space)}`))
    if (spaces.length === 0)
      throw new MonitorError('not-found', `no space named "${space}" visible to this user`)
    if (spaces.length > 1) {
      throw new MonitorError(
        'ambiguous',
        `${spaces.length} spaces are named "${space}" (in different orgs): set space to its guid (cf space ${space} --guid)`,
      )
    }
    return String(spaces[0]?.guid)
  }

  #resources(body: unknown): Json[] {
    const resources = obj(body).resources
    if (!Array.isArray(resources))
      throw new MonitorError('bad-response', 'Cloud Controller answer without resources')
    return resources.map(obj)
  }

  /** An authenticated Cloud Controller GET; on 401 the token is renewed and the call retried once. */
  async #get(path: string): Promise<unknown> {
    const insecure = this.#spec.skipTlsVerify === true
    const send = async () =>
      httpRequest(`${this.#api}${path}`, {
        headers: { authorization: `bearer ${await this.#auth.bearer()}`, accept: 'application/json' },
        insecure,
      })
    let res = await send()
    if (res.status === 401 && (await this.#auth.rejected())) res = await send()
    if (res.status === 200) return res.json
    const errors = obj(res.json).errors
    const first = obj(Array.isArray(errors) ? errors[0] : undefined)
    const detail =
      [first.title, first.detail].filter((x) => typeof x === 'string').join(': ') || res.text.slice(0, 200)
    const what = `Cloud Controller GET ${path.split('?')[0]} answered HTTP ${res.status}${detail ? ` (${detail})` : ''}`
    if (res.status === 401) throw new MonitorError('auth', `${this.#auth.rejectionMessage()}; ${what}`)
    if (res.status === 403) throw new MonitorError('auth', `this user may not read it: ${what}`)
    if (res.status === 404) throw new MonitorError('not-found', what)
    throw new MonitorError('unreachable', what)
  }
}

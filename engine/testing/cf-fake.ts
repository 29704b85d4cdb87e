import { randomUUID } from 'node:crypto'
import { createServer } from 'node:http'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import type { AddressInfo } from 'node:net'

/*
 * A Cloud Controller v3 + UAA stand-in for tests, answering in the documented formats
 * (v3-apidocs.cloudfoundry.org: root links, apps, processes, process stats; UAA /oauth/token).
 * Tokens really expire and can be revoked, and the server logs what it saw, so tests can check
 * the monitor's behaviour, not just its output.
 */

export type FakeInstance = { state: 'RUNNING' | 'CRASHED' | 'DOWN' | 'STARTING'; cpu?: number; mem?: number }
export type FakeApp = { name: string; space: string; instances: FakeInstance[]; memQuota?: number }

export class FakeCloudFoundry {
  users: Record<string, string> = { alice: 's3cret' }
  /** expires_in of issued access tokens, seconds. */
  tokenLifetimeSeconds = 600
  spaces: Record<string, string> = { dev: randomUUID() }
  apps: (FakeApp & { guid: string })[] = []
  /** The UAA the root document names (default: this server); a test may name another. */
  uaaUrl: string | null = null
  /** One line per request: "POST /oauth/token password 200", "GET /v3/apps 401", … */
  readonly log: string[] = []
  /** Requests whose path matches are accepted and never answered (a frozen API). */
  freeze: RegExp | null = null
  url = ''
  readonly #access = new Map<string, number>() // token → expiry (epoch ms)
  readonly #refresh = new Set<string>()
  #server: Server | undefined

  addApp(app: FakeApp): string {
    const guid = randomUUID()
    this.apps.push({ ...app, guid })
    return guid
  }

  /** A refresh token as `cf` would have stored it, for the refresh grant. */
  issueRefreshToken(): string {
    const token = `refresh-${randomUUID()}`
    this.#refresh.add(token)
    return token
  }

  /** An access token as `cf oauth-token` prints it. */
  issueAccessToken(): string {
    const token = `access-${randomUUID()}`
    this.#access.set(token, Date.now() + this.tokenLifetimeSeconds * 1000)
    return token
  }

  /** Every access token stops working at once (UAA restarted with new keys, say). */
  revokeAccessTokens(): void {
    this.#access.clear()
  }

  count(pattern: RegExp): number {
    return this.log.filter((l) => pattern.test(l)).length
  }

  async start(tls?: { key: string; cert: string }): Promise<string> {
    const handler = (req: IncomingMessage, res: ServerResponse): void => void this.#handle(req, res)
    this.#server = tls ? createHttpsServer(tls, handler) : createServer(handler)
    await new Promise<void>((resolve) => this.#server?.listen(0, '127.0.0.1', resolve))
    const { port } = this.#server.address() as AddressInfo
    this.url = `${tls ? 'https' : 'http'}://127.0.0.1:${port}`
    return this.url
  }

  async close(): Promise<void> {
    this.#server?.closeAllConnections()
    await new Promise((resolve) => this.#server?.close(resolve))
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let body = ''
    for await (const chunk of req) body += String(chunk)
    const url = new URL(req.url ?? '/', 'http://x')
    if (this.freeze?.test(url.pathname)) {
      this.log.push(`${req.method} ${url.pathname} frozen`)
      return
    }
    const send = (status: number, json: unknown, note = ''): void => {
      this.log.push(`${req.method} ${url.pathname}${note ? ` ${note}` : ''} ${status}`)
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json))
    }
    if (req.method === 'GET' && url.pathname === '/') {
      return send(200, {
        links: {
          self: { href: this.url },
          cloud_controller_v3: { href: `${this.url}/v3`, meta: { version: '3.180.0' } },
          login: { href: this.uaaUrl ?? this.url },
          uaa: { href: this.uaaUrl ?? this.url },
        },
      })
    }
    if (req.method === 'POST' && url.pathname === '/oauth/token') return this.#token(req, body, send)
    const token = /^bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? ''
    const expiry = this.#access.get(token)
    if (expiry === undefined || expiry <= Date.now()) {
      return send(401, {
        errors: [{ detail: 'Invalid Auth Token', title: 'CF-InvalidAuthToken', code: 1000 }],
      })
    }
    const notFound = () =>
      send(404, { errors: [{ detail: 'App not found', title: 'CF-ResourceNotFound', code: 10010 }] })
    const list = (resources: unknown[]) =>
      send(200, { pagination: { total_results: resources.length, total_pages: 1 }, resources })
    if (url.pathname === '/v3/spaces') {
      const names = url.searchParams.get('names')?.split(',') ?? []
      return list(
        Object.entries(this.spaces)
          .filter(([name]) => names.includes(name))
          .map(([name, guid]) => ({ guid, name })),
      )
    }
    if (url.pathname === '/v3/apps') {
      const names = url.searchParams.get('names')?.split(',') ?? []
      const spaces = url.searchParams.get('space_guids')?.split(',')
      return list(
        this.apps
          .filter((a) => names.includes(a.name) && (!spaces || spaces.includes(this.spaces[a.space] ?? '')))
          .map((a) => ({
            guid: a.guid,
            name: a.name,
            state: 'STARTED',
            relationships: { space: { data: { guid: this.spaces[a.space] } } },
          })),
      )
    }
    const processes = /^\/v3\/apps\/([^/]+)\/processes$/.exec(url.pathname)
    if (processes) {
      const app = this.apps.find((a) => a.guid === processes[1])
      if (!app) return notFound()
      return list([{ guid: app.guid, type: 'web', instances: app.instances.length, memory_in_mb: 1024 }])
    }
    const stats = /^\/v3\/processes\/([^/]+)\/stats$/.exec(url.pathname)
    if (stats) {
      const app = this.apps.find((a) => a.guid === stats[1])
      if (!app) return notFound()
      return send(200, { resources: app.instances.map((inst, index) => this.#stats(app, inst, index)) })
    }
    return notFound()
  }

  #stats(app: FakeApp, inst: FakeInstance, index: number): unknown {
    const quota = { mem_quota: app.memQuota ?? 1073741824, disk_quota: 1073741824, fds_quota: 16384 }
    if (inst.state === 'DOWN') {
      // What the Cloud Controller sends for an instance Diego cannot place: no usage at all.
      return { type: 'web', index, state: 'DOWN', uptime: 0, details: 'insufficient resources', ...quota }
    }
    const up = inst.state === 'RUNNING'
    return {
      type: 'web',
      index,
      state: inst.state,
      usage: {
        time: new Date().toISOString(),
        cpu: up ? (inst.cpu ?? 0) : 0,
        mem: up ? (inst.mem ?? 0) : 0,
        disk: 1e8,
      },
      host: '10.0.16.4',
      instance_ports: [{ external: 61000 + index, internal: 8080 }],
      uptime: up ? 1234 : 0,
      ...quota,
    }
  }

  #token(req: IncomingMessage, body: string, send: (s: number, j: unknown, note: string) => void): void {
    const form = new URLSearchParams(body)
    const grant = form.get('grant_type') ?? ''
    if (req.headers.authorization !== `Basic ${Buffer.from('cf:').toString('base64')}`) {
      return send(401, { error: 'unauthorized', error_description: 'Bad credentials' }, grant)
    }
    if (grant === 'password') {
      const user = form.get('username') ?? ''
      if (this.users[user] === undefined || this.users[user] !== form.get('password')) {
        return send(401, { error: 'unauthorized', error_description: 'Bad credentials' }, grant)
      }
    } else if (grant === 'refresh_token') {
      const refresh = form.get('refresh_token') ?? ''
      if (!this.#refresh.has(refresh)) {
        return send(
          401,
          { error: 'invalid_token', error_description: 'Invalid refresh token: ' + refresh },
          grant,
        )
      }
    } else {
      return send(400, { error: 'unsupported_grant_type', error_description: grant }, grant)
    }
    send(
      200,
      {
        access_token: this.issueAccessToken(),
        token_type: 'bearer',
        refresh_token: this.issueRefreshToken(),
        expires_in: this.tokenLifetimeSeconds,
        scope: 'openid cloud_controller.read cloud_controller.write',
        jti: randomUUID(),
      },
      grant,
    )
  }
}

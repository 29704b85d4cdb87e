import { httpRequest } from './cf-http.ts'
import { isCannonadeSecretName, secureEnough, type CloudFoundryAuth } from '../config/schema-monitor.ts'
import { MonitorError } from './types.ts'

export type Secrets = Readonly<Record<string, string>>

type Token = { access: string; expiresAt: number | null; lifetimeMs: number }

const DEFAULT_ENV = { password: 'CF_PASSWORD', refresh: 'CF_REFRESH_TOKEN', token: 'CF_TOKEN' } as const

/**
 * A secret from the `secrets` object (by its generic key, e.g. `password`, or by the variable's
 * name), else from the environment variable. Never from the config file.
 */
function secret(secrets: Secrets, key: string, env: string): string | undefined {
  // The spec's schema refuses other names; a spec built in code is held to the same rule.
  if (!isCannonadeSecretName(env))
    throw new MonitorError(
      'config',
      `${env} is not a variable named for Cannonade (CANNONADE_… or CF_PASSWORD…)`,
    )
  const value = secrets[key] ?? secrets[env] ?? process.env[env]
  return value?.trim() ? value.trim() : undefined
}

/** `cf oauth-token` prints "bearer eyJ…"; accept that, or the bare token. */
export function stripBearer(token: string): string {
  return token.replace(/^bearer\s+/i, '').trim()
}

/** The `exp` claim of a JWT, in epoch ms, if the token is one. */
export function jwtExpiry(token: string): number | null {
  const payload = token.split('.')[1]
  if (!payload) return null
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { exp?: unknown }
    return typeof claims.exp === 'number' ? claims.exp * 1000 : null
  } catch {
    return null
  }
}

/**
 * Bearer tokens for the Cloud Controller from UAA (password or refresh_token grant, client `cf`
 * with an empty secret, as the cf CLI does) or a pasted token. A token is renewed before it
 * lapses (a quarter of its lifetime ahead, at most a minute) and whenever the Cloud Controller
 * answers 401; a refresh that fails falls back to the password grant when there is a password.
 */
export class CfAuth {
  readonly #auth: CloudFoundryAuth
  readonly #secrets: Secrets
  readonly #insecure: boolean
  readonly #uaa: () => Promise<string>
  #token: Token | undefined
  /** The latest refresh token UAA issued (it may rotate them), or the one from the secrets. */
  #refresh: string | undefined
  #inFlight: Promise<Token> | undefined

  constructor(auth: CloudFoundryAuth, secrets: Secrets, insecure: boolean, uaa: () => Promise<string>) {
    this.#auth = auth
    this.#secrets = secrets
    this.#insecure = insecure
    this.#uaa = uaa
  }

  /** A token that is valid now, renewing it first when it is about to lapse. */
  async bearer(): Promise<string> {
    const t = this.#token
    const margin = t ? Math.min(60_000, t.lifetimeMs / 4) : 0
    if (t && (t.expiresAt === null || Date.now() < t.expiresAt - margin)) return t.access
    return (await this.#renew()).access
  }

  /** The Cloud Controller said 401: get a new token if the grant allows. False if it cannot. */
  async rejected(): Promise<boolean> {
    if (this.#auth.grant === 'token') return false
    await this.#renew()
    return true
  }

  /** Message for a 401 that survived a renewal (or a pasted token that was refused). */
  rejectionMessage(): string {
    return this.#auth.grant === 'token'
      ? 'the Cloud Controller refused the pasted token (expired or revoked?): run `cf oauth-token` again and paste the result, or use the password or refresh grant'
      : 'the Cloud Controller refused a freshly issued token: does this user have access to the app?'
  }

  #renew(): Promise<Token> {
    this.#inFlight ??= this.#obtain().finally(() => (this.#inFlight = undefined))
    return this.#inFlight.then((token) => (this.#token = token))
  }

  async #obtain(): Promise<Token> {
    const auth = this.#auth
    if (auth.grant === 'token') {
      const env = auth.tokenEnv ?? DEFAULT_ENV.token
      const raw = secret(this.#secrets, 'token', env)
      if (!raw)
        throw new MonitorError(
          'auth',
          `no token: pass the output of \`cf oauth-token\` as the secret "token" or set ${env}`,
        )
      const access = stripBearer(raw)
      const expiresAt = jwtExpiry(access)
      if (expiresAt !== null && expiresAt <= Date.now()) {
        throw new MonitorError(
          'auth',
          `the pasted token expired at ${new Date(expiresAt).toISOString()}: run \`cf oauth-token\` again`,
        )
      }
      return { access, expiresAt: null, lifetimeMs: 0 }
    }
    const refresh = this.#refresh ?? (auth.grant === 'refresh' ? this.#refreshSecret() : undefined)
    if (refresh) {
      try {
        return await this.#grant({ grant_type: 'refresh_token', refresh_token: refresh })
      } catch (error) {
        if (auth.grant === 'refresh' || !(error instanceof MonitorError) || error.code !== 'auth') throw error
        // The refresh token lapsed too: a password grant starts over.
        this.#refresh = undefined
      }
    }
    if (auth.grant !== 'password') throw new MonitorError('auth', 'no refresh token') // unreachable by types
    const env = auth.passwordEnv ?? DEFAULT_ENV.password
    const password = secret(this.#secrets, 'password', env)
    if (!password) {
      throw new MonitorError(
        'auth',
        `no password for ${auth.username}: pass it as the secret "password" or set ${env}`,
      )
    }
    return this.#grant({ grant_type: 'password', username: auth.username, password })
  }

  #refreshSecret(): string {
    const env = (this.#auth.grant === 'refresh' && this.#auth.refreshTokenEnv) || DEFAULT_ENV.refresh
    const value = secret(this.#secrets, 'refreshToken', env)
    if (!value) {
      throw new MonitorError('auth', `no refresh token: pass it as the secret "refreshToken" or set ${env}`)
    }
    return stripBearer(value)
  }

  async #grant(form: Record<string, string>): Promise<Token> {
    const uaa = (this.#auth.grant !== 'token' && this.#auth.uaa) || (await this.#uaa())
    const clientId = (this.#auth.grant !== 'token' && this.#auth.clientId) || 'cf'
    const url = `${uaa.replace(/\/+$/, '')}/oauth/token`
    // The UAA may come from the Cloud Controller's answer: a password never goes out over plain http.
    if (!secureEnough(url))
      throw new MonitorError(
        'config',
        `UAA at ${uaa} is not https: credentials are sent over https only (plain http only to 127.0.0.1 or localhost)`,
      )
    const res = await httpRequest(url, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${clientId}:`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: new URLSearchParams(form).toString(),
      insecure: this.#insecure,
    })
    const body = (res.json ?? {}) as Record<string, unknown>
    if (res.status === 200 && typeof body.access_token === 'string') {
      const lifetimeMs = typeof body.expires_in === 'number' ? body.expires_in * 1000 : 0
      if (typeof body.refresh_token === 'string') this.#refresh = body.refresh_token
      return {
        access: body.access_token,
        expiresAt: lifetimeMs > 0 ? Date.now() + lifetimeMs : jwtExpiry(body.access_token),
        lifetimeMs,
      }
    }
    const why = [body.error, body.error_description].filter((x) => typeof x === 'string').join(': ')
    const detail = why || res.text.slice(0, 200) || `HTTP ${res.status}`
    if (res.status === 400 || res.status === 401 || res.status === 403) {
      const who =
        form.grant_type === 'password' ? `the credentials of user "${form.username}"` : 'the refresh token'
      throw new MonitorError('auth', `UAA at ${uaa} rejected ${who} (HTTP ${res.status} ${detail})`)
    }
    throw new MonitorError('unreachable', `UAA at ${uaa} answered HTTP ${res.status}: ${detail}`)
  }
}

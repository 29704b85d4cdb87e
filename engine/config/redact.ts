// Credentials in what Cannonade keeps and shows. A target URL may carry a user and password
// (`http://user:pw@host/`): the runner sends them as Basic auth, as curl does (basicAuthorization,
// built once into the request template), and nothing stores or shows the password. Secret-looking
// header values (Authorization, Cookie, X-Api-Key…) stay in the local database, so "run again"
// still sends them, and are masked in whatever leaves it: reports and exports. Every writer calls
// redactConfig with its scope; free text (logs, environment details) goes through redactText.
import type { RunConfig } from './schema.ts'

/** What stands where a secret was. */
export const REDACTED = '***'

/**
 * Header names whose values are credentials: the well-known ones, and any name that says so
 * (x-api-key, x-auth-token, x-access-token, x-session-id, api_secret, x-signature…).
 */
const SECRET_HEADER =
  /^(authorization|proxy-authorization|cookie|set-cookie)$|auth|token|secret|passw|api[-_]?key|session|credential|signature|cookie/i

export function isSecretHeader(name: string): boolean {
  return SECRET_HEADER.test(name)
}

/** `user:password` of a URL as an Authorization header value, decoded as curl does; null without. */
export function basicAuthorization(url: URL): string | null {
  if (url.username === '' && url.password === '') return null
  const decode = (s: string) => {
    try {
      return decodeURIComponent(s)
    } catch {
      return s
    }
  }
  const pair = `${decode(url.username)}:${decode(url.password)}`
  return `Basic ${Buffer.from(pair, 'utf8').toString('base64')}`
}

// scheme://user:password@ anywhere in a text (a log line, an error, stored JSON).
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^/\s:@"'<>]*):[^@/\s"'<>]*@/gi

/** Free text with every URL's password masked. */
export function redactText(text: string): string {
  return text.replace(URL_PASSWORD, `$1:${REDACTED}@`)
}

// libpq takes a password in the query too (postgres://host/db?password=…).
const PASSWORD_PARAMS = ['password', 'sslpassword'] as const

/**
 * Query parameters that carry a credential (`?api_key=`, `token=`, `sig=`…): the names a secret
 * header has (isSecretHeader), and the short ones signed URLs use. Masked where a URL leaves the
 * machine (the `shared` scope: exports, reports, PostgreSQL), as secret header values are.
 */
const SECRET_PARAM =
  /^(sig|key|code|x-amz-security-token|x-goog-signature|client_secret)$|pass|pwd|credential/i

export function isSecretParam(name: string): boolean {
  return isSecretHeader(name) || SECRET_PARAM.test(name)
}

/**
 * A URL with its password masked (the user name stays: it says which account was used); in the
 * `shared` scope, every credential in its query too.
 */
export function redactUrl(url: string, scope: 'stored' | 'shared' = 'stored'): string {
  let u: URL
  try {
    u = new URL(url)
  } catch {
    return redactText(url)
  }
  const names = [...new Set(u.searchParams.keys())]
  const params = names.filter((k) =>
    scope === 'shared' ? isSecretParam(k) : (PASSWORD_PARAMS as readonly string[]).includes(k),
  )
  if (u.password === '' && params.length === 0) return url
  if (u.password !== '') u.password = REDACTED
  for (const k of params) u.searchParams.set(k, REDACTED)
  return u.toString()
}

type Loose = Record<string, unknown>
const isRecord = (v: unknown): v is Loose => typeof v === 'object' && v !== null && !Array.isArray(v)

/** Secret-looking keys of a record (header values, a stack's POSTGRES_PASSWORD…) masked. */
function redactRecord(value: unknown): unknown {
  if (!isRecord(value)) return value
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, isSecretHeader(k) ? REDACTED : v]))
}

function redactTarget(t: unknown, scope: 'stored' | 'shared'): unknown {
  if (!isRecord(t)) return t
  const out: Loose = { ...t }
  if (typeof t.url === 'string') out.url = redactUrl(t.url, scope)
  if (scope === 'shared') {
    if ('headers' in t) out.headers = redactRecord(t.headers)
    if (Array.isArray(t.steps))
      out.steps = (t.steps as unknown[]).map((s) =>
        isRecord(s) && 'headers' in s ? { ...s, headers: redactRecord(s.headers) } : s,
      )
    if (isRecord(t.stack) && 'env' in t.stack) out.stack = { ...t.stack, env: redactRecord(t.stack.env) }
  }
  return out
}

/**
 * A config (or the JSON a run stored, whatever its shape) as a scope may hold it. `stored` (the
 * local database, run detail, the CLI): URL passwords masked. `shared` (reports, exports, anything
 * that leaves this machine): secret-looking header values, query parameters and stack variables
 * masked too.
 */
export function redactConfigJson(config: unknown, scope: 'stored' | 'shared'): unknown {
  if (!isRecord(config) || !Array.isArray(config.targets)) return config
  return { ...config, targets: config.targets.map((t) => redactTarget(t, scope)) }
}

/** redactConfigJson for a parsed config: the same shape back, secrets masked. */
export function redactConfig<C extends Pick<RunConfig, 'targets'>>(config: C, scope: 'stored' | 'shared'): C {
  // Only string values are replaced by strings: the shape, and so the type, is unchanged.
  return redactConfigJson(config, scope) as C
}

// A password in a URL, in every form a PostgreSQL client would read one: the user part
// (`user:secret@`, even where the rest of the URL is not one WHATWG's parser accepts, such as
// `postgres://u:secret@h:5432:99/db`), the query (`?password=`, `sslpassword=`, any case) and an
// `options` string (`-c password=…`, `PGPASSWORD=…`). Settings are a plain file and hold none
// (engine/api/schemas.ts refuses one, engine/host/settings.ts strips one from an older file).
// The renderer checks settings with the same schema, so this file stays browser-safe: it reads a
// URL as pg-connection-string does (`pgUrlParts`, held to that package by url-secrets.test.ts)
// without importing it, which reads the files `sslcert`, `sslkey` and `sslrootcert` name (Node's
// fs in the renderer bundle; a checker that reads any path a setting names).

// scheme://[anything without / ? #]:[anything without / ? #]@ : a user part with a password.
const USERINFO_PASSWORD = /^[a-z][a-z0-9+.-]*:\/\/[^/?#@]*:[^/?#]+@/i
const PASSWORD_WORD = /passw/i

function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '))
  } catch {
    return text
  }
}

/** The query of a URL as text, decoded; '' without one. */
function queryOf(value: string): string {
  const at = value.indexOf('?')
  if (at < 0) return ''
  const hash = value.indexOf('#', at)
  return decoded(value.slice(at + 1, hash < 0 ? undefined : hash))
}

/**
 * What pg itself reads from the URL (user, password, host, port, database and every query
 * parameter, `options` among them), or null when it cannot read it: pg-connection-string's
 * reading, less its TLS settings (no file it names is read here; pg reads them when it connects).
 */
export function pgUrlParts(value: string): Record<string, unknown> | null {
  if (value.charAt(0) === '/') {
    const [host, database] = value.split(' ')
    return { host, database }
  }
  try {
    const text = / |%[^a-f0-9]|%[a-f0-9][^a-f0-9]/i.test(value)
      ? encodeURI(value).replace(/%25(\d\d)/g, '%$1')
      : value
    const url = URL.parse(text, 'postgres://base')
    if (url !== null) return urlParts(url, false)
    return urlParts(new URL(text.replace('@/', '@___DUMMY___/'), 'postgres://base'), true)
  } catch {
    return null
  }
}

function urlParts(url: URL, dummyHost: boolean): Record<string, unknown> {
  const parts: Record<string, unknown> = Object.create(null) as Record<string, unknown>
  for (const [key, v] of url.searchParams.entries()) parts[key] = v
  parts.user = parts.user || decodeURIComponent(url.username)
  parts.password = parts.password || decodeURIComponent(url.password)
  if (url.protocol === 'socket:') {
    parts.host = decodeURI(url.pathname)
    parts.database = url.searchParams.get('db')
    parts.client_encoding = url.searchParams.get('encoding')
    return parts
  }
  const hostname = (dummyHost ? '' : url.hostname).replace(/^\[(.+)\]$/, '$1')
  if (!parts.host) parts.host = decodeURIComponent(hostname)
  else if (hostname && /^%2f/i.test(hostname)) url.pathname = hostname + url.pathname
  if (!parts.port) parts.port = url.port
  const database = url.pathname.slice(1)
  parts.database = database ? decodeURI(database) : null
  return parts
}

/** Where `value` holds a password, in words ("its user part (user:password@)"…), or null. */
export function urlSecret(value: string): string | null {
  if (USERINFO_PASSWORD.test(value)) return 'its user part (user:password@)'
  try {
    if (new URL(value).password !== '') return 'its user part (user:password@)'
  } catch {
    // not a WHATWG URL: the checks below read the text
  }
  const pg = /^postgres(ql)?:|^socket:/i.test(value) ? pgUrlParts(value) : null
  if (pg !== null) {
    if (typeof pg.password === 'string' && pg.password !== '') return 'a password parameter (password=)'
    if (typeof pg.options === 'string' && PASSWORD_WORD.test(pg.options))
      return 'its options (options=…password…)'
  }
  const query = queryOf(value)
  if (/(^|[&;\s])[^&=]*passw[^&=]*=/i.test(query)) return 'a password parameter (password=)'
  if (PASSWORD_WORD.test(query)) return 'its options (options=…password…)'
  return null
}

/**
 * `value` without its password: the user part's password and every query parameter that names or
 * holds one removed; null when what is left would still hold one (the setting is dropped).
 */
export function withoutUrlSecret(value: string): string | null {
  if (urlSecret(value) === null) return value
  let out = value.replace(/^([a-z][a-z0-9+.-]*:\/\/[^/?#@:]*):[^/?#]*@/i, '$1@')
  const at = out.indexOf('?')
  if (at >= 0) {
    const hash = out.indexOf('#', at)
    const kept = out
      .slice(at + 1, hash < 0 ? undefined : hash)
      .split('&')
      .filter((pair) => !PASSWORD_WORD.test(decoded(pair)))
    out = out.slice(0, at) + (kept.length > 0 ? `?${kept.join('&')}` : '') + (hash < 0 ? '' : out.slice(hash))
  }
  return urlSecret(out) === null ? out : null
}

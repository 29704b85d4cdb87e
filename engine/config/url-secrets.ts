// A password in a URL, in every form a PostgreSQL client would read one: the user part
// (`user:secret@`, even where the rest of the URL is not one WHATWG's parser accepts, such as
// `postgres://u:secret@h:5432:99/db`), the query (`?password=`, `sslpassword=`, any case) and an
// `options` string (`-c password=…`, `PGPASSWORD=…`). Settings are a plain file and hold none
// (engine/api/schemas.ts refuses one, engine/host/settings.ts strips one from an older file).
import { parse as parsePg } from 'pg-connection-string'

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

/** What pg itself reads from the URL, or null when it cannot read it. */
export function pgUrlParts(value: string): Record<string, unknown> | null {
  try {
    // sslmode only changes TLS (and makes pg print a deprecation warning): not read here.
    return parsePg(value.replace(/([?&])sslmode=[^&#]*&?/gi, '$1'))
  } catch {
    return null
  }
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

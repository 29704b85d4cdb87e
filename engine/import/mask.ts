// Secrets out of an imported step: a credential header (Authorization, Cookie, X-Api-Key… as
// engine/config/redact.ts names them), a query parameter, a form field or a JSON string field of
// such a name becomes `${variable}`, and the target's `secrets` say which CANNONADE_SECRET_…
// environment variable a run reads it from (engine/config/secret-vars.ts). An Authorization
// header keeps its scheme (`Bearer ${authorization}`): the variable holds the credential only.
import { isSecretHeader } from '../config/redact.ts'
import { secretEnvName } from '../config/secret-vars.ts'
import { BUILTIN_VARIABLES } from '../config/wire.ts'
import type { ImportedSecret } from './types.ts'

/** One target's secrets: a variable per name and value, the same value sharing one. */
export class SecretMasker {
  readonly #byKey = new Map<string, string>()
  readonly #secrets = new Map<string, ImportedSecret>()
  readonly #target: string

  constructor(target: string) {
    this.#target = target
  }

  /** `${variable}` for `value` of `name`, noted as standing at `where`. */
  mask(name: string, value: string, where: string): string {
    const key = `${name.toLowerCase()}\n${value}`
    let variable = this.#byKey.get(key)
    if (!variable) {
      let base =
        name
          .toLowerCase()
          .replace(/[^a-z0-9_]/g, '_')
          .replace(/^(?=\d)/, '_') || 'secret'
      if ((BUILTIN_VARIABLES as readonly string[]).includes(base)) base += '_secret'
      variable = base
      for (let n = 2; this.#secrets.has(variable); n++) variable = `${base}_${n}`
      this.#byKey.set(key, variable)
      this.#secrets.set(variable, { target: this.#target, variable, env: secretEnvName(variable), where: [] })
    }
    const secret = this.#secrets.get(variable)!
    if (!secret.where.includes(where)) secret.where.push(where)
    return '${' + variable + '}'
  }

  /** The variables made, for the target's `secrets` and the notes. */
  list(): ImportedSecret[] {
    return [...this.#secrets.values()]
  }
}

const AUTH_SCHEME = /^(Bearer|Basic|Token|Digest|Negotiate|ApiKey)\s+(\S.*)$/i

export function maskHeader(
  m: SecretMasker,
  name: string,
  value: string,
  credential: boolean,
  step: string,
): string {
  if (!credential && !isSecretHeader(name)) return value
  const where = `step "${step}" header ${name}`
  const scheme = name.toLowerCase().endsWith('authorization') ? AUTH_SCHEME.exec(value) : null
  return scheme ? `${scheme[1]} ${m.mask(name, scheme[2]!, where)}` : m.mask(name, value, where)
}

function decode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '))
  } catch {
    return s
  }
}

/** `a=1&token=x`: the values of secret-looking names masked, the rest as written. */
export function maskPairs(
  m: SecretMasker,
  pairs: string,
  credentials: readonly string[],
  where: (name: string) => string,
): string {
  return pairs
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=')
      if (eq <= 0) return pair
      const name = decode(pair.slice(0, eq))
      const value = pair.slice(eq + 1)
      if (value === '' || !(isSecretHeader(name) || credentials.includes(name))) return pair
      return `${pair.slice(0, eq)}=${m.mask(name, value, where(name))}`
    })
    .join('&')
}

/** A path's query with its secrets masked. */
export function maskPath(
  m: SecretMasker,
  path: string,
  credentials: readonly string[],
  step: string,
): string {
  const q = path.indexOf('?')
  if (q < 0) return path
  return `${path.slice(0, q + 1)}${maskPairs(m, path.slice(q + 1), credentials, (n) => `step "${step}" query ${n}`)}`
}

// A JSON string member: "key": "value" (escapes kept as written).
const JSON_MEMBER = /"((?:[^"\\]|\\.)*)"(\s*:\s*)"((?:[^"\\]|\\.)*)"/g

/** A JSON or form body with the values of secret-looking fields masked; other bodies as they are. */
export function maskBody(m: SecretMasker, body: string, contentType: string, step: string): string {
  const where = (name: string) => `step "${step}" body ${name}`
  if (/json/i.test(contentType) || /^\s*[{[]/.test(body)) {
    try {
      JSON.parse(body)
    } catch {
      return body
    }
    return body.replace(JSON_MEMBER, (whole, rawKey: string, colon: string, value: string) => {
      let key: string
      try {
        key = JSON.parse(`"${rawKey}"`) as string
      } catch {
        return whole
      }
      if (value === '' || !isSecretHeader(key)) return whole
      return `"${rawKey}"${colon}"${m.mask(key, value, where(key))}"`
    })
  }
  if (/x-www-form-urlencoded/i.test(contentType)) return maskPairs(m, body, [], where)
  return body
}

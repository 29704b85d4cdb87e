// Secrets out of an imported step: a credential header (Authorization, Cookie, X-Api-Key… as
// engine/config/redact.ts names them), a query parameter or form field of a credential's name
// (redact.ts's parameter rule: `sig`, `key`, `pwd` too), and every string under a JSON field of
// such a name (`"password": ["…"]` as well as `"password": "…"`) becomes `${variable}`, and the
// target's `secrets` say which CANNONADE_SECRET_… environment variable a run reads it from
// (engine/config/secret-vars.ts). An Authorization header keeps its scheme (`Bearer
// ${authorization}`): the variable holds the credential only. Each value is masked in constant
// time: 100,000 of them take no longer than a linear pass.
import { isSecretHeader, isSecretParam } from '../config/redact.ts'
import { secretEnvName } from '../config/secret-vars.ts'
import { BUILTIN_VARIABLES } from '../config/wire.ts'
import type { ImportedSecret } from './types.ts'

/** One target's secrets: a variable per name and value, the same value sharing one. */
export class SecretMasker {
  readonly #byKey = new Map<string, string>()
  readonly #secrets = new Map<string, ImportedSecret>()
  /** Where each variable stands, as a set (the list in #secrets keeps their order). */
  readonly #where = new Map<string, Set<string>>()
  /** The next suffix to try per variable base (token, token_2, token_3…). */
  readonly #next = new Map<string, number>()
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
      let n = this.#next.get(base) ?? 1
      variable = n === 1 ? base : `${base}_${n}`
      while (this.#secrets.has(variable)) variable = `${base}_${++n}`
      this.#next.set(base, n + 1)
      this.#byKey.set(key, variable)
      this.#secrets.set(variable, { target: this.#target, variable, env: secretEnvName(variable), where: [] })
      this.#where.set(variable, new Set())
    }
    const seen = this.#where.get(variable)!
    if (!seen.has(where)) {
      seen.add(where)
      this.#secrets.get(variable)!.where.push(where)
    }
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
      if (value === '' || !(isSecretParam(name) || credentials.includes(name))) return pair
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

/** A JSON or form body with the values of secret-looking fields masked; other bodies as they are. */
export function maskBody(m: SecretMasker, body: string, contentType: string, step: string): string {
  const where = (name: string) => `step "${step}" body ${name}`
  if (/json/i.test(contentType) || /^\s*[{[]/.test(body)) {
    try {
      JSON.parse(body)
    } catch {
      return body
    }
    return maskJson(body, (key, value) => m.mask(key, value, where(key)))
  }
  if (/x-www-form-urlencoded/i.test(contentType)) return maskPairs(m, body, [], where)
  return body
}

/** The member name a value stands under, and the secret name above it (if any). */
interface Frame {
  object: boolean
  key: string | null
  secret: string | null
}

/**
 * Valid JSON `text` with every string value under a secret-looking member name (at any depth:
 * `"password": ["a", {"x": "b"}]`) replaced by `mask(name, raw)`'s text, the rest byte for byte.
 * `raw` is the string as written, escapes kept.
 */
function maskJson(text: string, mask: (name: string, raw: string) => string): string {
  const stack: Frame[] = []
  let out = ''
  let last = 0
  let expectKey = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (c === '{' || c === '[') {
      const top = stack.at(-1)
      const secret = top?.secret ?? (top?.key && isSecretHeader(top.key) ? top.key : null)
      stack.push({ object: c === '{', key: null, secret })
      expectKey = c === '{'
    } else if (c === '}' || c === ']') stack.pop()
    else if (c === ',') expectKey = stack.at(-1)?.object ?? false
    else if (c === '"') {
      let j = i + 1
      while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1
      const raw = text.slice(i + 1, j)
      const top = stack.at(-1)
      if (top?.object && expectKey) {
        top.key = JSON.parse(text.slice(i, j + 1)) as string
        expectKey = false
      } else if (top && raw !== '') {
        const name = top.secret ?? (top.object && top.key && isSecretHeader(top.key) ? top.key : null)
        if (name !== null) {
          out += `${text.slice(last, i + 1)}${mask(name, raw)}`
          last = j
        }
      }
      i = j
    }
  }
  return out + text.slice(last)
}

// What went wrong talking to PostgreSQL, in words a user can act on. The password never appears:
// every URL shown is masked, and messages are built from the parsed parts, not the raw URL.
import { ApiError } from '../api/errors.ts'
import { redactUrl } from '../config/redact.ts'

export interface PgTarget {
  user: string
  host: string
  port: string
  database: string
  /** The URL with its password replaced by ***. */
  masked: string
}

/** A URL as messages show it (its password masked: redactUrl); text that is not a URL is not shown at all. */
export function maskUrl(url: string): string {
  try {
    new URL(url)
  } catch {
    return '(an unparseable URL)'
  }
  return redactUrl(url)
}

/**
 * The URL to connect with: `password` (a stored secret) is added when the URL carries none. Passed
 * as a separate pg option it would be lost: pg lays the parsed URL, empty password included, over it.
 */
export function withPassword(url: string, password: string | undefined): string {
  if (!password) return url
  try {
    const u = new URL(url)
    if (u.password || u.searchParams.has('password')) return url
    u.password = encodeURIComponent(password)
    return u.toString()
  } catch {
    return url
  }
}

/** Check and describe a postgres:// URL; ApiError('bad-input', field 'url') when it is not one. */
export function parsePgUrl(url: string): PgTarget {
  let u: URL
  try {
    u = new URL(url)
  } catch {
    throw new ApiError(
      'bad-input',
      'url is not a valid URL; expected postgres://user:password@host:5432/database',
      'url',
    )
  }
  if (u.protocol !== 'postgres:' && u.protocol !== 'postgresql:') {
    throw new ApiError(
      'bad-input',
      `url must start with postgres:// or postgresql://, got "${u.protocol}//…"`,
      'url',
    )
  }
  const socketHost = u.searchParams.get('host')
  return {
    user: decodeURIComponent(u.username) || process.env.PGUSER || 'the current user',
    host: u.hostname || socketHost || 'localhost',
    port: u.port || '5432',
    database:
      decodeURIComponent(u.pathname.replace(/^\//, '')) || decodeURIComponent(u.username) || 'postgres',
    masked: maskUrl(url),
  }
}

interface PgLikeError {
  code?: string
  message?: string
  errno?: number
  syscall?: string
}

/** True when the error means the connection is gone (the server will have rolled back). */
export function isConnectionLost(err: unknown): boolean {
  const e = err as PgLikeError
  return (
    e?.code === '57P01' || // terminated by administrator (pg_terminate_backend)
    e?.code === '57P02' ||
    e?.code === '57P03' ||
    e?.code === 'ECONNRESET' ||
    e?.code === 'EPIPE' ||
    /Connection terminated|connection.*(closed|ended)|write after end|not queryable/i.test(e?.message ?? '')
  )
}

/**
 * An ApiError for a failed connection or statement. `during` says what was happening, for
 * example "exporting run 7"; it ends messages about a lost connection.
 */
export function describePgError(err: unknown, target: PgTarget, during?: string): ApiError {
  if (err instanceof ApiError) return err
  const e = err as PgLikeError
  const at = `${target.host}:${target.port}`
  const where = `(${target.masked})`
  switch (e?.code) {
    case '28P01':
      return new ApiError(
        'bad-input',
        `PostgreSQL rejected the password for user "${target.user}" ${where}`,
        'url',
      )
    case '28000':
      return new ApiError(
        'bad-input',
        `PostgreSQL refused user "${target.user}": ${e.message ?? ''} ${where}`,
        'url',
      )
    case '3D000':
      return new ApiError(
        'bad-input',
        `database "${target.database}" does not exist on ${at} ${where}`,
        'url',
      )
    case '42501':
      return new ApiError(
        'bad-input',
        /schema/i.test(e.message ?? '') || /database/i.test(e.message ?? '')
          ? `user "${target.user}" may not create the "cannonade" schema in database "${target.database}" (${e.message}); ` +
              'grant CREATE on the database to this user, or have its owner run the export once'
          : `user "${target.user}" lacks a privilege in database "${target.database}": ${e.message}`,
        'url',
      )
    case '55P03':
      return new ApiError(
        'conflict',
        `PostgreSQL at ${at} kept a lock${during ? ` needed for ${during}` : ''} past the lock timeout: another export of the same run into this database is still going ${where}`,
      )
    case 'ECONNREFUSED':
      return new ApiError(
        'unavailable',
        `cannot reach PostgreSQL at ${at}: connection refused (is it running and listening there?) ${where}`,
        'url',
      )
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new ApiError(
        'unavailable',
        `cannot reach PostgreSQL: host "${target.host}" not found ${where}`,
        'url',
      )
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return new ApiError('unavailable', `cannot reach PostgreSQL at ${at}: ${e.code} ${where}`, 'url')
  }
  if (/timeout expired|timed out/i.test(e?.message ?? '')) {
    return new ApiError(
      'unavailable',
      `cannot reach PostgreSQL at ${at}: no answer within the connection timeout ${where}`,
      'url',
    )
  }
  if (isConnectionLost(err)) {
    return new ApiError(
      'unavailable',
      `the connection to PostgreSQL at ${at} was lost${during ? ` while ${during}` : ''}: ${e?.message ?? 'closed'}`,
    )
  }
  const message = e?.message ?? String(err)
  return new ApiError(
    'internal',
    `PostgreSQL error${during ? ` while ${during}` : ''}: ${message}${e?.code ? ` (${e.code})` : ''}`,
  )
}

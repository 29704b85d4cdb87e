// Field checks several parts of a RunConfig share: HTTP methods, header names, seconds, counts.
import { z } from 'zod'
import { LIMITS } from './limits.ts'

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const
// RFC 9110 token: what may stand in a header name.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/

export const headerName = z.string().regex(HEADER_NAME, 'must be a valid HTTP header name')
export const positiveSeconds = z
  .number()
  .positive('must be greater than 0')
  .min(LIMITS.minStepSeconds, `must be at least ${LIMITS.minStepSeconds} (a millisecond)`)
  .max(LIMITS.scheduleSeconds, `must be at most ${LIMITS.scheduleSeconds} (a week)`)
/** A pause, hold or idle time: may be 0. */
export const idleSeconds = z
  .number()
  .min(0, 'must be 0 or more')
  .max(LIMITS.scheduleSeconds, `must be at most ${LIMITS.scheduleSeconds} (a week)`)
export const requestCount = z
  .number()
  .int('must be a whole number')
  .positive('must be greater than 0')
  .max(LIMITS.maxRequests, `must be at most ${LIMITS.maxRequests.toLocaleString('en')}`)
export const connectionCount = z
  .number()
  .int('must be a whole number')
  .positive('must be greater than 0')
  .max(100_000)

/** The prefix of the environment variables a target's `secrets` are read from (secret-vars.ts). */
export const SECRET_ENV_PREFIX = 'CANNONADE_SECRET_'

/**
 * A target's secret variables: `${name}` in its steps → the environment variable holding the value.
 * Only CANNONADE_SECRET_… names: a shared config must not be able to send CANNONADE_PG_URL, a cloud
 * token or any other variable of the engine's environment to a server it names.
 */
export const secretVariables = z
  .record(
    z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be a variable name (letters, digits, _)'),
    z
      .string({ error: `must name an environment variable ${SECRET_ENV_PREFIX}…` })
      .regex(
        new RegExp(`^${SECRET_ENV_PREFIX}[A-Z0-9_]+$`),
        `must be an environment variable named ${SECRET_ENV_PREFIX}… (capitals, digits, _)`,
      ),
  )
  .refine((r) => Object.keys(r).length <= LIMITS.headers, `at most ${LIMITS.headers} secrets`)

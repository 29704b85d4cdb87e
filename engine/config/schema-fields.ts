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

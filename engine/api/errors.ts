// The error every transport carries with its code, so the UI can say what went wrong and where:
// a class on the engine side, a plain {code, message, field} body on the wire (HTTP, IPC,
// contextBridge copy only plain data), and the HTTP status each code maps to.
import { ConfigError } from '../config/errors.ts'

export const API_ERROR_CODES = ['bad-input', 'not-found', 'conflict', 'unavailable', 'internal'] as const
export type ApiErrorCode = (typeof API_ERROR_CODES)[number]

/** HTTP status for an error code. */
export const HTTP_STATUS: Record<ApiErrorCode, number> = {
  'bad-input': 400,
  'not-found': 404,
  conflict: 409,
  unavailable: 503,
  internal: 500,
}

export class ApiError extends Error {
  readonly code: ApiErrorCode
  readonly field: string | undefined
  constructor(code: ApiErrorCode, message: string, field?: string) {
    super(message)
    this.name = 'ApiError'
    this.code = code
    this.field = field
  }
}

export interface ErrorBody {
  code: ApiErrorCode
  message: string
  field?: string
}

export function isApiErrorCode(code: string): code is ApiErrorCode {
  return (API_ERROR_CODES as readonly string[]).includes(code)
}

/** What any thrown value looks like on the wire. Unknown errors become `internal`, message kept. */
export function toErrorBody(err: unknown): ErrorBody {
  if (err instanceof ApiError) {
    return err.field === undefined
      ? { code: err.code, message: err.message }
      : { code: err.code, message: err.message, field: err.field }
  }
  if (err instanceof ConfigError) return { code: 'bad-input', message: err.message, field: err.field }
  if (err instanceof Error) {
    // An ApiError rebuilt in another realm (worker, utility process) keeps its shape, not its class.
    const code = (err as Error & { code?: unknown }).code
    if (typeof code === 'string' && isApiErrorCode(code)) {
      const field = (err as Error & { field?: unknown }).field
      return typeof field === 'string'
        ? { code, message: err.message, field }
        : { code, message: err.message }
    }
    return { code: 'internal', message: err.message }
  }
  return { code: 'internal', message: String(err) }
}

export function fromErrorBody(body: ErrorBody): ApiError {
  return new ApiError(body.code, body.message, body.field)
}
